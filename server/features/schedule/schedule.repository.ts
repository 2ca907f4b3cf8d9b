import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Database, Executor } from '../../db/client';
import { openingSlots, reservations, salons, staffUsers } from '../../db/schema';

export async function findSalonHours(db: Executor, salonId: number) {
  const [row] = await db
    .select({ start: salons.business_start, end: salons.business_end })
    .from(salons)
    .where(eq(salons.id, salonId));
  return { start: row?.start.slice(0, 5) ?? '09:00', end: row?.end.slice(0, 5) ?? '21:00' };
}

export async function isActiveStaff(db: Executor, salonId: number, staffId: number) {
  const [row] = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.salon_id, salonId), eq(staffUsers.is_active, true)));
  return Boolean(row);
}

export async function listStaffSlots(db: Executor, staffId: number, date: string): Promise<string[]> {
  const rows = await db
    .select({ time: openingSlots.start_time })
    .from(openingSlots)
    .where(and(eq(openingSlots.staff_id, staffId), eq(openingSlots.slot_date, date)))
    .orderBy(asc(openingSlots.start_time));
  return rows.map((row) => row.time.slice(0, 5));
}

/** Replaces one staff member's slots of one day in one transaction: readers see the old or the new set. */
export async function replaceStaffSlots(
  db: Database,
  input: { salonId: number; staffId: number; date: string; times: string[] },
) {
  await db.transaction(async (tx) => {
    await tx
      .delete(openingSlots)
      .where(and(eq(openingSlots.staff_id, input.staffId), eq(openingSlots.slot_date, input.date)));
    if (input.times.length > 0) {
      await tx.insert(openingSlots).values(
        input.times.map((time) => ({
          staff_id: input.staffId,
          salon_id: input.salonId,
          slot_date: input.date,
          start_time: time,
        })),
      );
    }
  });
}

/** Dates of a range with at least one open slot, for one staff member or (undefined) anyone. */
export async function listConfiguredDates(db: Executor, salonId: number, from: string, to: string, staffId?: number) {
  const conditions = [
    eq(openingSlots.salon_id, salonId),
    gte(openingSlots.slot_date, from),
    lte(openingSlots.slot_date, to),
  ];
  if (staffId !== undefined) conditions.push(eq(openingSlots.staff_id, staffId));
  const rows = await db
    .selectDistinct({ date: openingSlots.slot_date })
    .from(openingSlots)
    .where(and(...conditions))
    .orderBy(asc(openingSlots.slot_date));
  return rows.map((row) => row.date);
}

export function listStaffBusy(db: Executor, staffId: number, from: Date, to: Date) {
  return db
    .select({ start: reservations.start_time, end: reservations.end_time })
    .from(reservations)
    .where(
      and(
        eq(reservations.staff_id, staffId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        lt(reservations.start_time, to),
        sql`${reservations.end_time} > ${from}`,
      ),
    );
}
