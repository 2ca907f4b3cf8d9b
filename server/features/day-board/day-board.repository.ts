import { and, asc, eq, gte, inArray, lt, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { reservations, salons, staffUsers } from '../../db/schema';

export async function findSalonDaySettings(db: Executor, salonId: number) {
  const [row] = await db
    .select({ gridMinutes: salons.slot_minutes, closedWeekdays: salons.closed_weekdays })
    .from(salons)
    .where(eq(salons.id, salonId));
  return { gridMinutes: row?.gridMinutes ?? 30, closedWeekdays: row?.closedWeekdays ?? [] };
}

/** Active staff, or only `onlyStaffId`, in id order: the board's candidate columns. */
export function listActiveStaff(db: Executor, salonId: number, onlyStaffId: number | undefined) {
  const conditions = [eq(staffUsers.salon_id, salonId), eq(staffUsers.is_active, true)];
  if (onlyStaffId !== undefined) conditions.push(eq(staffUsers.id, onlyStaffId));
  return db
    .select({ id: staffUsers.id, fullName: staffUsers.full_name, username: staffUsers.username })
    .from(staffUsers)
    .where(and(...conditions))
    .orderBy(asc(staffUsers.id));
}

/** The day's bookings that were not cancelled, starting in [from, to), of some staff members, by start. */
export function listDayReservations(db: Executor, salonId: number, staffIds: number[], from: Date, to: Date) {
  if (staffIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      staffId: reservations.staff_id,
      reservation_number: reservations.reservation_number,
      reservation_code: reservations.reservation_code,
      start: reservations.start_time,
      end: reservations.end_time,
      customer_name: reservations.customer_name,
      service_name: reservations.service_name,
      options: reservations.options,
      is_nominated: reservations.is_nominated,
      status: reservations.status,
    })
    .from(reservations)
    .where(
      and(
        eq(reservations.salon_id, salonId),
        inArray(reservations.staff_id, staffIds),
        gte(reservations.start_time, from),
        lt(reservations.start_time, to),
        ne(reservations.status, 'cancelled'),
      ),
    )
    .orderBy(asc(reservations.start_time), asc(reservations.id));
}
