/**
 * book_reservation() (server/db/migrations/0025_book_reservation.sql) called directly, one test per rule it owns:
 * 指名, 指名なし's assignment, the buffer, working time, the customer's limits and the approval rule. Each test has a
 * salon of its own; the route's suites (booking-rules, booking-nomination, booking-limits, booking-availability,
 * no-show-rules, booking-race) cover the same rules through POST /api/reservations/.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import {
  customers,
  openingSlots,
  reservations,
  salonHolidays,
  salons,
  scheduleExceptions,
  services,
  shiftTemplates,
  staffUsers,
} from '../../server/db/schema';
import { bookReservation, type CustomerBookingInput } from '../../server/features/reservations/book.repository';
import { slotGrid } from '../../src/shared/slots';
import { localDateTimeToInstant } from '../../src/shared/time';
import { createTestDatabase } from '../helpers/database';
import { createCustomer, createStaff } from '../helpers/factories';

const TZ = 'Asia/Tokyo';
/** A Monday (weekday 1), four days after the clock's "now". */
const DAY = '2030-01-14';
const NOW = localDateTimeToInstant('2030-01-10T09:00:00', TZ);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let serial = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database?.drop());

/** A salon of its own with a 30-minute service (5,000 yen) and `staffCount` bookable staff. */
async function salonWith(staffCount: number, settings: Partial<typeof salons.$inferInsert> = {}) {
  const [salon] = await db
    .insert(salons)
    .values({ name: 'テストサロン', ...settings })
    .returning();
  const [service] = await db
    .insert(services)
    .values({ salon_id: salon!.id, name: 'ワンカラー', duration_minutes: 30, price: 5000 })
    .returning();
  const staff = [];
  for (let i = 0; i < staffCount; i += 1) {
    serial += 1;
    staff.push(await createStaff(db, salon!.id, { username: `fn-staff-${serial}` }));
  }
  const customer = await createCustomer(db, salon!.id, { email: 'hanako@example.com' });
  return { salon: salon!, service: service!, staff, customer };
}
type World = Awaited<ReturnType<typeof salonWith>>;

/** Opening slots set by hand for one day (an exception: they replace the template, a holiday, a closed weekday). */
async function openDay(w: World, staffId: number, from: string, to: string, date = DAY) {
  await db.insert(scheduleExceptions).values({ staff_id: staffId, salon_id: w.salon.id, exception_date: date });
  const cells = slotGrid(from, to).map((time) => ({
    staff_id: staffId,
    salon_id: w.salon.id,
    slot_date: date,
    start_time: time,
  }));
  if (cells.length > 0) await db.insert(openingSlots).values(cells);
}

/** The function's input for a booking at `time` on `date`, 指名なし, 30 minutes, by the world's customer. */
function request(w: World, time: string, patch: Partial<CustomerBookingInput> = {}, date = DAY): CustomerBookingInput {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const dayFrom = localDateTimeToInstant(`${date}T00:00:00`, TZ);
  return {
    salonId: w.salon.id,
    customerId: w.customer.id,
    staffId: undefined,
    serviceId: w.service.id,
    serviceName: w.service.name,
    menuPrice: 5000,
    options: [],
    servedMinutes: 30,
    start: localDateTimeToInstant(`${date}T${time}:00`, TZ),
    localDate: date,
    localSeconds: hours * 3600 + minutes * 60,
    dayFrom,
    dayTo: new Date(dayFrom.getTime() + 24 * 60 * 60_000),
    now: NOW,
    customer: { name: '山田 花子', furigana: 'ヤマダ ハナコ', email: 'hanako@example.com', phone: '09012345678' },
    emailLimit: undefined,
    counter: undefined,
    idempotencyKey: null,
    ...patch,
  };
}

const book = (input: CustomerBookingInput) => db.transaction((tx) => bookReservation(tx, input));

/** The refusal a call ended with: its SQLSTATE (class BK), code and DETAIL; undefined when it booked. */
async function refusalOf(input: CustomerBookingInput) {
  try {
    await book(input);
    return undefined;
  } catch (error) {
    for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
      const { code, message, detail } = current as { code?: string; message?: string; detail?: string };
      if (code?.startsWith('BK')) return { state: code, code: message, detail: detail ?? null };
    }
    throw error;
  }
}

/** Another customer's active booking with this staff member (named, so that it goes to them). */
async function bookedBySomeoneElse(w: World, staffId: number, time: string) {
  const other = await createCustomer(db, w.salon.id, { name: '別の 客' });
  await book(request(w, time, { staffId, customerId: other.id }));
}

