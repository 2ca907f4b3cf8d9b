import {
  addDaysToDate,
  instantToLocalDateTime,
  localDateOf,
  localDateTimeToInstant,
  monthRange,
} from '#src/shared/time';
import { bookableStarts, bookingLength, timeToMinutes, type BookingLength, type Interval } from '#src/shared/slots';
import type { Database } from '../../db/client';
import { listActiveServices } from '../../scheduling/menu';
import { listBookableStaff, loadWorkingCells, type BookableStaffRow } from '../../scheduling/working-time';
import * as repo from './booking.repository';
import type { ReadCache } from './read-cache';

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;

interface DayPlan {
  /** Working 30-minute cells per staff member. */
  cells: Map<number, string[]>;
  /** Time held by active reservations per staff member, in minutes since the day's local midnight. */
  busy: Map<number, Interval[]>;
}

/** Who can be booked, as the staff choice (指名) and the booking's staff assignment see them. */
export type BookableStaff = BookableStaffRow;

/**
 * Which starts can be booked (docs/architecture.md#booking-rules): some bookable staff member (or the one named)
 * works every cell of the customer's time from t, nothing they hold overlaps the time the booking would hold (its
 * rounding and buffer included), t is on the salon's grid and at least the minimum notice after now. All
 * arithmetic is in src/shared/slots.ts; who works when is server/scheduling/working-time.ts; this module
 * loads the inputs for a day or a month.
 *
 * The menu, the settings and what customers browse (bookable dates, the starts of a day) are answered from
 * `cache`, which the app clears on every write (server/app.ts); a write of reservations only keeps the settings. Who is free at a start (`startsByStaff`), which
 * a booking decides on, is always read fresh; the database's exclusion constraint has the last word anyway.
 */
export function createAvailabilityService(deps: {
  db: Database;
  salonId: number;
  timeZone: string;
  now: () => Date;
  cache: ReadCache;
}) {
  const { db, salonId, timeZone, now, cache } = deps;

  async function loadPlans(
    fromDate: string,
    toDate: string,
    staff: readonly BookableStaff[],
    ignoreReservationId?: number,
  ): Promise<Map<string, DayPlan>> {
    const salon = await cachedSalon();
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

  /**
   * The first salon-local date-time at which a booking may start: now plus the salon's minimum notice. At least
   * a second after now, so that with no notice the slot starting this very instant (which booking refuses as
   * past) is not offered.
   */
  async function noticeCutoff(): Promise<string> {
    const salon = await cachedSalon();
    const noticeMs = Math.max((salon?.min_notice_minutes ?? 60) * 60_000, 1000);
    return instantToLocalDateTime(new Date(now().getTime() + noticeMs), timeZone);
  }

  async function startsByStaffIn(
    plan: DayPlan | undefined,
    length: BookingLength,
    earliestStart: number | undefined,
  ): Promise<Map<number, string[]>> {
    const result = new Map<number, string[]>();
    if (!plan) return result;
    const gridMinutes = (await cachedSalon())?.slot_minutes ?? 30;
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
   * The cutoff changes every minute; answers that depend on it are cached under it, so a cached answer never
   * offers a start that has come within the notice since.
   */
  const cachedSalon = () => cache.get('salon', () => repo.findSalon(db, salonId), 'settings');
  const cachedStaff = () => cache.get('staff', () => listBookableStaff(db, salonId), 'settings');
  const cutoffKey = (cutoff: string) => `${cutoff.slice(0, 16)}${Number(cutoff.slice(17, 19)) > 0 ? '+' : ''}`;
  const lengthKey = (length: BookingLength) => `${length.servedMinutes}/${length.occupiedMinutes}`;
  const staffChoice = (staff: readonly BookableStaff[], staffId: number | undefined): BookableStaff[] =>
    staffId === undefined ? [...staff] : staff.filter((member) => member.id === staffId);

  return {
    /**
     * Bookable starts of one day for one booking length, per staff member (only `staffId` when given), read fresh:
     * what a booking relies on. `staff` carries each one's schedule_version as read before the plan, which the
     * booking compares inside its transaction. A reservation being moved does not stand in its own way
     * (`ignoreReservationId`).
     */
    async startsByStaff(
      date: string,
      length: BookingLength,
      staffId?: number,
      ignoreReservationId?: number,
    ): Promise<{ starts: Map<number, string[]>; staff: BookableStaff[] }> {
      const staff = staffChoice(await listBookableStaff(db, salonId), staffId);
      const earliest = earliestStartOn(date, await noticeCutoff());
      if (earliest === null || staff.length === 0) return { starts: new Map(), staff };
      const plans = await loadPlans(date, date, staff, ignoreReservationId);
      return { starts: await startsByStaffIn(plans.get(date), length, earliest), staff };
    },

    /** The active services with their active options, in menu order. */
    activeServices() {
      return cache.get('services', async () => listActiveServices(db, salonId), 'settings');
    },

    /** GET /api/staff/: who customers can name. */
    bookableStaff: cachedStaff,

    /**
     * The salon's row: its settings (notice, deadline, limits, grid, buffer) and contact lines, read on every
     * booking and view. Not inside a transaction: a cold load waits for a pool connection (on PGlite, for the one
     * connection), which the transaction may be holding.
     */
    salon: cachedSalon,

    /** The length of a booking of this service with these options under the salon's current settings. */
    async lengthOf(serviceMinutes: number, optionMinutes: readonly number[] = []): Promise<BookingLength> {
      const salon = await cachedSalon();
      return bookingLength({
        serviceMinutes,
        optionMinutes,
        roundingMinutes: salon?.block_rounding_minutes ?? 5,
        bufferMinutes: salon?.buffer_minutes ?? 0,
      });
    },

    /** GET /api/availability/: the union over staff (or the named one's starts), sorted. */
    async availableStarts(date: string, length: BookingLength, staffId?: number): Promise<string[]> {
      const cutoff = await noticeCutoff();
      return cache.get(`starts|${date}|${lengthKey(length)}|${staffId ?? ''}|${cutoffKey(cutoff)}`, async () => {
        const earliest = earliestStartOn(date, cutoff);
        if (earliest === null) return [];
        const staff = staffChoice(await cachedStaff(), staffId);
        const plans = await loadPlans(date, date, staff);
        const byStaff = await startsByStaffIn(plans.get(date), length, earliest);
        return [...new Set([...byStaff.values()].flat())].sort();
      });
    },

    /**
     * GET /api/bookable-dates/: the month's dates, today or later, with at least one bookable start.
     * Without a service, the shortest active service decides: whatever fits a longer one fits it too.
     */
    async bookableDates(year: number, month: number, length: BookingLength, staffId?: number): Promise<string[]> {
      const { first, last } = monthRange(year, month);
      const cutoff = await noticeCutoff();
      // The cutoff is at or after today, so "today or later" needs no clock reading of its own.
      const today = cutoff.slice(0, 10);
      const from = first > today ? first : today;
      if (from > last) return [];
      return cache.get(`dates|${from}|${last}|${lengthKey(length)}|${staffId ?? ''}|${cutoffKey(cutoff)}`, async () => {
        const staff = staffChoice(await cachedStaff(), staffId);
        const plans = await loadPlans(from, last, staff);
        const dates: string[] = [];
        for (let date = from; date <= last; date = addDaysToDate(date, 1)) {
          const earliest = earliestStartOn(date, cutoff);
          if (earliest === null) continue;
          if ((await startsByStaffIn(plans.get(date), length, earliest)).size > 0) dates.push(date);
        }
        return dates;
      });
    },
  };
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
