import { z } from 'zod';
import { RESERVATION_STATUSES } from '../constants';
import { normaliseFurigana, normalisePhone } from '../kana';
import { MESSAGES } from '../messages';
import { nominatedStaffSchema, optionIdsSchema } from './common';

/**
 * `yyyy-MM-dd` that is a real calendar date. The shape check aborts: without it the calendar check also ran on
 * a malformed value and the field carried the same message twice.
 */
/** The staff reservation lists answer this many rows per page unless asked (X-Total-Count says how many matched). */
export const RESERVATION_PAGE_DEFAULT = 500;
export const RESERVATION_PAGE_MAX = 1000;

export const localDateSchema = z
  .string({ error: MESSAGES.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: MESSAGES.invalidDate, abort: true })
  .refine((value) => isRealDate(value), { error: MESSAGES.invalidDate });

/** The API's naive salon-local date-time, `yyyy-MM-ddTHH:mm` with optional `:ss` (docs/architecture.md). */
export const localDateTimeSchema = z
  .string({ error: MESSAGES.requiredMissing })
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, { error: MESSAGES.invalidDateTime, abort: true })
  .refine(
    (value) => isRealDate(value.slice(0, 10)) && Number(value.slice(11, 13)) < 24 && Number(value.slice(14, 16)) < 60,
    {
      error: MESSAGES.invalidDateTime,
    },
  )
  .transform((value) => (value.length === 16 ? `${value}:00` : value));

function isRealDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 2000 && y <= 2100 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const id = z.coerce.number({ error: MESSAGES.requiredMissing }).int().positive().max(2_147_483_647);

/** docs/screens.md#booking-details-step: katakana with the long-vowel mark and spaces. */
const KATAKANA_PATTERN = /^[\u30A1-\u30FA\u30FC\u30FB\u3000 ]*$/;
/** Hiragana and half-width katakana typed in are stored as katakana (src/shared/kana.ts normaliseFurigana). */
export const furiganaSchema = z
  .string()
  .transform(normaliseFurigana)
  .pipe(z.string().max(100, { error: MESSAGES.tooLong }).regex(KATAKANA_PATTERN, { error: MESSAGES.furiganaKatakana }));
export const emailSchema = z
  .string({ error: MESSAGES.emailInvalid })
  .trim()
  .max(254, { error: MESSAGES.tooLong })
  .pipe(z.email({ error: MESSAGES.emailInvalid }));
/** Hyphens, spaces and full-width digits are accepted; digits alone are stored (src/shared/kana.ts). */
export const phoneSchema = z
  .string()
  .transform(normalisePhone)
  .pipe(z.string().max(20, { error: MESSAGES.tooLong }).regex(/^\d*$/, { error: MESSAGES.phoneDigits }));
const personName = z
  .string({ error: MESSAGES.requiredMissing })
  .trim()
  .min(1, { error: MESSAGES.requiredMissing })
  .max(100, { error: MESSAGES.tooLong });

/** POST /api/reservations/ (docs/screens.md#booking-confirm-step create payload). */
export const createReservationRequestSchema = z.object({
  salon: id,
  service: id,
  /** 指名: absent or null = 指名なし. */
  staff_id: nominatedStaffSchema,
  option_ids: optionIdsSchema.optional().default([]),
  start_time: localDateTimeSchema,
  customer_name: personName,
  customer_furigana: furiganaSchema.optional().default(''),
  customer_email: emailSchema,
  customer_phone: phoneSchema.optional().default(''),
});
export type CreateReservationRequest = z.input<typeof createReservationRequestSchema>;

/** POST /api/admin/reservations/create-for-customer/ */
export const createForCustomerRequestSchema = z.object({
  service_id: id,
  customer_id: id,
  start_time: localDateTimeSchema,
  /** The owner or the front desk may assign another staff member; ignored for a nailist. */
  staff_id: id.optional(),
  option_ids: optionIdsSchema.optional().default([]),
  /** 指名: the customer named the staff member booked for, whose 指名料 is added to the price. */
  is_nominated: z.boolean().optional().default(false),
});

