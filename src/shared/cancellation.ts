/**
 * When a customer may still cancel online (docs/architecture.md#booking-rules). Pure functions shared by the server
 * (which enforces the rule) and the browser (which states it on the booking confirmation step).
 */
import { addDaysToDate } from './time';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The last moment a customer may cancel online: `deadlineDays` whole days of 24 hours before the start, so 0 means
 * until the start itself. In the default zone (Asia/Tokyo, no daylight saving) that is the start's clock time N
 * calendar days earlier; in a zone with daylight saving, a deadline across the change is an hour off that time.
 */
export function cancellationDeadline(start: Date, deadlineDays: number): Date {
  return new Date(start.getTime() - deadlineDays * DAY_MS);
}

/** Strictly before the deadline: at the deadline itself the customer must call the salon. */
export function beforeCancellationDeadline(start: Date, deadlineDays: number, now: Date): boolean {
  return now < cancellationDeadline(start, deadlineDays);
}

/**
 * The same deadline on the salon's wall clock, from a salon-local start (`yyyy-MM-ddTHH:mm[:ss]`): the start's
 * clock time `deadlineDays` calendar days earlier, as `yyyy-MM-ddTHH:mm:ss`.
 */
export function cancellationDeadlineLocal(localStart: string, deadlineDays: number): string {
  const time = localStart.slice(11, 19).padEnd(8, ':00').slice(0, 8);
  return `${addDaysToDate(localStart.slice(0, 10), -deadlineDays)}T${time}`;
}

/**
 * Whether online cancellation is still possible for a salon-local start, given "now" on the same wall clock
 * (`yyyy-MM-ddTHH:mm:ss`): strictly before the deadline, as the server decides it.
 */
export function canStillCancelLocal(localStart: string, deadlineDays: number, localNow: string): boolean {
  return localNow < cancellationDeadlineLocal(localStart, deadlineDays);
}
