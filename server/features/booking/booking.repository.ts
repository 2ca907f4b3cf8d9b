import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { reservations, salons } from '../../db/schema';

export async function findSalon(db: Executor, salonId: number) {
  const [row] = await db.select().from(salons).where(eq(salons.id, salonId)).limit(1);
  return row;
}

/**
 * The time active reservations hold of their staff member ([start, occupied_until), buffer included) that
 * overlaps [from, to). The overlap is written like the exclusion constraint's own expression (migration 0009) so
 * that its GiST index, which holds only active reservations, finds just these rows: `start_time < to and
 * occupied_until > from` could only be answered by reading every active reservation before `to`, a cost that grew
 * with the salon's history (docs/BENCHMARKS.md, EXPLAIN).
 */
export function listBusyIntervals(
  db: Executor,
  salonId: number,
  from: Date,
  to: Date,
  staffIds?: readonly number[],
  ignoreReservationId?: number,
) {
  return db
    .select({ staffId: reservations.staff_id, start: reservations.start_time, end: reservations.occupied_until })
    .from(reservations)
    .where(
      and(
        eq(reservations.salon_id, salonId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        sql`tstzrange(${reservations.start_time}, ${reservations.occupied_until}, '[)') && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, '[)')`,
        staffIds ? inArray(reservations.staff_id, [...staffIds]) : undefined,
        ignoreReservationId === undefined ? undefined : ne(reservations.id, ignoreReservationId),
      ),
    );
}
