/**
 * The inputs availability (availability.service.ts) decides on, loaded for a range of days: who works which
 * cells (server/scheduling/working-time.ts) and the time their active reservations hold; and the bookable starts
 * of one day from them (the arithmetic is src/shared/slots.ts).
 */
import { addDaysToDate, instantToLocalDateTime, localDateOf, localDateTimeToInstant } from '#src/shared/time';
import { bookableStarts, timeToMinutes, type BookingLength, type Interval } from '#src/shared/slots';
import type { Database } from '../../db/client';
import { loadWorkingCells, type BookableStaffRow } from '../../scheduling/working-time';
import * as repo from './booking.repository';
import type { ReadCache } from './read-cache';

/** What the availability service reads with: its database, salon, zone, clock and the booking read cache. */
export interface AvailabilityContext {
  db: Database;
  salonId: number;
  timeZone: string;
  now: () => Date;
  cache: ReadCache;
}

interface DayPlan {
  /** Working 30-minute cells per staff member. */
  cells: Map<number, string[]>;
  /** Time held by active reservations per staff member, in minutes since the day's local midnight. */
  busy: Map<number, Interval[]>;
}

/** The salon's row, from the cache: the settings every answer reads (notice, grid, rounding, buffer). */
export function cachedSalon(ctx: AvailabilityContext) {
  return ctx.cache.get('salon', () => repo.findSalon(ctx.db, ctx.salonId), 'settings');
}

/** Each day's plan from `fromDate` to `toDate` for these staff members; `ignoreReservationId` holds no time. */
export async function loadPlans(
  ctx: AvailabilityContext,
  fromDate: string,
  toDate: string,
  staff: readonly BookableStaffRow[],
  ignoreReservationId?: number,
): Promise<Map<string, DayPlan>> {
  const { db, salonId, timeZone } = ctx;
  const salon = await cachedSalon(ctx);
  const staffIds = staff.map((member) => member.id);
  const from = localDateTimeToInstant(`${fromDate}T00:00:00`, timeZone);
  const to = localDateTimeToInstant(`${addDaysToDate(toDate, 1)}T00:00:00`, timeZone);
  const [cells, busy] = await Promise.all([
    loadWorkingCells(db, {
      salonId,
      from: fromDate,
      to: toDate,
      staffIds,
      closedWeekdays: salon?.closed_weekdays ?? [],
    }),
    staffIds.length === 0 ? [] : repo.listBusyIntervals(db, salonId, from, to, staffIds, ignoreReservationId),
  ]);
  const plans = new Map<string, DayPlan>();
  for (const [date, perStaff] of cells) plans.set(date, { cells: perStaff, busy: new Map() });
  for (const interval of busy) {
    // Held time may touch two local days (late evening); it is busy time on each.
    const firstDay = localDateOf(interval.start, timeZone);
    const lastDay = localDateOf(new Date(interval.end.getTime() - 1), timeZone);
    for (let date = firstDay; date <= lastDay; date = addDaysToDate(date, 1)) {
      const plan = plans.get(date);
      if (!plan) continue;
      const midnight = localDateTimeToInstant(`${date}T00:00:00`, timeZone).getTime();
      plan.busy.set(interval.staffId, [
        ...(plan.busy.get(interval.staffId) ?? []),
        { start: (interval.start.getTime() - midnight) / 60_000, end: (interval.end.getTime() - midnight) / 60_000 },
      ]);
    }
  }
  return plans;
}

/** The bookable starts of one day's plan, per staff member who has any. */
export async function startsByStaffIn(
  ctx: AvailabilityContext,
  plan: DayPlan | undefined,
  length: BookingLength,
  earliestStart: number | undefined,
): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (!plan) return result;
  const gridMinutes = (await cachedSalon(ctx))?.slot_minutes ?? 30;
  for (const [staffId, openSlots] of plan.cells) {
    const starts = bookableStarts({
      openSlots,
      busy: plan.busy.get(staffId) ?? [],
      length,
      gridMinutes,
      earliestStart,
    });
    if (starts.length > 0) result.set(staffId, starts);
  }
  return result;
}

/**
 * The first salon-local date-time at which a booking may start: now plus the salon's minimum notice. At least
 * a second after now, so that with no notice the slot starting this very instant (which booking refuses as
 * past) is not offered. A customer's booking applies the same notice in book_reservation() (migration 0025).
 */
export async function noticeCutoff(ctx: AvailabilityContext): Promise<string> {
  const salon = await cachedSalon(ctx);
  const noticeMs = Math.max((salon?.min_notice_minutes ?? 60) * 60_000, 1000);
  return instantToLocalDateTime(new Date(ctx.now().getTime() + noticeMs), ctx.timeZone);
}

/**
 * Minutes after the local midnight of `date` before which nothing may start: null when the whole day is
 * before the cutoff, undefined when the cutoff is on an earlier day.
 */
export function earliestStartOn(date: string, cutoff: string): number | null | undefined {
  const cutoffDate = cutoff.slice(0, 10);
  if (date < cutoffDate) return null;
  if (date > cutoffDate) return undefined;
  return timeToMinutes(cutoff.slice(11, 16)) + (Number(cutoff.slice(17, 19)) > 0 ? 1 : 0);
}
