import { z } from 'zod';
import { MESSAGES } from '../messages';
import { localDateSchema } from './reservations';

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** `HH:mm` on the 30-minute cells of the opening-slot calendar, 00:00 to 24:00. */
const cellTime = z
  .string({ error: MESSAGES.shiftTimeInvalid })
  .regex(/^\d{2}:\d{2}$/, { error: MESSAGES.shiftTimeInvalid, abort: true })
  .refine(
    (value) => {
      const [hours, minutes] = value.split(':').map(Number) as [number, number];
      return (minutes === 0 || minutes === 30) && hours * 60 + minutes <= 24 * 60;
    },
    { error: MESSAGES.shiftTimeInvalid },
  );

/** One working weekday of a staff member's weekly template (0 = Sunday). */
const shiftDaySchema = z
  .object({
    weekday: z.number({ error: MESSAGES.shiftWeekdayInvalid }).int().min(0).max(6),
    start_time: cellTime,
    end_time: cellTime,
  })
  .refine((day) => day.start_time < day.end_time, { error: MESSAGES.shiftTimeInvalid, path: ['end_time'] });
export type ShiftDay = z.infer<typeof shiftDaySchema>;

/** GET /api/admin/shifts/?user_id=: the weekly template (working weekdays only, Sunday first). */
export const shiftTemplateSchema = z.object({ user_id: z.number().int(), days: z.array(shiftDaySchema) });
export type ShiftTemplate = z.infer<typeof shiftTemplateSchema>;

export const shiftTemplateQuerySchema = z.object({ user_id: id.optional() });

/** PUT /api/admin/shifts/: the whole template at once (a weekday left out is a day off). */
export const saveShiftTemplateRequestSchema = z.object({
  user_id: id.optional(),
  days: z
    .array(shiftDaySchema, { error: MESSAGES.invalidInput })
    .max(7, { error: MESSAGES.shiftWeekdayDuplicate })
    .refine((days) => new Set(days.map((day) => day.weekday)).size === days.length, {
      error: MESSAGES.shiftWeekdayDuplicate,
    }),
});

/** A salon holiday (臨時休業): no template applies that day. */
export const holidaySchema = z.object({ date: z.string(), note: z.string() });
export type Holiday = z.infer<typeof holidaySchema>;

export const holidaysQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  month: z.coerce.number().int().min(1).max(12),
});

export const createHolidayRequestSchema = z.object({
  date: localDateSchema,
  note: z.string().trim().max(100, { error: MESSAGES.tooLong }).optional().default(''),
});

export const holidayParamsSchema = z.object({ date: localDateSchema });

/** The day whose hand-set slots are removed again (DELETE /api/admin/available-slots/): it follows the template. */
export const slotExceptionQuerySchema = z.object({ date: localDateSchema, user_id: id.optional() });

/**
 * The 409 of a schedule change that would leave active bookings outside working time (`code: 'stranded'`): the
 * change is not made, and the bookings that stand in its way are listed.
 */
// eslint-disable-next-line import/no-unused-modules -- the list its type is read from, kept as the one source
export const strandedReservationsSchema = z.object({
  detail: z.string(),
  code: z.literal('stranded'),
  reservations: z.array(
    z.object({
      reservation_number: z.string(),
      start_time: z.string(),
      customer_name: z.string(),
      staff_name: z.string(),
    }),
  ),
});
export type StrandedReservations = z.infer<typeof strandedReservationsSchema>;

/** GET /api/admin/schedule-days/?year&month&user_id: how each day of the month is decided, for the calendar. */
export const scheduleDaySchema = z.object({
  date: z.string(),
  /** template: the weekly template; exception: set by hand; closed: a 定休日; holiday: a salon holiday; off: no template. */
  source: z.enum(['template', 'exception', 'closed', 'holiday', 'off']),
  /** Whether the staff member works at all that day. */
  open: z.boolean(),
});
export type ScheduleDay = z.infer<typeof scheduleDaySchema>;
