/**
 * The day of one staff member as the staff booking dialog offers it (GET /api/admin/detailed-time-slots/): each start
 * on the day's grid is free when the time the booking holds [t, t + occupied) overlaps no booking's held time, and
 * within working time when the customer's time [t, t + served) lies in the staff member's open cells. Staff may
 * book outside working time (labelled 営業時間外), never over another booking. Without a menu a booking is one cell.
 */
import { SLOT_MINUTES } from '#src/shared/constants';
import { coveredByCells, coveredGridTimes, timeToMinutes, type BookingLength, type Interval } from '#src/shared/slots';

const ONE_CELL: BookingLength = { servedMinutes: SLOT_MINUTES, occupiedMinutes: SLOT_MINUTES };

export function fittingStarts(input: {
  grid: readonly string[];
  openCells: readonly string[];
  busy: readonly Interval[];
  length?: BookingLength;
}) {
  const length = input.length ?? ONE_CELL;
  const open = new Set(input.openCells.map(timeToMinutes));
  const available: string[] = [];
  const outside: string[] = [];
  for (const time of input.grid) {
    const start = timeToMinutes(time);
    const held = { start, end: start + Math.max(1, length.occupiedMinutes) };
    if (input.busy.some((interval) => interval.start < held.end && held.start < interval.end)) continue;
    const served = { start, end: start + Math.max(1, length.servedMinutes) };
    (coveredByCells(open, served) ? available : outside).push(time);
  }
  return {
    available_times: available,
    outside_business_hours: outside,
    booked_times: coveredGridTimes(input.grid, input.busy),
  };
}
