import { z } from 'zod';
import { localDateSchema } from './reservations';

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** A service as the menu shows it; the price is a numeric string (docs/architecture.md#screens-and-texts). */
export const serviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  price: z.string(),
  duration_minutes: z.number().int(),
  salon: z.number().int(),
});
export type Service = z.infer<typeof serviceSchema>;

export const servicesQuerySchema = z.object({ salon: id.optional() });

export const bookableDatesQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100),
  month: z.coerce.number().int().min(1).max(12),
  service_id: id.optional(),
});

export const availabilityQuerySchema = z.object({ date: localDateSchema, service_id: id });

/** GET /api/admin/available-slots/ and POST's answer. */
export const slotSchema = z.object({ time: z.string(), is_available: z.boolean() });

export const slotsQuerySchema = z.object({ date: localDateSchema, user_id: id.optional() });

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
