import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';

/**
 * The API speaks naive salon-local date-times (`yyyy-MM-ddTHH:mm:ss`, DESIGN.md §5); the database stores
 * instants. These two functions are the only crossing between them.
 */
export function localDateTimeToInstant(local: string, timeZone: string): Date {
  return fromZonedTime(local, timeZone);
}

export function instantToLocalDateTime(instant: Date, timeZone: string): string {
  return formatInTimeZone(instant, timeZone, "yyyy-MM-dd'T'HH:mm:ss");
}

/** `yyyy-MM-dd` of an instant in the salon's zone. */
export function localDateOf(instant: Date, timeZone: string): string {
  return formatInTimeZone(instant, timeZone, 'yyyy-MM-dd');
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
