import { z } from 'zod';
import { nominatedStaffSchema, optionIdsSchema } from './common';
import { localDateSchema } from './reservations';

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** An option (オプション) of a service: its own price (a numeric string, like the service's) and added time. */
export const serviceOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.string(),
  duration_minutes: z.number().int(),
});
export type ServiceOption = z.infer<typeof serviceOptionSchema>;

/** A service as the menu shows it; the price is a numeric string (docs/screens.md#booking-service-step). */
export const serviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.string(),
  duration_minutes: z.number().int(),
  salon: z.number().int(),
  /** 再来店のご案内: days after a visit when a customer with nothing booked is invited back; null: never. */
  rebook_cycle_days: z.number().int().nullable().optional(),
  /** The active options, in menu order. */
  options: z.array(serviceOptionSchema),
});
export type Service = z.infer<typeof serviceSchema>;

export const servicesQuerySchema = z.object({ salon: id.optional() });

export const bookableDatesQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  month: z.coerce.number().int().min(1).max(12),
  service_id: id.optional(),
  staff_id: nominatedStaffSchema,
  option_ids: optionIdsSchema.optional().default([]),
});

export const availabilityQuerySchema = z.object({
  date: localDateSchema,
  service_id: id,
  staff_id: nominatedStaffSchema,
  option_ids: optionIdsSchema.optional().default([]),
});

/** GET /api/staff/ (public): the staff members customers can name (指名), in a stable order. */
export const bookableStaffSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** An https picture, or '' when none. */
  picture_url: z.string(),
  /** A short profile, or ''. */
  profile: z.string(),
  /** 指名料 (a numeric string, '0' when free). */
  nomination_fee: z.string(),
});
export type BookableStaff = z.infer<typeof bookableStaffSchema>;

/** GET /api/admin/available-slots/ and POST's answer. */
export const slotSchema = z.object({ time: z.string(), is_available: z.boolean() });

export const slotsQuerySchema = z.object({ date: localDateSchema, user_id: id.optional() });

/**
 * GET /api/admin/detailed-time-slots/: with a service (and options), only the starts whose whole booking fits are
 * offered, as the staff booking dialog needs them; without, each grid cell on its own (the schedule screens).
 */
export const detailedSlotsQuerySchema = slotsQuerySchema.extend({
  service_id: id.optional(),
  option_ids: optionIdsSchema.optional().default([]),
});

export const saveSlotsRequestSchema = z.object({
  date: localDateSchema,
  times: z.array(z.string().regex(/^\d{2}:\d{2}$/)).max(48),
  user_id: id.optional(),
});

export const configuredDatesQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  month: z.coerce.number().int().min(1).max(12),
  user_id: id.optional(),
});

export const detailedTimeSlotsSchema = z.object({
  available_times: z.array(z.string()),
  outside_business_hours: z.array(z.string()),
  booked_times: z.array(z.string()),
});
