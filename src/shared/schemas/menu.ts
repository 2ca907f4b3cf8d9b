import { z } from 'zod';
import { MAX_OPTION_MINUTES, OPTION_MINUTES_STEP } from '../constants';
import { MESSAGES } from '../messages';
import { requiredText } from './common';

const MAX_SERVICE_PRICE = 10_000_000;
/** The 再来店のご案内 cycle's range in days (the database checks the same, migration 0011). */
export const REBOOK_CYCLE_MIN_DAYS = 7;
export const REBOOK_CYCLE_MAX_DAYS = 180;

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * A whole number sent as a number or as a numeric string: the API itself sends prices as strings ("5000"),
 * and a form may send back what it read. Blank is "missing"; anything else out of [min, max] or not whole
 * carries `message` (or `maxMessage` above the maximum), once.
 */
export const wholeNumber = (message: string, range: { min?: number; max?: number; maxMessage?: string } = {}) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d{1,16}(\.0+)?\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => (isBlank(issue.input) ? MESSAGES.fieldRequired : message) })
      .int({ error: message, abort: true })
      .min(range.min ?? -2_147_483_648, { error: message, abort: true })
      // Aborts too: a refinement chained after (a step, say) must not repeat the message for the same value.
      .max(range.max ?? 2_147_483_647, { error: range.maxMessage ?? message, abort: true }),
  );

const priceSchema = wholeNumber(MESSAGES.priceInvalid, {
  min: 0,
  max: MAX_SERVICE_PRICE,
  maxMessage: MESSAGES.priceTooHigh,
});

/**
 * A service takes 15 to 240 minutes in steps of 5, as the database checks (migration 0024). Kept here, not in
 * constants.ts, because only the staff app needs it: the customer bundle stays as small as its budget.
 */
export const SERVICE_DURATION_MIN = 15;
export const SERVICE_DURATION_MAX = 240;
export const SERVICE_DURATION_STEP = 5;
export function isServiceDuration(minutes: number): boolean {
  return (
    Number.isInteger(minutes) &&
    minutes >= SERVICE_DURATION_MIN &&
    minutes <= SERVICE_DURATION_MAX &&
    minutes % SERVICE_DURATION_STEP === 0
  );
}

const durationSchema = wholeNumber(MESSAGES.durationInvalid).refine(isServiceDuration, {
  error: MESSAGES.durationInvalid,
});

const salonSchema = wholeNumber(MESSAGES.salonNotFound, { min: 1 });

/** POST /api/services/ (docs/screens.md#menu-management). `salon`, when sent, must be this salon's id. */
export const createServiceRequestSchema = z.object({
  name: requiredText(100),
  price: priceSchema,
  duration_minutes: durationSchema,
  salon: salonSchema.optional(),
  /** 再来店のご案内（日数）: blank or null for none. */
  rebook_cycle_days: z
    .preprocess(
      (value) => (isBlank(value) ? null : value),
      wholeNumber(MESSAGES.rebookCycleInvalid, { min: REBOOK_CYCLE_MIN_DAYS, max: REBOOK_CYCLE_MAX_DAYS }).nullable(),
    )
    .optional(),
});

/** PATCH /api/services/{id}/: any subset of the create fields, with the same rules. */
export const updateServiceRequestSchema = createServiceRequestSchema.partial();

/** The id in /api/services/{id}/: checked in the handler, so that a malformed one is a 404 like a missing one. */
export const serviceIdParamsSchema = z.object({ id: z.string().max(32) });

const optionDurationSchema = wholeNumber(MESSAGES.optionDurationInvalid, { min: 0, max: MAX_OPTION_MINUTES }).refine(
  (value) => value % OPTION_MINUTES_STEP === 0,
  { error: MESSAGES.optionDurationInvalid },
);

/** POST /api/services/{id}/options/: an option of that service, with its own price and added time. */
export const createOptionRequestSchema = z.object({
  name: requiredText(100),
  price: priceSchema,
  duration_minutes: optionDurationSchema,
});

/** PATCH /api/services/{id}/options/{optionId}/: any subset, with the same rules. */
export const updateOptionRequestSchema = createOptionRequestSchema.partial();

/** The ids in /api/services/{id}/options/{optionId}/, checked in the handler like the service's own id. */
export const optionIdParamsSchema = z.object({ id: z.string().max(32), optionId: z.string().max(32) });

const MAX_INT4 = 2_147_483_647;
const isServiceId = (value: unknown) =>
  (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INT4) ||
  (typeof value === 'string' && /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_INT4);

/**
 * このオプションを使えるメニュー: service ids, each an active service of this salon (the server checks that part).
 * Checked as a whole, so that every refusal is one message on `service_ids`; a repeated id counts once.
 */
const optionServiceIdsSchema = z
  .array(z.unknown(), {
    error: (issue) => (issue.input === undefined ? MESSAGES.fieldRequired : MESSAGES.optionServicesInvalid),
  })
  .max(200, { error: MESSAGES.optionServicesInvalid, abort: true })
  .refine((ids) => ids.every(isServiceId), { error: MESSAGES.optionServicesInvalid })
  .transform((ids) => [...new Set(ids.map(Number))]);

/** POST /api/admin/options/: an option of the salon and the menus that allow it (none is allowed: offered nowhere). */
export const createSalonOptionRequestSchema = createOptionRequestSchema.extend({ service_ids: optionServiceIdsSchema });

/** PATCH /api/admin/options/{id}/: any subset; `service_ids` replaces the set of menus that allow it. */
export const updateSalonOptionRequestSchema = createSalonOptionRequestSchema.partial();

/** The id in /api/admin/options/{id}/, checked in the handler like the others (a malformed one is a 404). */
export const salonOptionIdParamsSchema = z.object({ id: z.string().max(32) });

/** GET /api/admin/options/: an active option of the salon, its price in yen and the active menus that allow it. */
export const salonOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.number().int(),
  duration_minutes: z.number().int(),
  service_ids: z.array(z.number().int()),
  sort_order: z.number().int(),
});
export type SalonOption = z.infer<typeof salonOptionSchema>;
