import { and, asc, eq, gt, gte, inArray, lt, lte } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '../../../src/shared/constants';
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

export async function findActiveService(db: Executor, salonId: number, serviceId: number) {
  const [row] = await db
    .select()
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.salon_id, salonId), eq(services.is_active, true)))
    .limit(1);
  return row;
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

/** Active reservations overlapping [from, to): what holds staff time. */
export function listBusyIntervals(db: Executor, salonId: number, from: Date, to: Date) {
  return db
    .select({ staffId: reservations.staff_id, start: reservations.start_time, end: reservations.end_time })
    .from(reservations)
    .where(
      and(
        eq(reservations.salon_id, salonId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        lt(reservations.start_time, to),
        gt(reservations.end_time, from),
      ),
    );
}
