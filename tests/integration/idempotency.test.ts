import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, idempotencyKeys, notificationsOutbox, reservations, services } from '../../server/db/schema';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USERNAME, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer, createStaff } from '../helpers/factories';
import { bookingMessagesQueued } from '#tests/helpers/booking-events';

describe(`Idempotency-Key on ${testEngine}`, () => {
  let t: TestApp;
  let adminToken: string;
  let otherStaffToken: string;
  let customerId: number;
  let serviceId: number;
  let adminId: number;
  let nextHour = 10;

  /** A pending reservation of the superuser, on its own hour so that none overlap. */
  async function pendingReservation(): Promise<string> {
    const start = new Date(`2031-03-01T${String(nextHour++).padStart(2, '0')}:00:00+09:00`);
    const [row] = await t.database.db
      .insert(reservations)
      .values({
        salon_id: t.salonId,
        staff_id: adminId,
        customer_id: customerId,
        service_id: serviceId,
        start_time: start,
        end_time: new Date(start.getTime() + 30 * 60_000),
        status: 'pending',
        service_name: 'オフ',
        price: 2200,
        duration_minutes: 30,
        customer_name: '山田 花子',
        created_by: 'customer',
      })
      .returning();
    return row!.reservation_number;
  }

  beforeAll(async () => {
    t = await startTestApp();
    adminToken = (await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).access;
    const other = await createStaff(t.database.db, t.salonId, { username: 'other', password: 'other-password-1' });
    otherStaffToken = (await t.tokensFor('other', 'other-password-1')).access;
    customerId = (await createCustomer(t.database.db, t.salonId)).id;
    const [service] = await t.database.db
      .insert(services)
      .values({ salon_id: t.salonId, name: 'オフ', price: 2200, duration_minutes: 30 })
      .returning();
    serviceId = service!.id;
    adminId = (await t.api('/api/admin/me/', { token: adminToken })).body.id as number;
    expect(other.id).not.toBe(adminId);
  });
  afterAll(() => t?.close());

  it('the same confirm sent 5 times with one key has one effect and 5 identical responses', async () => {
    const number = await pendingReservation();
    const send = () =>
      t.api(`/api/admin/reservations/${number}/confirm/`, {
        method: 'POST',
        token: adminToken,
        headers: { 'idempotency-key': 'confirm-key-1' },
      });
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await send());
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results[0]!.body.status).toBe('confirmed');
    expect(results.slice(1).every((r) => r.headers.get('idempotent-replayed') === 'true')).toBe(true);
    // Without the key, a second confirm is a stale transition: proof that the repeats above were replays.
    const again = await t.api(`/api/admin/reservations/${number}/confirm/`, { method: 'POST', token: adminToken });
    expect(again.status).toBe(409);
    const [record] = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, 'confirm-key-1')));
    expect(record).toMatchObject({ state: 'done', response_status: 200, caller: `staff:${adminId}` });
  });

  it('the same key with a different body is 422, and nothing happens', async () => {
    const first = await t.api('/api/admin/available-slots/', {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'slots-key' },
      json: { date: '2031-04-01', times: ['10:00'] },
    });
    expect(first.status).toBe(200);
    const second = await t.api('/api/admin/available-slots/', {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'slots-key' },
      json: { date: '2031-04-01', times: ['10:00', '10:30'] },
    });
    expect(second.status).toBe(422);
    expect(second.body.code).toBe('idempotency_key_reused');
    const slots = await t.api('/api/admin/available-slots/?date=2031-04-01', { token: adminToken });
    expect(
      (slots.body as unknown as Array<{ time: string; is_available: boolean }>)
        .filter((s) => s.is_available)
        .map((s) => s.time),
    ).toEqual(['10:00']);
  });

  it('a repeat while the first is in flight is 409; an abandoned one is taken over', async () => {
    const number = await pendingReservation();
    const path = `/api/admin/reservations/${number}/confirm/`;
    const first = await t.api(path, {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'inflight-key' },
    });
    expect(first.status).toBe(200);
    // Put the record back in flight, as if the first request were still running.
    const where = and(eq(idempotencyKeys.caller, `staff:${adminId}`), eq(idempotencyKeys.key, 'inflight-key'));
    await t.database.db.update(idempotencyKeys).set({ state: 'in_flight', created_at: new Date() }).where(where);
    const repeat = await t.api(path, {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'inflight-key' },
    });
    expect(repeat.status).toBe(409);
    expect(repeat.body.code).toBe('idempotency_in_flight');
    // Abandoned (the process died mid-request): the next repeat runs again; the transition itself is a CAS.
    await t.database.db
      .update(idempotencyKeys)
      .set({ created_at: new Date(Date.now() - 5 * 60_000) })
      .where(where);
    const takeover = await t.api(path, {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'inflight-key' },
    });
    expect(takeover.status).toBe(409);
    expect(takeover.body.code).toBe('stale_status');
  });

  describe('a repeat whose first run committed but whose answer was never stored (the process died in between)', () => {
    /** What a crash between the commit and recording the answer leaves: the key still in flight, long ago. */
    async function forgetAnswer(key: string) {
      await t.database.db
        .update(idempotencyKeys)
        .set({
          state: 'in_flight',
          response_status: null,
          response_body: null,
          created_at: new Date(Date.now() - 120_000),
        })
        .where(eq(idempotencyKeys.key, key));
    }
    const count = async (table: typeof reservations | typeof customers | typeof notificationsOutbox) =>
      (await t.database.db.select().from(table)).length;

    it('a customer booking is answered with the reservation it made, not booked again', async () => {
      await t.api('/api/admin/available-slots/', {
        method: 'POST',
        token: adminToken,
        json: { date: '2031-04-01', times: ['10:00', '10:30', '11:00', '11:30'] },
      });
      const customer = await createCustomer(t.database.db, t.salonId, {
        name: '再送 花子',
        email: 'resend@example.com',
      });
      const { access } = await t.auth.issueTokenPair('customer', customer.id);
      const book = () =>
        t.api('/api/reservations/', {
          method: 'POST',
          token: access,
          headers: { 'idempotency-key': 'booking-crash-1' },
          json: {
            salon: t.salonId,
            service: serviceId,
            start_time: '2031-04-01T10:00:00',
            customer_name: '再送 花子',
            customer_furigana: 'サイソウ ハナコ',
            customer_email: 'resend@example.com',
            customer_phone: '',
          },
        });
      const first = await book();
      expect(first.status).toBe(201);
      await forgetAnswer('booking-crash-1');
      await bookingMessagesQueued(t);
      const [reservationsBefore, outboxBefore] = [await count(reservations), await count(notificationsOutbox)];

      const repeat = await book();
      expect(repeat.status).toBe(201);
      expect(repeat.body.reservation_number).toBe(first.body.reservation_number);
      expect(repeat.headers.get('idempotent-replayed')).toBeNull();
      expect(await count(reservations)).toBe(reservationsBefore);
      expect(await count(notificationsOutbox)).toBe(outboxBefore);
    });

    it('a walk-in (new customer and reservation) is answered with what it made, no second customer', async () => {
      const send = () =>
        t.api('/api/admin/reservations/create-with-new-customer/', {
          method: 'POST',
          token: adminToken,
          headers: { 'idempotency-key': 'walk-in-crash-1' },
          json: {
            name: '飛込 太郎',
            phone_number: '',
            email: '',
            service_id: serviceId,
            start_time: '2031-04-02T15:00:00',
          },
        });
      const first = await send();
      expect(first.status).toBe(201);
      await forgetAnswer('walk-in-crash-1');
      const [reservationsBefore, customersBefore] = [await count(reservations), await count(customers)];

      const repeat = await send();
      expect(repeat.status).toBe(201);
      expect(repeat.body.reservation_number).toBe(first.body.reservation_number);
      expect(await count(reservations)).toBe(reservationsBefore);
      expect(await count(customers)).toBe(customersBefore);
    });
  });

  it('an answer that is not JSON (a dev page) is not replayed without its type: the repeat runs again', async () => {
    const send = () =>
      t.api('/dev/line/send', { method: 'POST', json: {}, headers: { 'idempotency-key': 'dev-page-key' } });
    const [first, repeat] = [await send(), await send()];
    for (const answer of [first, repeat]) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.text).toContain('メッセージを入力してください');
    }
  });

  it('keys belong to their caller', async () => {
    const number = await pendingReservation();
    const asAdmin = await t.api(`/api/admin/reservations/${number}/confirm/`, {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(asAdmin.status).toBe(200);
    // The other staff member's identical key is their own: it runs (and is refused by scope), not replayed.
    const asOther = await t.api(`/api/admin/reservations/${number}/confirm/`, {
      method: 'POST',
      token: otherStaffToken,
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(asOther.status).toBe(404);
    expect(asOther.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key', async () => {
    const number = await pendingReservation();
    const result = await t.api(`/api/admin/reservations/${number}/confirm/`, {
      method: 'POST',
      token: adminToken,
      headers: { 'idempotency-key': 'x'.repeat(300) },
    });
    expect(result.status).toBe(400);
  });

  it('refuses a key on an upload (a multipart body it cannot compare) and stores nothing', async () => {
    const linked = await createCustomer(t.database.db, t.salonId, { lineUserId: 'U-idempotency-upload' });
    const form = new FormData();
    form.set('text', 'こんにちは');
    const result = await t.api(`/api/admin/customers/${linked.id}/send-message/`, {
      method: 'POST',
      token: adminToken,
      form,
      headers: { 'idempotency-key': 'upload-key' },
    });
    expect(result.status).toBe(400);
    expect(result.body.detail).toBe(SERVER_MESSAGES.idempotencyNotForUploads);
    const stored = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'upload-key'));
    expect(stored).toEqual([]);
  });
});
