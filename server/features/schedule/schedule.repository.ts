import { and, asc, eq, gt, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { ShiftDay } from '#src/shared/schemas/schedule';
import type { Executor } from '../../db/client';
import {
  openingSlots,
  reservations,
  salonHolidays,
  salons,
  scheduleExceptions,
  shiftTemplates,
  staffUsers,
} from '../../db/schema';

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

/**
 * Sets one staff member's day by hand (an exception to the template; `times` empty = a day off), inside the
 * caller's transaction: readers see the old or the new day, never a mix.
 */
export async function replaceStaffSlots(
  db: Executor,
  input: { salonId: number; staffId: number; date: string; times: string[] },
) {
  await db
    .delete(openingSlots)
    .where(and(eq(openingSlots.staff_id, input.staffId), eq(openingSlots.slot_date, input.date)));
  // The trigger of migration 0009 marks a day with slots too; an empty day needs the row written here.
  await db
    .insert(scheduleExceptions)
    .values({ staff_id: input.staffId, salon_id: input.salonId, exception_date: input.date })
    .onConflictDoNothing();
  if (input.times.length > 0) {
    await db.insert(openingSlots).values(
      input.times.map((time) => ({
        staff_id: input.staffId,
        salon_id: input.salonId,
        slot_date: input.date,
        start_time: time,
      })),
    );
  }
}

/** Drops the day set by hand (its slots and its mark): the day follows the template again. */
export async function removeException(db: Executor, staffId: number, date: string) {
  await db.delete(openingSlots).where(and(eq(openingSlots.staff_id, staffId), eq(openingSlots.slot_date, date)));
  await db
    .delete(scheduleExceptions)
    .where(and(eq(scheduleExceptions.staff_id, staffId), eq(scheduleExceptions.exception_date, date)));
}

/** The weekly template, Sunday first. */
export async function listShiftTemplate(db: Executor, staffId: number): Promise<ShiftDay[]> {
  const rows = await db
    .select({ weekday: shiftTemplates.weekday, start: shiftTemplates.start_time, end: shiftTemplates.end_time })
    .from(shiftTemplates)
    .where(eq(shiftTemplates.staff_id, staffId))
    .orderBy(asc(shiftTemplates.weekday));
  return rows.map((row) => ({
    weekday: row.weekday,
    start_time: row.start.slice(0, 5),
    end_time: row.end.slice(0, 5),
  }));
}

/** Replaces the whole weekly template (a weekday left out becomes a day off). */
export async function replaceShiftTemplate(
  db: Executor,
  input: { salonId: number; staffId: number; days: readonly ShiftDay[] },
) {
  await db.delete(shiftTemplates).where(eq(shiftTemplates.staff_id, input.staffId));
  if (input.days.length > 0) {
    await db.insert(shiftTemplates).values(
      input.days.map((day) => ({
        staff_id: input.staffId,
        salon_id: input.salonId,
        weekday: day.weekday,
        start_time: day.start_time,
        end_time: day.end_time,
      })),
    );
  }
}

export async function listHolidays(db: Executor, salonId: number, from: string, to: string) {
  const rows = await db
    .select({ date: salonHolidays.holiday_date, note: salonHolidays.note })
    .from(salonHolidays)
    .where(
      and(
        eq(salonHolidays.salon_id, salonId),
        gte(salonHolidays.holiday_date, from),
        lte(salonHolidays.holiday_date, to),
      ),
    )
    .orderBy(asc(salonHolidays.holiday_date));
  return rows;
}

/** Adds a holiday, or changes the note of one that exists. */
export async function upsertHoliday(db: Executor, input: { salonId: number; date: string; note: string }) {
  const [row] = await db
    .insert(salonHolidays)
    .values({ salon_id: input.salonId, holiday_date: input.date, note: input.note })
    .onConflictDoUpdate({ target: [salonHolidays.salon_id, salonHolidays.holiday_date], set: { note: input.note } })
    .returning({ date: salonHolidays.holiday_date, note: salonHolidays.note });
  return row!;
}

/** Whether there was such a holiday. */
export async function deleteHoliday(db: Executor, salonId: number, date: string): Promise<boolean> {
  const rows = await db
    .delete(salonHolidays)
    .where(and(eq(salonHolidays.salon_id, salonId), eq(salonHolidays.holiday_date, date)))
    .returning({ date: salonHolidays.holiday_date });
  return rows.length > 0;
}

/**
 * Locks the staff rows whose working time a change touches (`'salon'`: every active staff member), in id order so
 * that two changes never wait on each other crosswise. A booking's foreign-key check (or its re-read of
 * schedule_version) waits for these locks: server/features/schedule/schedule-change.ts says why that matters.
 */
export async function lockStaffRows(db: Executor, salonId: number, staffIds: readonly number[] | 'salon') {
  const conditions = [eq(staffUsers.salon_id, salonId)];
  if (staffIds === 'salon') conditions.push(eq(staffUsers.is_active, true));
  else if (staffIds.length === 0) return [];
  else conditions.push(inArray(staffUsers.id, [...staffIds]));
  const rows = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(...conditions))
    .orderBy(asc(staffUsers.id))
    .for('update');
  return rows.map((row) => row.id);
}

