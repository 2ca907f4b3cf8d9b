import { and, eq, inArray, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES, type ReservationStatus } from '../../src/shared/constants';
import { z } from 'zod';
import type { StaffRole } from '../../src/shared/roles';
import { reservationSchema, type Reservation } from '../../src/shared/schemas/reservations';
import { slotGrid } from '../../src/shared/slots';
import { localDateTimeToInstant } from '../../src/shared/time';
import {
  customers,
  openingSlots,
  reservations,
  salons,
  serviceOptionLinks,
  serviceOptions,
  services,
  shiftTemplates,
  staffUsers,
} from '../../server/db/schema';
import { answerOf, startTestApp, TEST_ADMIN_USERNAME, type ApiResult, type TestApp, type TestAppOptions } from './app';
import { createCustomer, createStaff, type CustomerRow, type StaffRow } from './factories';

/**
 * The booking suites run on a fixed clock: 2030-01-10 09:00 in Asia/Tokyo (a Thursday). "Today" is
 * 2030-01-10, the minimum notice (60 minutes) puts the first bookable start at 10:00, and a booking on
 * 2030-01-11 at 09:00 is exactly at the default cancellation deadline (1 day before the start).
 */
export const TZ = 'Asia/Tokyo';
export const TODAY = '2030-01-10';
export const NOW_LOCAL = `${TODAY}T09:00:00`;
export const FIXED_NOW = localDateTimeToInstant(NOW_LOCAL, TZ);
export const fixedClock = () => new Date(FIXED_NOW);

export type BookingWorld = Awaited<ReturnType<typeof startBookingApp>>;
export type StaffMember = StaffRow & { token: string };
export type CustomerMember = CustomerRow & { token: string };
export type ServiceRow = typeof services.$inferSelect;

/** `HH:mm` grid times from `from` (inclusive) to `to` (exclusive): `times('10:00', '12:00')` is four slots. */
export const times = (from: string, to: string) => slotGrid(from, to);

/** `yyyy-MM-ddTHH:mm:ss` from a date and an `HH:mm`. */
export const at = (date: string, time: string) => `${date}T${time}:00`;

/**
 * A real app on a fresh database with the fixed clock, plus the shortcuts the booking suites share: staff and
 * customers with ready access tokens (no password logins), services, opening slots, bookings.
 */
