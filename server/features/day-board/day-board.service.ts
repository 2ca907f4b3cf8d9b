/**
 * The front desk's day (issue 32): who works that day, when, and their bookings, one column each. Working time is
 * the shift model's (server/scheduling/working-time.ts), so the board and availability never disagree. A nailist
 * sees their own column only; the owner and the front desk see everyone (server/db/scope.ts).
 */
import { SLOT_MINUTES } from '#src/shared/constants';
import type { DayBoard, DayBoardColumn } from '#src/shared/schemas/day-board';
import { minutesToTime, timeToMinutes } from '#src/shared/slots';
import { addDaysToDate, instantToLocalDateTime, localDateTimeToInstant } from '#src/shared/time';
import type { AppContext } from '../../context';
import { ownBookingsOnly, type ScopedStaff } from '../../db/scope';
import { loadWorkingCells } from '../../scheduling/working-time';
import * as repo from './day-board.repository';

/** Working cells (`HH:mm`, 30 minutes each) as the ranges they make: 10:00, 10:30, 13:00 → 10:00–11:00, 13:00–13:30. */
function workingRanges(cells: readonly string[]): Array<{ start: string; end: string }> {
  const starts = [...new Set(cells.map(timeToMinutes))].sort((a, b) => a - b);
  const ranges: Array<{ start: number; end: number }> = [];
  for (const start of starts) {
    const last = ranges[ranges.length - 1];
    if (last && last.end === start) last.end = start + SLOT_MINUTES;
    else ranges.push({ start, end: start + SLOT_MINUTES });
  }
  return ranges.map((range) => ({ start: minutesToTime(range.start), end: minutesToTime(range.end) }));
}

export async function loadDayBoard(ctx: AppContext, viewer: ScopedStaff, date: string): Promise<DayBoard> {
  const { db, salonId } = ctx;
  const tz = ctx.env.SALON_TZ;
  const [settings, staff] = await Promise.all([
    repo.findSalonDaySettings(db, salonId),
    repo.listActiveStaff(db, salonId, ownBookingsOnly(viewer)),
  ]);
  const staffIds = staff.map((member) => member.id);
  const from = localDateTimeToInstant(`${date}T00:00:00`, tz);
  const to = localDateTimeToInstant(`${addDaysToDate(date, 1)}T00:00:00`, tz);
  const [cells, rows] = await Promise.all([
    loadWorkingCells(db, { salonId, from: date, to: date, staffIds, closedWeekdays: settings.closedWeekdays }),
    repo.listDayReservations(db, salonId, staffIds, from, to),
  ]);
  const cellsOf = cells.get(date);
  const columns: DayBoardColumn[] = [];
  for (const member of staff) {
    const bookings = rows.filter((row) => row.staffId === member.id);
    const working = workingRanges(cellsOf?.get(member.id) ?? []);
    // On duty, or booked that day all the same (staff may book outside working time): nothing booked is hidden.
    if (working.length === 0 && bookings.length === 0) continue;
    columns.push({
      id: member.id,
      name: member.fullName || member.username,
      working,
      reservations: bookings.map((row) => ({
        reservation_number: row.reservation_number,
        reservation_code: row.reservation_code,
        start_time: instantToLocalDateTime(row.start, tz),
        end_time: instantToLocalDateTime(row.end, tz),
        customer_name: row.customer_name,
        service_name: row.service_name,
        option_names: row.options.map((option) => option.name),
        is_nominated: row.is_nominated,
        status: row.status,
      })),
    });
  }
  return { date, grid_minutes: settings.gridMinutes, staff: columns };
}
