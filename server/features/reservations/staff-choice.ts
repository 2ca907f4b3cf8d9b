/**
 * Who serves a customer's move made without 指名 (docs/architecture.md#staff-choice), among the staff members free
 * at its new start (reschedule.ts, when the current staff member is not free). A new booking decides by the same
 * rule in the database, in book_reservation()'s candidate order (server/db/migrations/0025_book_reservation.sql):
 * change one, change both.
 */
import { localDateTimeToInstant } from '#src/shared/time';
import * as bookRepo from './book.repository';
import type { ReservationsContext } from './reservations.context';

/** The customer's own staff member when free, else the free one with the fewest bookings that day (ties: lowest id). */
export async function chooseStaff(
  ctx: ReservationsContext,
  free: number[],
  customerId: number,
  date: string,
): Promise<number> {
  if (free.length === 1) return free[0]!;
  const dayStart = localDateTimeToInstant(`${date}T00:00:00`, ctx.timeZone);
  const dayEnd = new Date(dayStart.getTime() + 24 * 60 * 60_000);
  const { assigned, loads } = await bookRepo.staffChoiceInputs(ctx.db, {
    salonId: ctx.salonId,
    customerId,
    staffIds: free,
    from: dayStart,
    to: dayEnd,
  });
  if (assigned && free.includes(assigned)) return assigned;
  const load = (staffId: number) => loads.get(staffId) ?? 0;
  return [...free].sort((a, b) => load(a) - load(b) || a - b)[0]!;
}

/** The staff members whose bookable starts of the day include `time`. */
export function freeAt(starts: Map<number, string[]>, time: string): number[] {
  return [...starts].filter(([, times]) => times.includes(time)).map(([staffId]) => staffId);
}
