import { addDaysToDate, monthRange } from '#src/shared/time';
import { bookingLength, type BookingLength } from '#src/shared/slots';
import { listActiveServices } from '../../scheduling/menu';
import { listBookableStaff, type BookableStaffRow } from '../../scheduling/working-time';
import {
  cachedSalon,
  earliestStartOn,
  loadPlans,
  noticeCutoff,
  startsByStaffIn,
  type AvailabilityContext,
} from './day-plans';

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;

/** Who can be booked, as the staff choice (指名) and the booking's staff assignment see them. */
type BookableStaff = BookableStaffRow;

/**
 * Which starts can be booked (docs/architecture.md#booking-rules): some bookable staff member (or the one named)
 * works every cell of the customer's time from t, nothing they hold overlaps the time the booking would hold (its
 * rounding and buffer included), t is on the salon's grid and at least the minimum notice after now. All
 * arithmetic is in src/shared/slots.ts; who works when is server/scheduling/working-time.ts; day-plans.ts
 * loads the inputs for a day or a month; this module answers the questions asked of them.
 *
 * The menu, the settings and what customers browse (bookable dates, the starts of a day) are answered from
 * `cache`, which the app clears on every write (server/app.ts); a write of reservations only keeps the settings.
 * Who is free at a start (`startsByStaff`), which a booking decides on, is always read fresh; the database's
 * exclusion constraint has the last word anyway.
 */
export function createAvailabilityService(ctx: AvailabilityContext) {
  const { db, salonId, cache } = ctx;
  return {
    startsByStaff: (date: string, length: BookingLength, staffId?: number, ignoreReservationId?: number) =>
      startsByStaff(ctx, date, length, staffId, ignoreReservationId),

    /** The active services with their active options, in menu order. */
    activeServices() {
      return cache.get('services', async () => listActiveServices(db, salonId), 'settings');
    },

    /** GET /api/staff/: who customers can name. */
    bookableStaff: () => cachedStaff(ctx),

    /**
     * The salon's row: its settings (notice, deadline, limits, grid, buffer) and contact lines, read on every
     * booking and view. Not inside a transaction: a cold load waits for a pool connection (on PGlite, for the one
     * connection), which the transaction may be holding.
     */
    salon: () => cachedSalon(ctx),

    /** The length of a booking of this service with these options under the salon's current settings. */
    async lengthOf(serviceMinutes: number, optionMinutes: readonly number[] = []): Promise<BookingLength> {
      const salon = await cachedSalon(ctx);
      return bookingLength({
        serviceMinutes,
        optionMinutes,
        roundingMinutes: salon?.block_rounding_minutes ?? 5,
        bufferMinutes: salon?.buffer_minutes ?? 0,
      });
    },

    availableStarts: (date: string, length: BookingLength, staffId?: number) =>
      availableStarts(ctx, date, length, staffId),
    bookableDates: (year: number, month: number, length: BookingLength, staffId?: number) =>
      bookableDates(ctx, year, month, length, staffId),
  };
}

const cachedStaff = (ctx: AvailabilityContext) =>
  ctx.cache.get('staff', () => listBookableStaff(ctx.db, ctx.salonId), 'settings');

/**
 * The cutoff changes every minute; answers that depend on it are cached under it, so a cached answer never
 * offers a start that has come within the notice since.
 */
const cutoffKey = (cutoff: string) => `${cutoff.slice(0, 16)}${Number(cutoff.slice(17, 19)) > 0 ? '+' : ''}`;
const lengthKey = (length: BookingLength) => `${length.servedMinutes}/${length.occupiedMinutes}`;
const staffChoice = (staff: readonly BookableStaff[], staffId: number | undefined): BookableStaff[] =>
  staffId === undefined ? [...staff] : staff.filter((member) => member.id === staffId);

/**
 * Bookable starts of one day for one booking length, per staff member (only `staffId` when given), read fresh:
 * what a booking relies on. `staff` carries each one's schedule_version as read before the plan, which the
 * booking compares inside its transaction. A reservation being moved does not stand in its own way
 * (`ignoreReservationId`).
 */
async function startsByStaff(
  ctx: AvailabilityContext,
  date: string,
  length: BookingLength,
  staffId?: number,
  ignoreReservationId?: number,
): Promise<{ starts: Map<number, string[]>; staff: BookableStaff[] }> {
  const staff = staffChoice(await listBookableStaff(ctx.db, ctx.salonId), staffId);
  const earliest = earliestStartOn(date, await noticeCutoff(ctx));
  if (earliest === null || staff.length === 0) return { starts: new Map(), staff };
  const plans = await loadPlans(ctx, date, date, staff, ignoreReservationId);
  return { starts: await startsByStaffIn(ctx, plans.get(date), length, earliest), staff };
}

/** GET /api/availability/: the union over staff (or the named one's starts), sorted. */
async function availableStarts(
  ctx: AvailabilityContext,
  date: string,
  length: BookingLength,
  staffId?: number,
): Promise<string[]> {
  const cutoff = await noticeCutoff(ctx);
  return ctx.cache.get(`starts|${date}|${lengthKey(length)}|${staffId ?? ''}|${cutoffKey(cutoff)}`, async () => {
    const earliest = earliestStartOn(date, cutoff);
    if (earliest === null) return [];
    const staff = staffChoice(await cachedStaff(ctx), staffId);
    const plans = await loadPlans(ctx, date, date, staff);
    const byStaff = await startsByStaffIn(ctx, plans.get(date), length, earliest);
    return [...new Set([...byStaff.values()].flat())].sort();
  });
}

/**
 * GET /api/bookable-dates/: the month's dates, today or later, with at least one bookable start.
 * Without a service, the shortest active service decides: whatever fits a longer one fits it too.
 */
async function bookableDates(
  ctx: AvailabilityContext,
  year: number,
  month: number,
  length: BookingLength,
  staffId?: number,
): Promise<string[]> {
  const { first, last } = monthRange(year, month);
  const cutoff = await noticeCutoff(ctx);
  // The cutoff is at or after today, so "today or later" needs no clock reading of its own.
  const today = cutoff.slice(0, 10);
  const from = first > today ? first : today;
  if (from > last) return [];
  return ctx.cache.get(`dates|${from}|${last}|${lengthKey(length)}|${staffId ?? ''}|${cutoffKey(cutoff)}`, async () => {
    const staff = staffChoice(await cachedStaff(ctx), staffId);
    const plans = await loadPlans(ctx, from, last, staff);
    const dates: string[] = [];
    for (let date = from; date <= last; date = addDaysToDate(date, 1)) {
      const earliest = earliestStartOn(date, cutoff);
      if (earliest === null) continue;
      if ((await startsByStaffIn(ctx, plans.get(date), length, earliest)).size > 0) dates.push(date);
    }
    return dates;
  });
}
