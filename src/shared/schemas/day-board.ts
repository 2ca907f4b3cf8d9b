import { z } from 'zod';
import { RESERVATION_STATUSES } from '../constants';
import { localDateSchema } from './reservations';

/** GET /api/admin/day-board/?date=yyyy-MM-dd */
export const dayBoardQuerySchema = z.object({ date: localDateSchema });

/** One booking on the board (cancelled ones are left out). Times are salon-local `yyyy-MM-ddTHH:mm:ss`. */
const dayBoardReservationSchema = z.object({
  reservation_number: z.string(),
  reservation_code: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  customer_name: z.string(),
  service_name: z.string(),
  option_names: z.array(z.string()),
  is_nominated: z.boolean(),
  status: z.enum(RESERVATION_STATUSES),
});

/** One column: a staff member on duty that day (or with a booking that day), their working time as `HH:mm` ranges. */
const dayBoardColumnSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  working: z.array(z.object({ start: z.string(), end: z.string() })),
  reservations: z.array(dayBoardReservationSchema),
});
export type DayBoardColumn = z.infer<typeof dayBoardColumnSchema>;

/** The front desk's day (issue 32): one column per staff member; a nailist gets their own column only. */
export const dayBoardSchema = z.object({
  date: z.string(),
  /** The salon's booking grid in minutes (15, 30 or 60). */
  grid_minutes: z.number().int(),
  staff: z.array(dayBoardColumnSchema),
});
export type DayBoard = z.infer<typeof dayBoardSchema>;