/** POST /api/admin/reservations/create-with-new-customer/ */
export const createWithNewCustomerRequestSchema = z.object({
  name: personName,
  phone_number: phoneSchema.optional().default(''),
  email: z
    .union([z.literal(''), emailSchema])
    .optional()
    .default(''),
  service_id: id,
  start_time: localDateTimeSchema,
  staff_id: id.optional(),
  option_ids: optionIdsSchema.optional().default([]),
  is_nominated: z.boolean().optional().default(false),
});

/**
 * POST /api/reservations/{n}/reschedule/ (customer) and /api/admin/reservations/{n}/reschedule/ (staff): the new start,
 * optionally with another staff member. Staff queueing it offline also send `expected_start_time`, the start they
 * saw: a reservation moved since is a conflict, not moved again.
 */
export const rescheduleRequestSchema = z.object({
  start_time: localDateTimeSchema,
  staff_id: nominatedStaffSchema,
  expected_start_time: localDateTimeSchema.optional(),
});
export type RescheduleRequest = z.input<typeof rescheduleRequestSchema>;

/**
 * The optional body of the staff status actions (confirm, cancel, complete, no-show): the start the staff member saw
 * when they pressed the button. The offline outbox always sends it, so an action queued against a time that has
 * since moved is refused as a conflict (409 `rescheduled`) instead of applied to the new time.
 */
export const staffActionRequestSchema = z.object({ expected_start_time: localDateTimeSchema.optional() }).optional();

const reservationStatusSchema = z.enum(RESERVATION_STATUSES);

/** A reservation as the detail pages show it (customer and staff). Prices are numeric strings (docs/screens.md#customer-reservation-detail). */
export const reservationSchema = z.object({
  id: z.number().int(),
  reservation_number: z.string(),
  /** The short code (8 characters, no 0/O/1/I/L) a customer reads out on the phone; staff search by it. */
  reservation_code: z.string(),
  status: reservationStatusSchema,
  salon: z.object({ name: z.string() }),
  /**
   * The service as booked. `price` and `duration_minutes` are the totals the customer pays and is served (the service,
   * its options and the 指名料), as the detail page shows them.
   */
  service: z.object({ id: z.number().int(), name: z.string(), price: z.string(), duration_minutes: z.number().int() }),
  /** The options booked (snapshot: name, price and time when booked). */
  options: z.array(
    z.object({ id: z.number().int(), name: z.string(), price: z.string(), duration_minutes: z.number().int() }),
  ),
  /** 指名: whether the customer named the staff member, and the 指名料 included in the price. */
  is_nominated: z.boolean(),
  nomination_fee: z.string(),
  service_name: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  customer_furigana: z.string(),
  customer_email: z.string(),
  customer_phone: z.string(),
  staff_id: z.number().int(),
  staff_name: z.string(),
  /** The last moment a customer may cancel online (salon-local), and whether this caller may cancel now. */
  cancellation_deadline: z.string(),
  can_cancel: z.boolean(),
  updated_at: z.string(),
  /**
   * Staff only (server/db/incidents.ts): an online booking left pending because of the customer's 無断欠席 and
   * 直前キャンセル; whether this booking's own cancel was late; the customer's counts as they are now.
   */
  needs_approval: z.boolean().optional(),
  cancelled_late: z.boolean().optional(),
  customer_no_show_count: z.number().int().optional(),
  customer_late_cancel_count: z.number().int().optional(),
});
export type Reservation = z.infer<typeof reservationSchema>;

/** GET /api/reservations/: the signed-in customer's own bookings, upcoming (soonest first) and past (latest first). */
export const customerReservationListSchema = z.object({
  upcoming: z.array(reservationSchema),
  past: z.array(reservationSchema),
});
export type CustomerReservationList = z.infer<typeof customerReservationListSchema>;

/** The 予約コード as stored, from what was typed (src/shared/reservation-code.ts). */
export { normalizeReservationCode } from '../reservation-code';

export const reservationNumberParamsSchema = z.object({ reservationNumber: z.string().max(64) });

/**
 * POST /api/confirm-reservation-and-notify/ (the check page): how the next reservation was sent. 'email': this
 * month's LINE pushes are spent (server/outbox/line-budget.ts); 'none': it could not be sent at all.
 */
export const notifyLatestAnswerSchema = z.object({
  detail: z.string(),
  reservation_number: z.string(),
  channel: z.enum(['line', 'email', 'none']),
});
export type NotifyLatestAnswer = z.infer<typeof notifyLatestAnswerSchema>;