/** Tells bookings deciding on the old working time of these staff members to decide again (server/db/schema.ts). */
export async function raiseScheduleVersions(db: Executor, staffIds: readonly number[]) {
  if (staffIds.length === 0) return;
  await db
    .update(staffUsers)
    .set({ schedule_version: sql`${staffUsers.schedule_version} + 1` })
    .where(inArray(staffUsers.id, [...staffIds]));
}

export async function closedWeekdaysOf(db: Executor, salonId: number): Promise<number[]> {
  const [row] = await db.select({ closed: salons.closed_weekdays }).from(salons).where(eq(salons.id, salonId));
  return row?.closed ?? [];
}

/**
 * Active bookings not yet over (ending after `after`), of some staff members (`'salon'`: anyone's), optionally only
 * those whose served time touches [from, to): what a schedule change must not leave outside working time.
 */
export function listActiveBookings(
  db: Executor,
  input: { salonId: number; staffIds: readonly number[] | 'salon'; after: Date; from?: Date; to?: Date },
) {
  const conditions = [
    eq(reservations.salon_id, input.salonId),
    inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
    gt(reservations.end_time, input.after),
  ];
  if (input.staffIds !== 'salon') conditions.push(inArray(reservations.staff_id, [...input.staffIds]));
  if (input.from) conditions.push(gt(reservations.end_time, input.from));
  if (input.to) conditions.push(lt(reservations.start_time, input.to));
  return db
    .select({
      reservation_number: reservations.reservation_number,
      staff_id: reservations.staff_id,
      start: reservations.start_time,
      end: reservations.end_time,
      customer_name: reservations.customer_name,
      staff_name: staffUsers.full_name,
    })
    .from(reservations)
    .innerJoin(staffUsers, eq(staffUsers.id, reservations.staff_id))
    .where(and(...conditions))
    .orderBy(asc(reservations.start_time));
}
export type ActiveBooking = Awaited<ReturnType<typeof listActiveBookings>>[number];

/** Every active staff member of the salon, in id order. */
export async function listActiveStaffIds(db: Executor, salonId: number): Promise<number[]> {
  const rows = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(eq(staffUsers.salon_id, salonId), eq(staffUsers.is_active, true)))
    .orderBy(asc(staffUsers.id));
  return rows.map((row) => row.id);
}

/** The time active bookings hold of one staff member ([start_time, occupied_until): buffer included). */
export function listStaffBusy(db: Executor, staffId: number, from: Date, to: Date) {
  return db
    .select({ start: reservations.start_time, end: reservations.occupied_until })
    .from(reservations)
    .where(
      and(
        eq(reservations.staff_id, staffId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        lt(reservations.start_time, to),
        gt(reservations.occupied_until, from),
      ),
    );
}
