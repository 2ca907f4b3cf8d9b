import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, notificationsOutbox, reservations } from '../../server/db/schema';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Reservation } from '../../src/shared/schemas/reservations';
import {
  at,
  startBookingApp,
  statusesOf,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const DAY = '2030-01-20';

/** Active reservations of one customer (pending or confirmed). */
async function activeOf(w: BookingWorld, customerId: number) {
  return w.db
    .select()
    .from(reservations)
    .where(and(eq(reservations.customer_id, customerId), sql`${reservations.status} in ('pending', 'confirmed')`));
}

describe(`booking and cancellation rate per customer on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let short: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp({ env: { BOOKING_RATE_LIMIT: '3', BOOKING_RATE_WINDOW_SECONDS: '600' } });
    staff = await w.staff('rate-staff');
    short = await w.service('ワンカラー', 30);
    await w.openSlots(staff.id, DAY, times('10:00', '18:00'));
    await w.setSalon({ max_upcoming_per_customer: 1000 });
  });
  afterAll(() => w?.close());

  const cancel = (customer: CustomerMember, number: string, headers: Record<string, string> = {}) =>
    w.api(`/api/reservations/${number}/cancel/`, { method: 'POST', token: customer.token, headers });

  it('answers the 4th booking or cancellation within the window with 429 and Retry-After, and books nothing', async () => {
    const hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    const first = await w.booked(hanako, short.id, at(DAY, '10:00'));
    await w.booked(hanako, short.id, at(DAY, '11:00'));
    expect((await cancel(hanako, first.reservation_number)).status).toBe(200);

    const key = randomUUID();
    const fourth = await w.api('/api/reservations/', {
      method: 'POST',
      token: hanako.token,
      headers: { 'idempotency-key': key },
      json: {
        salon: w.t.salonId,
        service: short.id,
        start_time: at(DAY, '12:00'),
        customer_name: hanako.name,
        customer_furigana: '',
        customer_email: 'hanako@example.com',
        customer_phone: '',
      },
    });
    expect(fourth.status, fourth.text).toBe(429);
    expect(fourth.body).toEqual({ detail: SERVER_MESSAGES.tooManyBookingChanges, code: 'throttled' });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // "Later", not "never": the refusal is not kept as the answer for this Idempotency-Key.
    expect(await w.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);

    const [second] = await activeOf(w, hanako.id);
    expect((await cancel(hanako, second!.reservation_number)).status).toBe(429);
    expect(await activeOf(w, hanako.id)).toHaveLength(1);

    // The limit is per customer.
    const yui = await w.customer({ name: '高橋 結衣', email: 'yui@example.com' });
    expect((await w.book(yui, short.id, at(DAY, '12:00'))).status).toBe(201);
  });

  it('does not count a repeat answered from the Idempotency-Key store', async () => {
    const aoi = await w.customer({ name: '佐々木 葵', email: 'aoi@example.com' });
    const body = {
      salon: w.t.salonId,
      service: short.id,
      start_time: at(DAY, '14:00'),
      customer_name: aoi.name,
      customer_furigana: '',
      customer_email: 'aoi@example.com',
      customer_phone: '',
    };
    const key = randomUUID();
    for (let repeat = 0; repeat < 4; repeat += 1) {
      const result = await w.api('/api/reservations/', {
        method: 'POST',
        token: aoi.token,
        headers: { 'idempotency-key': key },
        json: body,
      });
      expect(result.status, `repeat ${repeat}`).toBe(201);
    }
    expect((await w.book(aoi, short.id, at(DAY, '15:00'))).status).toBe(201);
    expect((await w.book(aoi, short.id, at(DAY, '16:00'))).status).toBe(201);
    expect((await w.book(aoi, short.id, at(DAY, '17:00'))).status).toBe(429);
  });
});

describe(`e-mail addresses per customer and overlapping bookings on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let short: ServiceRow;
  let gel: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp({ env: { BOOKING_EMAIL_ADDRESS_LIMIT: '3' } });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('limits-a');
    staffB = await w.staff('limits-b');
    short = await w.service('ワンカラー', 30);
    gel = await w.service('ジェルネイル', 90);
    await w.openSlotsDirect(
      staffA.id,
      ['2030-01-20', '2030-01-21', '2030-01-22', '2030-01-23', '2030-01-24', '2030-01-25'],
      times('10:00', '18:00'),
    );
    await w.openSlotsDirect(
      staffB.id,
      ['2030-01-20', '2030-01-21', '2030-01-22', '2030-01-23', '2030-01-24', '2030-01-25'],
      times('10:00', '18:00'),
    );
    await w.setSalon({ max_upcoming_per_customer: 1000 });
  });
  afterAll(() => w?.close());

  it('refuses a booking with a 4th distinct e-mail address in 24 hours (400 on the field), and mails nobody', async () => {
    const mika = await w.customer({ name: '中村 美香', email: 'mika@example.com' });
    const book = (time: string, email: string) =>
      w.book(mika, short.id, at('2030-01-20', time), { customer_email: email });
    expect((await book('10:00', 'mika@example.com')).status).toBe(201);
    const second = await book('11:00', 'victim1@example.net');
    expect(second.status).toBe(201);
    expect((await book('12:00', 'victim2@example.net')).status).toBe(201);
    // A cancelled booking still mailed its address: it stays counted.
    expect(
      (
        await w.api(`/api/reservations/${String(second.body.reservation_number)}/cancel/`, {
          method: 'POST',
          token: mika.token,
        })
      ).status,
    ).toBe(200);

    const fourth = await book('13:00', 'victim3@example.net');
    const message = SERVER_MESSAGES.emailAddressLimit(3);
    expect(fourth.status, fourth.text).toBe(400);
    expect(fourth.body).toEqual({
      detail: message,
      code: 'email_address_limit',
      fields: { customer_email: [message] },
    });
    const mailed = await w.db
      .select()
      .from(notificationsOutbox)
      .where(eq(notificationsOutbox.recipient, 'victim3@example.net'));
    expect(mailed).toEqual([]);

    // The addresses already used still work, in any letter case.
    expect((await book('14:00', 'Victim1@Example.net')).status).toBe(201);
    expect((await book('15:00', 'mika@example.com')).status).toBe(201);
    // Another customer has their own three.
    const other = await w.customer({ name: '小林 奈々', email: 'nana@example.com' });
    expect(
      (await w.book(other, short.id, at('2030-01-20', '16:00'), { customer_email: 'victim3@example.net' })).status,
    ).toBe(201);
  });

  it('books a double submit (two Idempotency-Keys, same start) once, with a 409 for the other, every time', async () => {
    const days = ['2030-01-21', '2030-01-22', '2030-01-23', '2030-01-24'];
    for (const day of days) {
      const customer = await w.customer({ name: `二重 ${day}`, email: `double-${day}@example.com` });
      // Both staff members are free, so only the rule on the customer's own bookings can refuse the second.
      const results = await Promise.all(
        [0, 1].map(() =>
          w.t.api('/api/reservations/', {
            method: 'POST',
            token: customer.token,
            headers: { 'idempotency-key': randomUUID() },
            json: {
              salon: w.t.salonId,
              service: gel.id,
              start_time: at(day, '10:00'),
              customer_name: customer.name,
              customer_furigana: '',
              customer_email: customer.email,
              customer_phone: '',
            },
          }),
        ),
      );
      expect(statusesOf(results), day).toEqual([201, 409]);
      const loser = results.find((result) => result.status === 409)!;
      expect(loser.body).toEqual({ detail: SERVER_MESSAGES.customerTimeTaken, code: 'customer_overlap' });
      expect(await activeOf(w, customer.id), day).toHaveLength(1);
    }
  });

  it('refuses an overlapping start too, but not the next free time or a booking staff make', async () => {
    const customer = await w.customer({ name: '重複 確認', email: 'overlap@example.com' });
    const first = (await w.booked(customer, gel.id, at('2030-01-25', '10:00'))) as Reservation;
    const overlapping = await w.book(customer, short.id, at('2030-01-25', '11:00'));
    expect(overlapping.status).toBe(409);
    expect(overlapping.body).toEqual({ detail: SERVER_MESSAGES.customerTimeTaken, code: 'customer_overlap' });
    // Back to back is fine: the 90 minutes end at 11:30.
    expect((await w.book(customer, short.id, at('2030-01-25', '11:30'))).status).toBe(201);
    // Staff may book one customer record twice at once on purpose (a parent and a child under one account).
    const byStaff = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: w.admin.token,
      json: {
        service_id: short.id,
        customer_id: customer.id,
        start_time: at('2030-01-25', '10:00'),
        staff_id: first.staff_id === staffA.id ? staffB.id : staffA.id,
      },
    });
    expect(byStaff.status, byStaff.text).toBe(201);
  });
});
