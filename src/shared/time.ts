// The subpath: the package's index also loads date-fns's formatting and locales, ~0.2 s of CPU at each server start.
import { fromZonedTime } from 'date-fns-tz/fromZonedTime';

/**
 * The API speaks naive salon-local date-times (`yyyy-MM-ddTHH:mm:ss`, docs/architecture.md); the database stores
 * instants. These two functions are the only crossing between them.
 */
export function localDateTimeToInstant(local: string, timeZone: string): Date {
  return wallClockToInstant(local, timeZone) ?? fromZonedTime(local, timeZone);
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const TWO_DAYS_MS = 2 * 24 * 60 * 60_000;

/**
 * The instant of a naive `yyyy-MM-ddTHH:mm[:ss]` from the cached offsets (offsetAt): date-fns-tz asks Intl for every
 * call, and availability converts a midnight per busy interval (docs/decisions/0022-booking-in-one-statement.md).
 * Undefined, and date-fns-tz decides, for any other shape, an impossible date (2030-02-30), or within two days of
 * one of the zone's transitions, where a wall clock can be skipped or repeated.
 */
function wallClockToInstant(local: string, timeZone: string): Date | undefined {
  const match = WALL_CLOCK.exec(local);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map(Number) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
  const check = new Date(wall);
  if (
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute
  )
    return undefined;
  const offset = offsetAt(wall, timeZone);
  if (offsetAt(wall - TWO_DAYS_MS, timeZone) !== offset || offsetAt(wall + TWO_DAYS_MS, timeZone) !== offset) {
    return undefined;
  }
  return new Date(wall - offset);
}

export function instantToLocalDateTime(instant: Date, timeZone: string): string {
  const ms = instant.getTime();
  // The wall clock is the instant shifted by the zone's offset; toISOString writes it (and throws for an
  // invalid date, as formatting would).
  return new Date(ms + offsetAt(ms, timeZone)).toISOString().slice(0, 19);
}

/** An instant with the zone's offset, `yyyy-MM-ddTHH:mm:ss+09:00` (date-fns's `yyyy-MM-dd'T'HH:mm:ssxxx`). */
export function instantToZonedIso(instant: Date, timeZone: string): string {
  const ms = instant.getTime();
  const offsetMinutes = Math.round(offsetAt(ms, timeZone) / 60_000);
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${instantToLocalDateTime(instant, timeZone)}${offsetMinutes < 0 ? '-' : '+'}${hours}:${minutes}`;
}

/** `yyyy-MM-dd` of an instant in the salon's zone. */
export function localDateOf(instant: Date, timeZone: string): string {
  return instantToLocalDateTime(instant, timeZone).slice(0, 10);
}

/**
 * A zone's UTC offset changes only at its transitions, a few times a year at most, and every transition of the last
 * century falls on a quarter hour. So the offset is measured (Intl, measureOffset) once per zone and UTC day: when
 * the day starts and ends on the same offset, that is the whole day's (no zone changes twice in one day and back);
 * a day with a transition is measured per quarter hour. Formatting each instant with date-fns-tz cost more than the
 * rest of a cached booking read, and one measurement per quarter hour was still a few per booking, whose starts are
 * spread over months (docs/BENCHMARKS.md).
 */
const DAY_MS = 24 * 60 * 60_000;
const QUARTER_HOUR_MS = 15 * 60_000;
/** By zone, then UTC day number: the day's offset, or null for a day with a transition (see `quarters`). */
const dayOffsets = new Map<string, Map<number, number | null>>();
/** By zone, then quarter-hour number, for the days with a transition. */
const quarterOffsets = new Map<string, Map<number, number>>();
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** A zone's map of `cache`, emptied when it grows past 100,000 entries (a process that runs for years). */
function zoneCache<T>(cache: Map<string, Map<number, T>>, timeZone: string): Map<number, T> {
  let zone = cache.get(timeZone);
  if (!zone || zone.size >= 100_000) {
    zone = new Map();
    cache.set(timeZone, zone);
  }
  return zone;
}

function offsetAt(instantMs: number, timeZone: string): number {
  const day = Math.floor(instantMs / DAY_MS);
  const days = zoneCache(dayOffsets, timeZone);
  let offset = days.get(day);
  if (offset === undefined) {
    const start = measureOffset(day * DAY_MS, timeZone);
    offset = start === measureOffset((day + 1) * DAY_MS, timeZone) ? start : null;
    days.set(day, offset);
  }
  if (offset !== null) return offset;
  const quarter = Math.floor(instantMs / QUARTER_HOUR_MS);
  const quarters = zoneCache(quarterOffsets, timeZone);
  let exact = quarters.get(quarter);
  if (exact === undefined) {
    exact = measureOffset(quarter * QUARTER_HOUR_MS, timeZone);
    quarters.set(quarter, exact);
  }
  return exact;
}

/** The zone's offset at a whole-second instant: its wall clock read as if it were UTC, minus the instant. */
function measureOffset(instantMs: number, timeZone: string): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, format);
  }
  const field = Object.fromEntries(
    format.formatToParts(new Date(instantMs)).map((part) => [part.type, Number(part.value)]),
  );
  const wallAsUtc = Date.UTC(field.year!, field.month! - 1, field.day!, field.hour!, field.minute!, field.second!);
  return wallAsUtc - instantMs;
}

/** Adds whole days to a `yyyy-MM-dd` date (calendar arithmetic, no time zone involved). */
export function addDaysToDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** First and last `yyyy-MM-dd` of a calendar month. */
export function monthRange(year: number, month: number): { first: string; last: string } {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  const nextFirst = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
  return { first, last: addDaysToDate(nextFirst, -1) };
}