describe('book_reservation(): 指名', () => {
  it('books the named staff member with their 指名料, refuses one who cannot be named, and never falls back', async () => {
    const w = await salonWith(2);
    const [a, b] = w.staff as [World['staff'][0], World['staff'][0]];
    for (const member of [a, b]) await openDay(w, member.id, '10:00', '18:00');
    await db.update(staffUsers).set({ nomination_fee: 550 }).where(eq(staffUsers.id, b.id));

    const booked = await book(request(w, '10:00', { staffId: b.id }));
    expect(booked).toMatchObject({ staff_id: b.id, is_nominated: true, nomination_fee: 550, price: 5550 });
    expect(booked.staff_name).toBe(b.full_name);

    // Named and busy: a 409, although the other staff member is free at that time.
    const other = await createCustomer(db, w.salon.id, { name: '別の 客' });
    expect(await refusalOf(request(w, '10:00', { staffId: b.id, customerId: other.id }))).toMatchObject({
      state: 'BK409',
      code: 'slot_unavailable',
    });
    await db.update(staffUsers).set({ is_bookable: false }).where(eq(staffUsers.id, a.id));
    expect(await refusalOf(request(w, '12:00', { staffId: a.id }))).toMatchObject({
      state: 'BK400',
      code: 'staff_not_bookable',
    });
  });
});

describe('book_reservation(): 指名なし', () => {
  it("gives the customer's own staff member when free, else the fewest bookings that day, ties the lowest id", async () => {
    const w = await salonWith(3);
    const [a, b, c] = w.staff as [World['staff'][0], World['staff'][0], World['staff'][0]];
    for (const member of w.staff) await openDay(w, member.id, '10:00', '18:00');
    await bookedBySomeoneElse(w, a.id, '16:00');
    await bookedBySomeoneElse(w, b.id, '16:00');

    // No staff member of their own: c has the fewest bookings that day; the booking makes c theirs.
    const first = await book(request(w, '10:00'));
    expect(first).toMatchObject({ staff_id: c.id, is_nominated: false, nomination_fee: 0, price: 5000 });
    const [profile] = await db.select().from(customers).where(eq(customers.id, w.customer.id));
    expect(profile).toMatchObject({ assigned_staff_id: c.id, phone_number: '09012345678' });

    // Their own staff member first, although c now has as many bookings as a and b.
    expect(await book(request(w, '11:00'))).toMatchObject({ staff_id: c.id });
    // Their own staff member busy: the fewest that day (a and b have one each, c two): a and b tie, a is lower.
    await bookedBySomeoneElse(w, c.id, '12:00');
    expect(await book(request(w, '12:00'))).toMatchObject({ staff_id: a.id });
  });
});

describe('book_reservation(): the buffer', () => {
  it("holds the served time rounded up plus the salon's buffer, and keeps starts clear of others' held time", async () => {
    const w = await salonWith(1, { buffer_minutes: 15, block_rounding_minutes: 30 });
    const [a] = w.staff as [World['staff'][0]];
    await openDay(w, a.id, '10:00', '18:00');

    const booked = await book(request(w, '10:00', { servedMinutes: 40 }));
    // 40 minutes served, rounded up to 60, plus 15 of buffer.
    expect(booked.end_time.getTime() - booked.start_time.getTime()).toBe(40 * 60_000);
    expect(booked.occupied_until.getTime() - booked.start_time.getTime()).toBe(75 * 60_000);

    const other = await createCustomer(db, w.salon.id, { name: '別の 客' });
    expect(await refusalOf(request(w, '11:00', { customerId: other.id }))).toMatchObject({ code: 'slot_unavailable' });
    expect(await book(request(w, '11:30', { customerId: other.id }))).toMatchObject({ staff_id: a.id });
    // The new booking's own buffer reaches into a later booking too: 30 served + 15 ends after 13:30.
    await bookedBySomeoneElse(w, a.id, '13:30');
    expect(await refusalOf(request(w, '13:00'))).toMatchObject({ code: 'slot_unavailable' });
  });
});

describe('book_reservation(): working time', () => {
  it('reads the day set by hand, else a holiday or closed weekday, else the weekly template, and the grid and notice', async () => {
    const w = await salonWith(1, { slot_minutes: 30 });
    const [a] = w.staff as [World['staff'][0]];
    const monday = 1;
    await db
      .insert(shiftTemplates)
      .values({ staff_id: a.id, salon_id: w.salon.id, weekday: monday, start_time: '10:00', end_time: '12:00' });
    const refused = async (time: string, patch: Partial<CustomerBookingInput> = {}, date = DAY) =>
      (await refusalOf(request(w, time, patch, date)))?.code;

    // The template: the whole served time within it.
    expect(await refused('11:30', { servedMinutes: 60 })).toBe('slot_unavailable');
    expect(await refused('09:30')).toBe('slot_unavailable');
    // The grid and the clock.
    expect(await refusalOf(request(w, '10:15'))).toMatchObject({ state: 'BK400', code: 'off_grid', detail: '30' });
    expect(await refused('10:00', { localSeconds: 10 * 3600 + 30 })).toBe('off_grid');
    expect(await refused('10:00', { now: localDateTimeToInstant(`${DAY}T10:00:00`, TZ) })).toBe('past_start');
    // The minimum notice (60 minutes): 09:30 on the day is too soon for 10:00.
    expect(await refused('10:00', { now: localDateTimeToInstant(`${DAY}T09:30:00`, TZ) })).toBe('slot_unavailable');

    // A holiday closes the template's day; the next Monday, a closed weekday, is closed too.
    await db.insert(salonHolidays).values({ salon_id: w.salon.id, holiday_date: DAY });
    expect(await refused('10:00')).toBe('slot_unavailable');
    await db
      .update(salons)
      .set({ closed_weekdays: [monday] })
      .where(eq(salons.id, w.salon.id));
    expect(await refused('10:00', {}, '2030-01-21')).toBe('slot_unavailable');
    // A day set by hand wins over both: its slots are the working time, and none is a day off.
    await openDay(w, a.id, '14:00', '15:00');
    expect(await refused('10:00')).toBe('slot_unavailable');
    expect(await refused('14:30', { servedMinutes: 60 })).toBe('slot_unavailable');
    expect(await book(request(w, '14:00', { servedMinutes: 60 }))).toMatchObject({ staff_id: a.id });
    await openDay(w, a.id, '10:00', '10:00', '2030-01-21');
    expect(await refused('14:00', {}, '2030-01-21')).toBe('slot_unavailable');
  });
});

