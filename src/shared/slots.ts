import { SLOT_MINUTES } from './constants';

/** `HH:mm` (or `HH:mm:ss`) to minutes since midnight. */
export function timeToMinutes(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** A start (`HH:mm`) inside a キャンセル待ち window: from `from` up to and including `to` (null: no bound). */
export function withinWindow(time: string, from: string | null, to: string | null): boolean {
  const minutes = timeToMinutes(time);
  if (from !== null && minutes < timeToMinutes(from.slice(0, 5))) return false;
  if (to !== null && minutes > timeToMinutes(to.slice(0, 5))) return false;
  return true;
}

/** Minutes since midnight to `HH:mm`. */
export function minutesToTime(total: number): string {
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The 30-minute grid from `start` (inclusive) to `end` (exclusive), as `HH:mm`. */
export function slotGrid(start: string, end: string): string[] {
  const times: string[] = [];
  for (let t = timeToMinutes(start); t < timeToMinutes(end); t += SLOT_MINUTES) times.push(minutesToTime(t));
  return times;
}

export interface Interval {
  /** Minutes since the day's local midnight; may run past 1440 or below 0 for bookings across midnight. */
  start: number;
  end: number;
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/** How long a booking is: the time the customer is served, and the time it holds of its staff member. */
export interface BookingLength {
  /** The service and its options: end_time - start_time. */
  servedMinutes: number;
  /** servedMinutes rounded up as the salon chooses, plus the salon's buffer: occupied_until - start_time. */
  occupiedMinutes: number;
}

/**
 * A booking's length from its parts and the salon's settings (docs/architecture.md#booking-rules): the options add
 * their time to the service's; the time held is that total rounded up to `roundingMinutes`, plus the buffer. A
 * customer's booking computes the same in the database (book_reservation(), server/db/migrations/0025_book_reservation.sql).
 */
export function bookingLength(input: {
  serviceMinutes: number;
  optionMinutes?: readonly number[];
  roundingMinutes: number;
  bufferMinutes: number;
}): BookingLength {
  const servedMinutes = input.serviceMinutes + (input.optionMinutes ?? []).reduce((sum, minutes) => sum + minutes, 0);
  const rounding = Math.max(1, input.roundingMinutes);
  return { servedMinutes, occupiedMinutes: Math.ceil(servedMinutes / rounding) * rounding + input.bufferMinutes };
}

/**
 * The 30-minute opening cells a staff member works on one day (docs/architecture.md#booking-rules): a day set by hand
 * (an exception, even an empty one) wins; otherwise a salon closed weekday or holiday closes it; otherwise the weekly
 * template of that weekday, if any, applies.
 */
export function openCellsOfDay(input: {
  exceptionCells?: readonly string[];
  template?: { start: string; end: string };
  salonClosed: boolean;
}): string[] {
  if (input.exceptionCells) return [...input.exceptionCells];
  if (input.salonClosed || !input.template) return [];
  return slotGrid(input.template.start, input.template.end);
}

/** Whether every 30-minute opening cell that [start, end) touches is open. */
export function coveredByCells(open: ReadonlySet<number>, interval: Interval): boolean {
  const first = Math.floor(interval.start / SLOT_MINUTES) * SLOT_MINUTES;
  for (let cell = first; cell < interval.end; cell += SLOT_MINUTES) if (!open.has(cell)) return false;
  return true;
}

/**
 * The starts one staff member can take on one day (docs/architecture.md#booking-rules): t is on the salon's grid
 * (`gridMinutes` after midnight), the customer's time [t, t + served) lies within open cells, the time the booking
 * holds [t, t + occupied) overlaps no active booking's held time (which includes its buffer), and t is not before
 * `earliestStart` (the minimum notice, in minutes since the same midnight). The database's exclusion constraint
 * checks the same [start, occupied_until) ranges. This is what availability offers; a customer's booking decides by
 * the same rules in book_reservation() (server/db/migrations/0025_book_reservation.sql): change one, change both.
 */
export function bookableStarts(input: {
  openSlots: readonly string[];
  busy: readonly Interval[];
  length: BookingLength;
  gridMinutes?: number;
  earliestStart?: number;
}): string[] {
  const grid = input.gridMinutes ?? SLOT_MINUTES;
  const open = new Set(input.openSlots.map(timeToMinutes));
  if (open.size === 0) return [];
  const cells = [...open].sort((a, b) => a - b);
  const first = Math.ceil(cells[0]! / grid) * grid;
  const last = cells[cells.length - 1]! + SLOT_MINUTES;
  const starts: string[] = [];
  for (let start = first; start < last; start += grid) {
    if (input.earliestStart !== undefined && start < input.earliestStart) continue;
    if (!coveredByCells(open, { start, end: start + Math.max(1, input.length.servedMinutes) })) continue;
    const held = { start, end: start + input.length.occupiedMinutes };
    if (!input.busy.some((interval) => overlaps(interval, held))) starts.push(minutesToTime(start));
  }
  return starts;
}

/** Grid times covered by any of the intervals (a booking from 10:00 for 90 minutes covers 10:00, 10:30, 11:00). */
export function coveredGridTimes(grid: readonly string[], intervals: readonly Interval[]): string[] {
  return grid.filter((time) => {
    const slot = { start: timeToMinutes(time), end: timeToMinutes(time) + SLOT_MINUTES };
    return intervals.some((interval) => overlaps(interval, slot));
  });
}
