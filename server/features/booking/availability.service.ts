import { addDaysToDate, instantToLocalDateTime, localDateOf, localDateTimeToInstant, monthRange } from '../../../src/shared/time';
import { bookableStarts, timeToMinutes, type Interval } from '../../../src/shared/slots';
import type { Database } from '../../db/client';
import * as repo from './booking.repository';

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;

interface DayPlan {
  /** Open `HH:mm` slots per staff member. */
  slots: Map<number, string[]>;
  /** Active reservations per staff member, in minutes since the day's local midnight. */
  busy: Map<number, Interval[]>;
}

/**
 * Which starts can be booked (DESIGN.md §5): some active staff member has every 30-minute slot of
 * [t, t + D) open, nothing active overlaps it, and t is at least the minimum notice after now.
 * All arithmetic is in src/shared/slots.ts; this module loads the inputs for a day or a month.
 */
export function createAvailabilityService(deps: { db: Database; salonId: number; timeZone: string; now: () => Date }) {
  const { db, salonId, timeZone, now } = deps;

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
  async function noticeCutoff(): Promise<string> {
    const salon = await repo.findSalon(db, salonId);
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

  return {
    /** Bookable starts of one day for one duration, per staff member. */
    async startsByStaff(date: string, durationMinutes: number): Promise<Map<number, string[]>> {
      const earliest = earliestStartOn(date, await noticeCutoff());
      if (earliest === null) return new Map();
      const plans = await loadPlans(date, date);
      return startsByStaff(plans.get(date), durationMinutes, earliest);
    },

    /** GET /api/availability/: the union over staff, sorted. */
    async availableStarts(date: string, durationMinutes: number): Promise<string[]> {
      const byStaff = await this.startsByStaff(date, durationMinutes);
      return [...new Set([...byStaff.values()].flat())].sort();
    },

    /**
     * GET /api/bookable-dates/: the month's dates, today or later, with at least one bookable start.
     * Without a service, the shortest active service decides: whatever fits a longer one fits it too.
     */
    async bookableDates(year: number, month: number, durationMinutes: number): Promise<string[]> {
      const { first, last } = monthRange(year, month);
      const today = localDateOf(now(), timeZone);
      const from = first > today ? first : today;
      if (from > last) return [];
      const [plans, cutoff] = await Promise.all([loadPlans(from, last), noticeCutoff()]);
      const dates: string[] = [];
      for (let date = from; date <= last; date = addDaysToDate(date, 1)) {
        const earliest = earliestStartOn(date, cutoff);
        if (earliest === null) continue;
        if (startsByStaff(plans.get(date), durationMinutes, earliest).size > 0) dates.push(date);
      }
      return dates;
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
