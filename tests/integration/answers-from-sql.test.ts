import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, reservations } from '#server/db/schema';
import type { ApiResult } from '#tests/helpers/app';
import { at, startBookingApp, type BookingWorld } from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

type Json = Record<string, unknown>;
const rowsOf = (result: ApiResult) => {
  expect(result.status).toBe(200);
  return result.body as unknown as Json[];
};
/** Each object's keys in order, nested objects included: the answer's shape, not only its values. */
const keysOf = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(keysOf)
    : value && typeof value === 'object'
      ? Object.entries(value).map(([key, inner]) => [key, keysOf(inner)])
      : null;

/**
 * The day list and the name search are answered as JSON built by the database (server/features/reservations/
 * day-list.repository.ts, server/features/customers/name-search.ts); every other list still presents rows in
 * TypeScript. Both must answer the same fields, values and order for the same rows.
 */
describe(`answers built in SQL match the presenters on ${testEngine}`, () => {
  let w: BookingWorld;
  const DAY = '2030-01-15';

  beforeAll(async () => {
    w = await startBookingApp();
    // The salon's rule holds a customer back from 2 incidents; cancels are late from 3 days before.
    await w.setSalon({
      auto_confirm_online_bookings: true,
      approval_after_incidents: 2,
      cancellation_deadline_days: 3,
    });
    const staff = await w.staff('sql-answers', '山本 彩');
    const gel = await w.service('ジェル ワンカラー', 60, 6600);
    const regular = await w.customer({ name: '中村 葵', furigana: 'ナカムラ アオイ', email: 'aoi@example.com' });
    const absent = await w.customer({ name: '中村 蓮', furigana: 'ナカムラ レン', phoneNumber: '09011112222' });
    const first = await w.insertReservation({
      staffId: staff.id,
      customer: regular,
      service: gel,
      start: at(DAY, '10:00'),
    });
    const second = await w.insertReservation({
      staffId: staff.id,
      customer: absent,
      service: gel,
      start: at(DAY, '13:30'),
    });
    await w.insertReservation({ staffId: staff.id, customer: absent, service: gel, start: at(DAY, '16:00') });
    // Options with a price, 指名, a late cancel and a pending booking held back by the rule.
    await w.db
      .update(reservations)
      .set({
        options: [{ id: 7, name: 'ストーン "10粒"\nまで', price: 550, duration_minutes: 15 }],
        is_nominated: true,
        nomination_fee: 1100,
        status: 'cancelled',
        cancelled_late: true,
        updated_at: new Date('2030-01-10T01:02:03.456Z'),
      })
      .where(eq(reservations.id, first.id));
    await w.db.update(reservations).set({ needs_approval: true }).where(eq(reservations.id, second.id));
    // Two past no-shows: the customer's counts and needs_approval.
    for (const day of ['2029-12-01', '2029-12-08']) {
      await w.insertReservation({
        staffId: staff.id,
        customer: absent,
        service: gel,
        start: at(day, '11:00'),
        status: 'no_show',
      });
    }
    await w.db
      .update(customers)
      .set({ line_user_id: 'U-sql-answers', line_display_name: 'あおい', notes: 'タブ\tと改行\n' })
      .where(eq(customers.id, regular.id));
  });
  afterAll(() => w?.close());

  const staffGet = (path: string) => w.api(path, { token: w.admin.token });

  it('answers the day list as the status-filtered list and the detail present the same reservations', async () => {
    const day = rowsOf(await staffGet(`/api/admin/reservations/?start_date=${DAY}&end_date=${DAY}`));
    expect(day.map((row) => row.start_time)).toEqual([at(DAY, '10:00'), at(DAY, '13:30'), at(DAY, '16:00')]);
    const statuses = 'status=pending&status=confirmed&status=cancelled&status=completed&status=no_show';
    // A status filter is not the day list: its rows are read and presented in TypeScript (present.ts).
    const presented = rowsOf(await staffGet(`/api/admin/reservations/?start_date=${DAY}&end_date=${DAY}&${statuses}`));
    expect(day).toEqual(presented);
    expect(keysOf(day)).toEqual(keysOf(presented));
    for (const row of day) {
      const detail = (await staffGet(`/api/admin/reservations/${String(row.reservation_number)}/`)).body;
      expect(row).toEqual(detail);
      expect(keysOf(row)).toEqual(keysOf(detail));
    }
    expect(day[0]).toMatchObject({
      options: [{ id: 7, name: 'ストーン "10粒"\nまで', price: '550', duration_minutes: 15 }],
      nomination_fee: '1100',
      cancellation_deadline: at('2030-01-12', '10:00'),
      can_cancel: false,
      cancelled_late: true,
      updated_at: '2030-01-10T01:02:03.456Z',
    });
    expect(day[1]).toMatchObject({ needs_approval: true, customer_no_show_count: 2, can_cancel: true });
  });

  it('answers a one staff member’s day list like everyone’s, for their rows only', async () => {
    const staff = await w.staff('sql-answers-other');
    const own = rowsOf(
      await w.api(`/api/admin/reservations/?start_date=${DAY}&end_date=${DAY}`, { token: staff.token }),
    );
    expect(own).toEqual([]);
  });

  it('answers the name search as the filtered search and the detail present the same customers', async () => {
    const found = await staffGet('/api/admin/customers/?name=なかむら');
    const rows = rowsOf(found);
    expect(rows.map((row) => row.name)).toEqual(['中村 葵', '中村 蓮']);
    expect(found.headers.get('x-total-count')).toBe('2');
    // With updated_since the search reads rows and presents them in TypeScript (customers.service.ts).
    const presented = await staffGet('/api/admin/customers/?name=なかむら&updated_since=2000-01-01T00:00:00Z');
    expect(rows).toEqual(rowsOf(presented));
    expect(keysOf(rows)).toEqual(keysOf(rowsOf(presented)));
    expect(presented.headers.get('x-total-count')).toBe('2');
    for (const row of rows) {
      const detail = (await staffGet(`/api/admin/customers/${String(row.id)}/`)).body;
      expect(row).toEqual(detail);
    }
    expect(rows[0]).toMatchObject({ is_line_linked: true, notes: 'タブ\tと改行\n', needs_approval: false });
    expect(rows[1]).toMatchObject({
      no_show_count: 2,
      late_cancel_count: 0,
      needs_approval: true,
      is_line_linked: false,
    });
  });

  it('follows the salon’s rule: no threshold, nobody is held back', async () => {
    await w.setSalon({ approval_after_incidents: null });
    const rows = rowsOf(await staffGet('/api/admin/customers/?name=なかむら'));
    expect(rows.map((row) => row.needs_approval)).toEqual([false, false]);
  });
});
