import {
  addDaysToDate,
  instantToLocalDateTime,
  localDateOf,
  localDateTimeToInstant,
  monthRange,
} from '#src/shared/time';
import { bookableStarts, timeToMinutes, type Interval } from '#src/shared/slots';
import type { Database } from '../../db/client';
import * as repo from './booking.repository';
import type { ReadCache } from './read-cache';

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;

interface DayPlan {
  /** Open `HH:mm` slots per staff member. */
  slots: Map<number, string[]>;
  /** Active reservations per staff member, in minutes since the day's local midnight. */
  busy: Map<number, Interval[]>;
}

/**
 * Which starts can be booked (docs/architecture.md): some active staff member has every 30-minute slot of
 * [t, t + D) open, nothing active overlaps it, and t is at least the minimum notice after now.
 * All arithmetic is in src/shared/slots.ts; this module loads the inputs for a day or a month.
 *
 * The menu, the settings and what customers browse (bookable dates, the starts of a day) are answered from
 * `cache`, which the app clears on every write (server/app.ts). Who is free at a start (`startsByStaff`), which
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

  async function loadPlans(fromDate: string, toDate: string): Promise<Map<string, DayPlan>> {
    const from = localDateTimeToInstant(`${fromDate}T00:00:00`, timeZone);
    const to = localDateTimeToInstant(`${addDaysToDate(toDate, 1)}T00:00:00`, timeZone);
    const [slots, busy] = await Promise.all([
      repo.listOpenSlots(db, salonId, fromDate, toDate),
      repo.listBusyIntervals(db, salonId, from, to),
    ]);
    const plans = new Map<string, DayPlan>();
    const planOf = (date: string) => {
      let plan = plans.get(date);
      if (!plan) plans.set(date, (plan = { slots: new Map(), busy: new Map() }));
      return plan;
    };
    for (const slot of slots) {
      const perStaff = planOf(slot.date).slots;
      perStaff.set(slot.staffId, [...(perStaff.get(slot.staffId) ?? []), slot.time.slice(0, 5)]);
    }
    for (const interval of busy) {
      // A booking may touch two local days (late evening); it is busy time on each.
      const firstDay = localDateOf(interval.start, timeZone);
      const lastDay = localDateOf(new Date(interval.end.getTime() - 1), timeZone);
      for (let date = firstDay; date <= lastDay; date = addDaysToDate(date, 1)) {
        const midnight = localDateTimeToInstant(`${date}T00:00:00`, timeZone).getTime();
        const perStaff = planOf(date).busy;
        perStaff.set(interval.staffId, [
          ...(perStaff.get(interval.staffId) ?? []),
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
  async function noticeCutoff(salonRow: Promise<{ min_notice_minutes: number } | undefined>): Promise<string> {
    const salon = await salonRow;
    const noticeMs = Math.max((salon?.min_notice_minutes ?? 60) * 60_000, 1000);
    return instantToLocalDateTime(new Date(now().getTime() + noticeMs), timeZone);
  }

  function startsByStaff(plan: DayPlan | undefined, durationMinutes: number, earliestStart: number | undefined) {
    const result = new Map<number, string[]>();
    if (!plan) return result;
    for (const [staffId, openSlots] of plan.slots) {
      const starts = bookableStarts({ openSlots, busy: plan.busy.get(staffId) ?? [], durationMinutes, earliestStart });
      if (starts.length > 0) result.set(staffId, starts);
    }
    return result;
  }

  /**
   * The cutoff changes every minute; answers that depend on it are cached under it, so a cached answer never
   * offers a start that has come within the notice since.
   */
  const cachedSalon = () => cache.get('salon', () => repo.findSalon(db, salonId));
  const cachedCutoff = () => noticeCutoff(cachedSalon());
  const cutoffKey = (cutoff: string) => `${cutoff.slice(0, 16)}${Number(cutoff.slice(17, 19)) > 0 ? '+' : ''}`;

  return {
    /** Bookable starts of one day for one duration, per staff member, read fresh: what a booking relies on. */
    async startsByStaff(date: string, durationMinutes: number): Promise<Map<number, string[]>> {
      const earliest = earliestStartOn(date, await cachedCutoff());
      if (earliest === null) return new Map();
      const plans = await loadPlans(date, date);
      return startsByStaff(plans.get(date), durationMinutes, earliest);
    },

    /** The active services in menu order: the menu, and the service each booking read or booking names. */
    activeServices() {
      return cache.get('services', async () => repo.listActiveServices(db, salonId));
    },

    /** The salon's row: its settings (notice, deadline, limits), read on every booking and reservation view. */
    salon: cachedSalon,

    /** GET /api/availability/: the union over staff, sorted. */
    async availableStarts(date: string, durationMinutes: number): Promise<string[]> {
      const cutoff = await cachedCutoff();
      return cache.get(`starts|${date}|${durationMinutes}|${cutoffKey(cutoff)}`, async () => {
        const earliest = earliestStartOn(date, cutoff);
        if (earliest === null) return [];
        const plans = await loadPlans(date, date);
        const byStaff = startsByStaff(plans.get(date), durationMinutes, earliest);
        return [...new Set([...byStaff.values()].flat())].sort();
      });
    },

    /**
     * GET /api/bookable-dates/: the month's dates, today or later, with at least one bookable start.
     * Without a service, the shortest active service decides: whatever fits a longer one fits it too.
     */
    async bookableDates(year: number, month: number, durationMinutes: number): Promise<string[]> {
      const { first, last } = monthRange(year, month);
      const cutoff = await cachedCutoff();
      // The cutoff is at or after today, so "today or later" needs no clock reading of its own.
      const today = cutoff.slice(0, 10);
      const from = first > today ? first : today;
      if (from > last) return [];
      return cache.get(`dates|${from}|${last}|${durationMinutes}|${cutoffKey(cutoff)}`, async () => {
        const plans = await loadPlans(from, last);
        const dates: string[] = [];
        for (let date = from; date <= last; date = addDaysToDate(date, 1)) {
          const earliest = earliestStartOn(date, cutoff);
          if (earliest === null) continue;
          if (startsByStaff(plans.get(date), durationMinutes, earliest).size > 0) dates.push(date);
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
