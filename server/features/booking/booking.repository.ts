import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared';
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
  // One prepared statement per shape (all staff or some, with or without a reservation left out), so that each
  // keeps a plan of its own.
  const shape = `busy_intervals${staffIds ? '_of_staff' : ''}${ignoreReservationId === undefined ? '' : '_but_one'}`;
  return preparedOn(db, shape, (db) =>
    busyIntervalsStatement(db, shape, staffIds !== undefined, ignoreReservationId !== undefined),
  ).execute({
    salonId,
    from: from.toISOString(),
    to: to.toISOString(),
    staffIds: staffIds ? [...staffIds] : [],
    ignoreReservationId: ignoreReservationId ?? 0,
  });
}

function busyIntervalsStatement(db: Executor, name: string, someStaff: boolean, ignoringOne: boolean) {
  return db
    .select({ staffId: reservations.staff_id, start: reservations.start_time, end: reservations.occupied_until })
    .from(reservations)
    .where(
      and(
        eq(reservations.salon_id, sql.placeholder('salonId')),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        sql`tstzrange(${reservations.start_time}, ${reservations.occupied_until}, '[)') && tstzrange(${sql.placeholder('from')}::timestamptz, ${sql.placeholder('to')}::timestamptz, '[)')`,
        someStaff ? sql`${reservations.staff_id} = any(${sql.placeholder('staffIds')}::int[])` : undefined,
        ignoringOne ? ne(reservations.id, sql.placeholder('ignoreReservationId')) : undefined,
      ),
    )
    .prepare(name);
}
