import { z } from 'zod';
import { MESSAGES } from '../messages';
import { nominatedStaffSchema, optionIdsSchema } from './common';
import { localDateSchema } from './reservations';

/** How far ahead a customer may wait for a day: about three months, as far as anyone plans a nail visit. */
export const WAITLIST_MAX_DAYS_AHEAD = 92;
/** Waiting entries one customer may hold at once: enough for real use, not a way to flood the salon. */
export const WAITLIST_MAX_WAITING = 5;

const id = z.coerce.number({ error: MESSAGES.requiredMissing }).int().positive().max(2_147_483_647);

/** A salon-local `HH:mm` of the day; the server checks it is on the salon's grid. Empty or null = no bound. */
const windowTime = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z
    .string({ error: MESSAGES.waitlistTimeInvalid })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: MESSAGES.waitlistTimeInvalid })
    .optional(),
);

/** POST /api/waitlist/: join the waitlist of a day for a service (with options and 指名, and a window of starts). */
export const joinWaitlistRequestSchema = z
  .object({
    service_id: id,
    date: localDateSchema,
    staff_id: nominatedStaffSchema,
    option_ids: optionIdsSchema.optional().default([]),
    time_from: windowTime,
    time_to: windowTime,
  })
  .superRefine((body, context) => {
    if (body.time_from && body.time_to && body.time_from >= body.time_to) {
      context.addIssue({ code: 'custom', path: ['time_to'], message: MESSAGES.waitlistWindowOrder });
    }
  });
export type JoinWaitlistRequest = z.input<typeof joinWaitlistRequestSchema>;

const WAITLIST_STATUSES = ['waiting', 'booked', 'withdrawn', 'expired'] as const;

/** One entry as its customer sees it. Times are salon-local (`HH:mm`; created_at `yyyy-MM-ddTHH:mm:ss`). */
export const waitlistEntrySchema = z.object({
  id: z.number().int(),
  service_id: z.number().int(),
  service_name: z.string(),
  option_ids: z.array(z.number().int()),
  staff_id: z.number().int().nullable(),
  staff_name: z.string().nullable(),
  date: z.string(),
  time_from: z.string().nullable(),
  time_to: z.string().nullable(),
  status: z.enum(WAITLIST_STATUSES),
  created_at: z.string(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

/** One entry on the staff list of a day: who waits, and whether a start was offered to them (the last offer). */
export const adminWaitlistEntrySchema = waitlistEntrySchema.extend({
  customer_id: z.number().int(),
  customer_name: z.string(),
  offers: z.number().int(),
  last_offered_at: z.string().nullable(),
});
export type AdminWaitlistEntry = z.infer<typeof adminWaitlistEntrySchema>;

export const waitlistIdParamsSchema = z.object({ id });
export const adminWaitlistQuerySchema = z.object({ date: localDateSchema });
