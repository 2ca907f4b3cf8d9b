import { z } from 'zod';
import { RESERVATION_STATUSES } from '../constants';

/** What happened to a reservation; `created` covers customer bookings and staff-created ones, `rescheduled` a move. */
const RESERVATION_CHANGE_ACTIONS = [
  'created',
  'confirmed',
  'cancelled',
  'completed',
  'no_show',
  'rescheduled',
] as const;
export type ReservationChangeAction = (typeof RESERVATION_CHANGE_ACTIONS)[number];

/**
 * One `event: reservation` of GET /api/admin/events/ (text/event-stream). Published after the change committed;
 * an ordinary staff member receives only those of their own reservations (`staff_id`), a superuser all.
 */
export const reservationChangeEventSchema = z.object({
  action: z.enum(RESERVATION_CHANGE_ACTIONS),
  reservation_number: z.string(),
  staff_id: z.number().int(),
  status: z.enum(RESERVATION_STATUSES),
  /** Salon-local `yyyy-MM-ddTHH:mm:ss`. */
  start_time: z.string(),
  customer_name: z.string(),
  /** Who caused it: a customer (booking, cancelling online) or staff. */
  by: z.enum(['customer', 'staff']),
});
export type ReservationChangeEvent = z.infer<typeof reservationChangeEventSchema>;

/** GET /api/admin/events/ query: `max_seconds` ends the stream early (the client reconnects); capped by the token lifetime. */
export const eventStreamQuerySchema = z.object({
  max_seconds: z.coerce.number().int().min(0).max(86_400).optional(),
});
