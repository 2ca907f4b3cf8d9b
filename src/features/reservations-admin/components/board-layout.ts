import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '#src/shared/constants';
import type { DayBoard, DayBoardColumn } from '#src/shared/schemas/day-board';
import { minutesToTime, timeToMinutes } from '#src/shared/slots';

/**
 * The 予約台帳's geometry (docs/screens.md#admin-day-board), pure so that it is tested without a browser: which time
 * rows the day has on the salon's grid, which cells are working time and which are taken, and where each booking's
 * block sits in its column.
 */

export type BoardBooking = DayBoardColumn['reservations'][number];

/** Shown when nobody works and nothing is booked: the salon's usual day. */
const DEFAULT_DAY = { start: 10 * 60, end: 19 * 60 };
const DAY_END = 24 * 60;

/** Minutes since midnight of a `yyyy-MM-ddTHH:mm:ss` on `date`; a time on a later day is the day's end. */
export function minuteOfDay(localDateTime: string, date: string): number {
  if (localDateTime.slice(0, 10) > date) return DAY_END;
  if (localDateTime.slice(0, 10) < date) return 0;
  return timeToMinutes(localDateTime.slice(11, 16));
}

export interface BoardRows {
  /** The start of each row, in minutes since midnight. */
  starts: number[];
  grid: number;
  first: number;
}

/** Rows from the earliest working time or booking to the latest, rounded out to the grid. */
export function boardRows(board: DayBoard): BoardRows {
  const grid = board.grid_minutes > 0 ? board.grid_minutes : 30;
  const starts: number[] = [];
  const ends: number[] = [];
  for (const column of board.staff) {
    for (const range of column.working) {
      starts.push(timeToMinutes(range.start));
      ends.push(range.end === '24:00' ? DAY_END : timeToMinutes(range.end));
    }
    for (const booking of column.reservations) {
      starts.push(minuteOfDay(booking.start_time, board.date));
      ends.push(minuteOfDay(booking.end_time, board.date));
    }
  }
  const from = starts.length ? Math.min(...starts) : DEFAULT_DAY.start;
  const to = ends.length ? Math.max(...ends) : DEFAULT_DAY.end;
  const first = Math.floor(from / grid) * grid;
  const last = Math.min(DAY_END, Math.ceil(to / grid) * grid);
  const rows: number[] = [];
  for (let minute = first; minute < last; minute += grid) rows.push(minute);
  return { starts: rows, grid, first };
}

export function isWorkingAt(column: DayBoardColumn, minute: number): boolean {
  return column.working.some((range) => timeToMinutes(range.start) <= minute && minute < timeToMinutes(range.end));
}

/** Whether a booking covers part of the cell [minute, minute + grid). */
export function isTaken(column: DayBoardColumn, date: string, minute: number, grid: number): boolean {
  return column.reservations.some(
    (booking) => minuteOfDay(booking.start_time, date) < minute + grid && minute < minuteOfDay(booking.end_time, date),
  );
}

export interface PlacedBooking {
  booking: BoardBooking;
  /** Minutes from the board's first row, and the length in minutes (at least one grid cell tall: readable). */
  top: number;
  height: number;
  /** Bookings that overlap (a double booking made by staff) stand side by side: which lane of how many. */
  lane: number;
  lanes: number;
}

/** The column's blocks; overlapping ones share the width in lanes, the first free lane each. */
export function placeBookings(column: DayBoardColumn, date: string, rows: BoardRows): PlacedBooking[] {
  const placed: PlacedBooking[] = [];
  const laneEnds: number[] = [];
  const sorted = [...column.reservations].sort((a, b) => (a.start_time < b.start_time ? -1 : 1));
  for (const booking of sorted) {
    const start = minuteOfDay(booking.start_time, date);
    const end = Math.max(minuteOfDay(booking.end_time, date), start + rows.grid);
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= start);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = end;
    placed.push({ booking, top: start - rows.first, height: end - start, lane, lanes: 0 });
  }
  // A group of overlapping bookings shares its lane count.
  for (const item of placed) {
    const overlapping = placed.filter(
      (other) => other.top < item.top + item.height && item.top < other.top + other.height,
    );
    item.lanes = Math.max(...overlapping.map((other) => other.lane)) + 1;
  }
  return placed;
}

/** The block's readable name (its link text for screen readers): time, customer, menu, options, 指名, status. */
export function bookingLabel(booking: BoardBooking): string {
  const time = `${booking.start_time.slice(11, 16)}〜${booking.end_time.slice(11, 16)}`;
  const options = booking.option_names.length ? `＋${booking.option_names.join('、')}` : '';
  const nominated = booking.is_nominated ? ' 指名' : '';
  return `${time} ${booking.customer_name} 様 ${booking.service_name}${options}${nominated} ${RESERVATION_STATUS_LABELS[booking.status]}`;
}

/** Block colours by status (Mantine palette names): waiting, booked, done, missed. */
export const STATUS_COLORS: Record<ReservationStatus, string> = {
  pending: 'yellow',
  confirmed: 'blue',
  completed: 'teal',
  no_show: 'red',
  cancelled: 'gray',
};

export const timeOfMinute = minutesToTime;