describe("book_reservation(): the customer's limits", () => {
  it('counts changes per window, and refuses past the upcoming limit, a new e-mail address over its limit, and an overlap of their own', async () => {
    const w = await salonWith(2, { max_upcoming_per_customer: 2 });
    for (const member of w.staff) await openDay(w, member.id, '10:00', '18:00');
    const counter = { key: `booking-change:fn-${w.customer.id}`, limit: 3, windowSeconds: 600 };

    await book(request(w, '10:00', { counter, emailLimit: 1 }));
    // Their own booking at that time: another staff member would not help.
    expect(await refusalOf(request(w, '10:00', { counter }))).toMatchObject({
      state: 'BK409',
      code: 'customer_overlap',
    });
    // A second address over a limit of one (case and spaces do not make an address new).
    const other = { ...request(w, '11:00').customer, email: 'other@example.com' };
    expect(await refusalOf(request(w, '11:00', { customer: other, emailLimit: 1 }))).toMatchObject({
      state: 'BK400',
      code: 'email_address_limit',
      detail: '1',
    });
    const same = { ...other, email: ' Hanako@Example.com ' };
    await book(request(w, '11:00', { customer: same, emailLimit: 1, counter }));
    expect(await refusalOf(request(w, '12:00'))).toMatchObject({
      state: 'BK409',
      code: 'reservation_limit',
      detail: '2',
    });

    // The counter: the refused attempt's count rolled back with it, so two are counted; a third passes the
    // counter (and is refused by the upcoming limit), a fourth is throttled with the seconds to wait.
    await db.update(salons).set({ max_upcoming_per_customer: 10 }).where(eq(salons.id, w.salon.id));
    expect(await book(request(w, '13:00', { counter }))).toMatchObject({ status: 'pending' });
    const throttled = await refusalOf(request(w, '14:00', { counter }));
    expect(throttled).toMatchObject({ state: 'BK429', code: 'throttled' });
    expect(Number(throttled!.detail)).toBeGreaterThan(0);
    expect(Number(throttled!.detail)).toBeLessThanOrEqual(600);
  });
});

describe('book_reservation(): the approval rule', () => {
  it('is pending unless the salon confirms at once; then pending and flagged from its threshold of incidents', async () => {
    const w = await salonWith(1, { auto_confirm_online_bookings: false, max_upcoming_per_customer: 10 });
    const [a] = w.staff as [World['staff'][0]];
    await openDay(w, a.id, '10:00', '18:00');
    expect(await book(request(w, '10:00'))).toMatchObject({ status: 'pending', needs_approval: false });

    await db
      .update(salons)
      .set({ auto_confirm_online_bookings: true, approval_after_incidents: 2 })
      .where(eq(salons.id, w.salon.id));
    expect(await book(request(w, '11:00'))).toMatchObject({ status: 'confirmed', needs_approval: false });
    // One no-show and one late cancel reach the threshold of two.
    await db
      .update(reservations)
      .set({ status: 'no_show' })
      .where(eq(reservations.start_time, localDateTimeToInstant(`${DAY}T10:00:00`, TZ)));
    expect(await book(request(w, '12:00'))).toMatchObject({ status: 'confirmed' });
    await db
      .update(reservations)
      .set({ status: 'cancelled', cancelled_late: true })
      .where(eq(reservations.start_time, localDateTimeToInstant(`${DAY}T11:00:00`, TZ)));
    expect(await book(request(w, '13:00'))).toMatchObject({ status: 'pending', needs_approval: true });
    // The rule off (no threshold): confirmed whatever the counts.
    await db.update(salons).set({ approval_after_incidents: null }).where(eq(salons.id, w.salon.id));
    expect(await book(request(w, '14:00'))).toMatchObject({ status: 'confirmed', needs_approval: false });
  });
});
