import { z } from 'zod';
import { MESSAGES } from '../messages';
import { optionalText, requiredText } from './common';
import { wholeNumber } from './menu';

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
const mapUrl = z
  .string({ error: MESSAGES.mapUrlInvalid })
  .trim()
  .max(500, { error: MESSAGES.tooLong })
  .refine(
    (value) => {
      if (value === '') return true;
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && Boolean(url.hostname);
      } catch {
        return false;
      }
    },
    { error: MESSAGES.mapUrlInvalid },
  );

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
  })
  .partial();
export type UpdateSalonSettingsRequest = z.input<typeof updateSalonSettingsRequestSchema>;

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

/** The salon's contact details as the pages and e-mails show them. */
export type SalonContact = Pick<SalonSettings, 'phone_number' | 'address' | 'map_url' | 'opening_hours_text'>;