export async function startBookingApp(options: Omit<TestAppOptions, 'now'> = {}) {
  const t: TestApp = await startTestApp({ ...options, now: fixedClock });
  const { db } = t.database;
  const [adminRow] = await db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
  const admin: StaffMember = { ...adminRow!, token: (await t.auth.issueTokenPair('staff', adminRow!.id)).access };

  /** Direct writes bypass the API, so they clear the booking read cache as every API write does (server/app.ts). */
  const wroteDirectly = () => t.app.bookingReads.clear();

  const world = {
    t,
    db,
    admin,
    api: t.api,

    async staff(username: string, fullName?: string, role?: StaffRole): Promise<StaffMember> {
      const row = await createStaff(db, t.salonId, { username, fullName, role });
      return { ...row, token: (await t.auth.issueTokenPair('staff', row.id)).access };
    },

    async customer(
      input: Parameters<typeof createCustomer>[2] & { assignedStaffId?: number } = {},
    ): Promise<CustomerMember> {
      const row = await createCustomer(db, t.salonId, input);
      if (input.assignedStaffId !== undefined) {
        await db.update(customers).set({ assigned_staff_id: input.assignedStaffId }).where(eq(customers.id, row.id));
        row.assigned_staff_id = input.assignedStaffId;
      }
      return { ...row, token: (await t.auth.issueTokenPair('customer', row.id)).access };
    },

    async service(name: string, durationMinutes: number, price = 5000, isActive = true): Promise<ServiceRow> {
      const [row] = await db
        .insert(services)
        .values({ salon_id: t.salonId, name, duration_minutes: durationMinutes, price, is_active: isActive })
        .returning();
      wroteDirectly();
      return row!;
    },

    async setSalon(patch: Partial<typeof salons.$inferInsert>) {
      await db.update(salons).set(patch).where(eq(salons.id, t.salonId));
      wroteDirectly();
    },

    /** An option (オプション) allowed by one service (or by each of several), written directly. */
    async option(
      serviceIds: number | readonly number[],
      name: string,
      durationMinutes: number,
      price = 1100,
      isActive = true,
    ) {
      const [row] = await db
        .insert(serviceOptions)
        .values({ salon_id: t.salonId, name, duration_minutes: durationMinutes, price, is_active: isActive })
        .returning();
      const allowedBy = typeof serviceIds === 'number' ? [serviceIds] : serviceIds;
      if (allowedBy.length > 0) {
        await db
          .insert(serviceOptionLinks)
          .values(allowedBy.map((serviceId) => ({ service_id: serviceId, option_id: row!.id })));
      }
      wroteDirectly();
      return row!;
    },

    /** Staff fields the booking rules read (指名料, is_bookable, is_active, profile), written directly. */
    async setStaff(staffId: number, patch: Partial<typeof staffUsers.$inferInsert>) {
      await db.update(staffUsers).set(patch).where(eq(staffUsers.id, staffId));
      wroteDirectly();
    },

    /** A weekly shift (weekday 0 = Sunday, `HH:mm` on the 30-minute grid), written directly. */
    async shiftTemplate(staffId: number, weekday: number, start: string, end: string) {
      await db
        .insert(shiftTemplates)
        .values({ staff_id: staffId, salon_id: t.salonId, weekday, start_time: start, end_time: end });
      wroteDirectly();
    },

    /** Opens slots the way the admin screen does: POST /api/admin/available-slots/ as the superuser. */
    async openSlots(staffId: number, date: string, slotTimes: string[]) {
      const result = await t.api('/api/admin/available-slots/', {
        method: 'POST',
        token: admin.token,
        json: { date, times: slotTimes, user_id: staffId },
      });
      if (result.status !== 200) throw new Error(`opening slots failed: ${result.status} ${result.text}`);
    },

    /** Opens many days at once with direct inserts (setup for the race rounds). */
    async openSlotsDirect(staffId: number, dates: string[], slotTimes: string[]) {
      await db
        .insert(openingSlots)
        .values(
          dates.flatMap((date) =>
            slotTimes.map((time) => ({ staff_id: staffId, salon_id: t.salonId, slot_date: date, start_time: time })),
          ),
        );
      wroteDirectly();
    },

    /** POST /api/reservations/ as a customer with a valid body; `overrides` replace fields. */
    book(customer: CustomerMember, serviceId: number, startTime: string, overrides: Record<string, unknown> = {}) {
      return t.api('/api/reservations/', {
        method: 'POST',
        token: customer.token,
        json: {
          salon: t.salonId,
          service: serviceId,
          start_time: startTime,
          customer_name: customer.name,
          customer_furigana: customer.furigana,
          customer_email: customer.email || `customer${customer.id}@example.com`,
          customer_phone: customer.phone_number,
          ...overrides,
        },
      });
    },

    /** A booking that must succeed. */
    async booked(customer: CustomerMember, serviceId: number, startTime: string): Promise<Reservation> {
      const result = await world.book(customer, serviceId, startTime);
      if (result.status !== 201) throw new Error(`booking ${startTime} failed: ${result.status} ${result.text}`);
      return answerOf(result, reservationSchema);
    },

    /** A reservation row written directly (for past bookings, which the API rightly refuses to create). */
    async insertReservation(input: {
      staffId: number;
      customer: CustomerRow;
      service: ServiceRow;
      start: string;
      status?: ReservationStatus;
    }) {
      const start = localDateTimeToInstant(input.start, TZ);
      const [row] = await db
        .insert(reservations)
        .values({
          salon_id: t.salonId,
          staff_id: input.staffId,
          customer_id: input.customer.id,
          service_id: input.service.id,
          start_time: start,
          end_time: new Date(start.getTime() + input.service.duration_minutes * 60_000),
          status: input.status ?? 'pending',
          service_name: input.service.name,
          price: input.service.price,
          duration_minutes: input.service.duration_minutes,
          customer_name: input.customer.name,
          customer_email: input.customer.email,
          created_by: 'staff',
        })
        .returning();
      wroteDirectly();
      return row!;
    },

    /** Active (pending or confirmed) reservation rows starting in [from, to) local time, optionally for some staff. */
    async activeRows(from: string, to: string, staffIds?: number[]) {
      const conditions = [
        eq(reservations.salon_id, t.salonId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        sql`${reservations.start_time} >= ${localDateTimeToInstant(from, TZ)}`,
        sql`${reservations.start_time} < ${localDateTimeToInstant(to, TZ)}`,
      ];
      if (staffIds) conditions.push(inArray(reservations.staff_id, staffIds));
      return db
        .select()
        .from(reservations)
        .where(and(...conditions));
    },

    async statusOf(reservationNumber: string) {
      const [row] = await db
        .select({ status: reservations.status, updated_at: reservations.updated_at })
        .from(reservations)
        .where(eq(reservations.reservation_number, reservationNumber));
      return row;
    },

    close: () => t.close(),
  };
  return world;
}

/**
 * The cast of the rules suites: two staff members (`<prefix>-a`, `<prefix>-b`), two customers (Hanako, Yui) and
 * two services (a 90-minute gel, a 30-minute one-colour). Opening slots are the suite's own business.
 */
export async function twoStaffCast(world: BookingWorld, prefix: string) {
  const [staffA, staffB] = await Promise.all([
    world.staff(`${prefix}-a`, '佐藤 A'),
    world.staff(`${prefix}-b`, '鈴木 B'),
  ]);
  const [hanako, yui] = await Promise.all([
    world.customer({ name: '山田 花子', email: 'hanako@example.com' }),
    world.customer({ name: '高橋 結衣', furigana: 'タカハシ ユイ', email: 'yui@example.com' }),
  ]);
  const gel = await world.service('ジェルネイル', 90);
  const short = await world.service('ワンカラー', 30);
  return { staffA, staffB, hanako, yui, gel, short };
}

/**
 * The cast of the input suites: one staff member open all of `day`, Hanako (assigned to them, with no limit on
 * upcoming bookings), a 30-minute service and a retired one.
 */
export async function inputCast(world: BookingWorld, username: string, day: string) {
  const staff = await world.staff(username);
  const hanako = await world.customer({ name: '山田 花子', email: 'hanako@example.com', assignedStaffId: staff.id });
  const short = await world.service('ワンカラー', 30);
  const retired = await world.service('終了したメニュー', 60, 3000, false);
  await world.openSlots(staff.id, day, times('09:00', '21:00'));
  await world.setSalon({ max_upcoming_per_customer: 1000 });
  return { staff, hanako, short, retired };
}

/** The starts GET /api/availability/ offers. */
export async function availability(world: BookingWorld, date: string, serviceId: number): Promise<string[]> {
  const result = await world.api(`/api/availability/?date=${date}&service_id=${serviceId}`);
  if (result.status !== 200) throw new Error(`availability failed: ${result.status} ${result.text}`);
  return answerOf(result, z.array(z.string()));
}

/** GET /api/admin/detailed-time-slots/ for one staff member, as the superuser. */
export async function detailedSlots(world: BookingWorld, date: string, staffId: number) {
  const result = await world.api(`/api/admin/detailed-time-slots/?date=${date}&user_id=${staffId}`, {
    token: world.admin.token,
  });
  if (result.status !== 200) throw new Error(`detailed-time-slots failed: ${result.status} ${result.text}`);
  return result.body as { available_times: string[]; booked_times: string[]; outside_business_hours: string[] };
}

/** The statuses of a batch of answers, sorted (for messages that show the whole round). */
export const statusesOf = (results: ApiResult[]) => results.map((result) => result.status).sort((a, b) => a - b);

/** Consecutive dates from `first`. */
export function dates(first: string, count: number): string[] {
  const [y, m, d] = first.split('-').map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(y, m - 1, d + i)).toISOString().slice(0, 10));
}

/** Pairs of active reservations of one staff member whose [start, end) overlap (must always be empty). */
export function overlappingPairs(rows: Array<{ id: number; staff_id: number; start_time: Date; end_time: Date }>) {
  const pairs: Array<[number, number]> = [];
  for (const a of rows) {
    for (const b of rows) {
      if (a.id < b.id && a.staff_id === b.staff_id && a.start_time < b.end_time && b.start_time < a.end_time) {
        pairs.push([a.id, b.id]);
      }
    }
  }
  return pairs;
}
