import { z } from 'zod';
import { MESSAGES } from '../messages';
import { httpsUrlOrEmpty, optionalText, requiredText } from './common';
import { wholeNumber } from './menu';
import { invoiceRegistrationNumberSchema, openingFloatSchema, taxRoundingSchema } from './register';

/** `HH:mm` (an optional `:00` is dropped) on the 30-minute grid from 00:00 to 24:00 inclusive. */
const gridTime = z
  .string({ error: MESSAGES.businessHoursGrid })
  .trim()
  .regex(/^\d{2}:\d{2}(:00)?$/, { error: MESSAGES.businessHoursGrid, abort: true })
  .transform((value) => value.slice(0, 5))
  .refine(
    (value) => {
      const [hours, minutes] = value.split(':').map(Number) as [number, number];
      return (minutes === 0 || minutes === 30) && hours * 60 + minutes <= 24 * 60;
    },
    { error: MESSAGES.businessHoursGrid },
  );

/** How customers reach the salon; '' = not given (the pages then leave that line out). */
function salonContactShape() {
  return {
    phone_number: z.string(),
    address: z.string(),
    map_url: z.string(),
    opening_hours_text: z.string(),
  };
}

/** A salon phone number: digits with optional hyphens (tap-to-call dials it as typed), or empty. */
const salonPhone = z
  .string({ error: MESSAGES.salonPhoneInvalid })
  .trim()
  .max(20, { error: MESSAGES.salonPhoneInvalid })
  .regex(/^(|\d[\d-]*\d)$/, { error: MESSAGES.salonPhoneInvalid });

/** A map link: an https URL, or empty. */
const mapUrl = httpsUrlOrEmpty(MESSAGES.mapUrlInvalid);

/** GET /api/admin/settings/ and PATCH's answer (docs/architecture.md settings; times as `HH:mm`). */
export const salonSettingsSchema = z.object({
  salon_name: z.string(),
  cancellation_deadline_days: z.number().int(),
  min_notice_minutes: z.number().int(),
  max_upcoming_per_customer: z.number().int(),
  business_start: z.string(),
  business_end: z.string(),
  reminders_enabled: z.boolean(),
  ...salonContactShape(),
  /** Starts are offered every this many minutes: 15, 30 or 60. */
  slot_minutes: z.number().int(),
  /** インターバル: cleaning time after each booking (0–60). */
  buffer_minutes: z.number().int(),
  /** A booking's total time is rounded up to this for the time it blocks (5 = as booked). */
  block_rounding_minutes: z.number().int(),
  /** 定休日: 0 = Sunday … 6 = Saturday. */
  closed_weekdays: z.array(z.number().int()),
  /** LINE pushes the salon's LINE plan allows a month (the free plan: 200); 0 = no limit. */
  line_monthly_push_limit: z.number().int(),
  /** Online bookings are confirmed at once (false: pending until staff confirm them). */
  auto_confirm_online_bookings: z.boolean(),
  /** 無断欠席 + 直前キャンセル from which a customer's online bookings need staff approval (1–10); null = off. */
  approval_after_incidents: z.number().int().nullable(),
  /** A cancel less than this many hours before the start counts as a 直前キャンセル (1–168). */
  late_cancel_hours: z.number().int(),
  /** The register (docs/architecture.md#register-会計): 登録番号 (`T` + 13 digits, or ''), tax rounding, 釣り銭準備金. */
  invoice_registration_number: z.string(),
  tax_rounding: z.enum(['floor', 'round', 'ceil']),
  opening_float: z.number().int(),
});
export type SalonSettings = z.infer<typeof salonSettingsSchema>;

/**
 * PATCH /api/admin/settings/: any subset. The server checks business_start < business_end against the stored
 * value of whichever of the two the body leaves out.
 */
export const updateSalonSettingsRequestSchema = z
  .object({
    salon_name: requiredText(100),
    cancellation_deadline_days: wholeNumber(MESSAGES.deadlineDaysRange, { min: 0, max: 30 }),
    min_notice_minutes: wholeNumber(MESSAGES.minNoticeRange, { min: 0, max: 10_080 }),
    max_upcoming_per_customer: wholeNumber(MESSAGES.upcomingLimitRange, { min: 1, max: 20 }),
    business_start: gridTime,
    business_end: gridTime,
    reminders_enabled: z.boolean({ error: MESSAGES.booleanInvalid }),
    phone_number: salonPhone,
    address: optionalText(200),
    map_url: mapUrl,
    opening_hours_text: optionalText(200),
    slot_minutes: wholeNumber(MESSAGES.slotMinutesInvalid).refine((value) => SLOT_MINUTE_CHOICES.includes(value), {
      error: MESSAGES.slotMinutesInvalid,
    }),
    buffer_minutes: wholeNumber(MESSAGES.bufferMinutesInvalid, { min: 0, max: 60 }).refine((value) => value % 5 === 0, {
      error: MESSAGES.bufferMinutesInvalid,
    }),
    block_rounding_minutes: wholeNumber(MESSAGES.blockRoundingInvalid).refine(
      (value) => BLOCK_ROUNDING_CHOICES.includes(value),
      { error: MESSAGES.blockRoundingInvalid },
    ),
    closed_weekdays: z
      .array(z.number({ error: MESSAGES.closedWeekdaysInvalid }).int().min(0).max(6), {
        error: MESSAGES.closedWeekdaysInvalid,
      })
      .max(7, { error: MESSAGES.closedWeekdaysInvalid })
      .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
    line_monthly_push_limit: wholeNumber(MESSAGES.lineMonthlyLimitRange, { min: 0, max: 1_000_000 }),
    auto_confirm_online_bookings: z.boolean({ error: MESSAGES.booleanInvalid }),
    approval_after_incidents: wholeNumber(MESSAGES.approvalAfterIncidentsRange, { min: 1, max: 10 }).nullable(),
    late_cancel_hours: wholeNumber(MESSAGES.lateCancelHoursRange, { min: 1, max: 168 }),
    invoice_registration_number: invoiceRegistrationNumberSchema,
    tax_rounding: taxRoundingSchema,
    opening_float: openingFloatSchema,
  })
  .partial();
export type UpdateSalonSettingsRequest = z.input<typeof updateSalonSettingsRequestSchema>;

/**
 * GET /api/admin/line-usage/: LINE pushes counted this salon-local month (`YYYY-MM`) against the plan's limit
 * (0 = none). Replies to customers' messages are free and not counted.
 */
export const lineUsageSchema = z.object({
  month: z.string(),
  pushes_sent: z.number().int(),
  limit: z.number().int(),
});
export type LineUsage = z.infer<typeof lineUsageSchema>;

/** The choices of the settings screen (the database checks the same sets, migration 0009). */
export const SLOT_MINUTE_CHOICES: readonly number[] = [15, 30, 60];
export const BLOCK_ROUNDING_CHOICES: readonly number[] = [5, 10, 15, 30, 60];

/** The part of the settings the browser needs before anyone signs in (GET /api/config/). */
export const publicSalonSettingsSchema = salonSettingsSchema.pick({
  cancellation_deadline_days: true,
  min_notice_minutes: true,
  max_upcoming_per_customer: true,
  business_start: true,
  business_end: true,
  phone_number: true,
  address: true,
  map_url: true,
  opening_hours_text: true,
});
export type PublicSalonSettings = z.infer<typeof publicSalonSettingsSchema>;
