import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { openingSlots, reservations, salons, services, staffUsers } from '../../db/schema';

export async function findSalon(db: Executor, salonId: number) {
  const [row] = await db.select().from(salons).where(eq(salons.id, salonId)).limit(1);
  return row;
}

export function listActiveServices(db: Executor, salonId: number) {
  return db
    .select()
    .from(services)
    .where(and(eq(services.salon_id, salonId), eq(services.is_active, true)))
    .orderBy(asc(services.sort_order), asc(services.id));
}

/** Open slots of active staff between two dates (inclusive): uses the (salon_id, slot_date) index. */
export function listOpenSlots(db: Executor, salonId: number, fromDate: string, toDate: string) {
  return db
    .select({ staffId: openingSlots.staff_id, date: openingSlots.slot_date, time: openingSlots.start_time })
    .from(openingSlots)
    .innerJoin(staffUsers, eq(staffUsers.id, openingSlots.staff_id))
    .where(
      and(
        eq(openingSlots.salon_id, salonId),
        gte(openingSlots.slot_date, fromDate),
        lte(openingSlots.slot_date, toDate),
        eq(staffUsers.is_active, true),
      ),
    );
}

/**
 * Active reservations overlapping [from, to): what holds staff time. The overlap is written as the exclusion
 * constraint's own expression (migration 0001) so that its GiST index, which holds only active reservations,
 * finds just these rows: `start_time < to and end_time > from` could only be answered by reading every active
 * reservation before `to`, a cost that grew with the salon's history (docs/BENCHMARKS.md, EXPLAIN).
 */
export function listBusyIntervals(db: Executor, salonId: number, from: Date, to: Date) {
  return db
    .select({ staffId: reservations.staff_id, start: reservations.start_time, end: reservations.end_time })
    .from(reservations)
    .where(
      and(
        eq(reservations.salon_id, salonId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        sql`tstzrange(${reservations.start_time}, ${reservations.end_time}, '[)') && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz, '[)')`,
      ),
    );
}
