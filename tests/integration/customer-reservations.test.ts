import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsOutbox, reservations } from '../../server/db/schema';
import type { CustomerReservationList, Reservation } from '../../src/shared/schemas/reservations';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const CODE_PATTERN = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

/**
 * The customer's own list (GET /api/reservations/) and the short reservation code: only the caller's bookings,
 * upcoming soonest first and past latest first; a code on every reservation, unique per salon, that staff find
 * within their own scope.
 */
describe(`customer reservation list and reservation codes on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let gel: ServiceRow;
  let later: Reservation;
  let sooner: Reservation;
  let yuis: Reservation;

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('list-a', '佐藤 A');
    staffB = await w.staff('list-b', '鈴木 B');
    [hanako, yui] = await Promise.all([
      w.customer({ name: '山田 花子', email: 'hanako@example.com' }),
      w.customer({ name: '高橋 結衣', email: 'yui@example.com' }),
    ]);
    gel = await w.service('ジェルネイル', 60);
    await w.setSalon({ max_upcoming_per_customer: 10 });
    await w.openSlots(staffA.id, '2030-01-15', times('09:00', '18:00'));
    await w.openSlots(staffA.id, '2030-01-20', times('09:00', '18:00'));
    // Booked out of order: the list sorts them.
    later = await w.booked(hanako, gel.id, at('2030-01-20', '11:00'));
    sooner = await w.booked(hanako, gel.id, at('2030-01-15', '10:00'));
    yuis = await w.booked(yui, gel.id, at('2030-01-15', '14:00'));
  });
  afterAll(() => w?.close());

  it('lists only the caller’s bookings: upcoming soonest first, past latest first', async () => {
    const older = await w.insertReservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: at('2029-12-01', '10:00'),
      status: 'completed',
    });
    const newer = await w.insertReservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: at('2030-01-05', '10:00'),
      status: 'completed',
    });
    const cancelled = (
      await w.api(`/api/reservations/${later.reservation_number}/cancel/`, { method: 'POST', token: hanako.token })
    ).body as Reservation;
    expect(cancelled.status).toBe('cancelled');

    const result = await w.api('/api/reservations/', { token: hanako.token });
    expect(result.status).toBe(200);
    const list = result.body as unknown as CustomerReservationList;
    expect(list.upcoming.map((r) => r.reservation_number)).toEqual([sooner.reservation_number]);
    // Cancelled ahead, then the completed ones, latest start first.
    expect(list.past.map((r) => r.reservation_number)).toEqual([
      later.reservation_number,
      newer.reservation_number,
      older.reservation_number,
    ]);
    const everyNumber = [...list.upcoming, ...list.past].map((r) => r.reservation_number);
    expect(everyNumber).not.toContain(yuis.reservation_number);
    expect(list.upcoming[0]).toMatchObject({
      reservation_code: sooner.reservation_code,
      status: 'pending',
      can_cancel: true,
    });

    const yuiList = (await w.api('/api/reservations/', { token: yui.token }))
      .body as unknown as CustomerReservationList;
    expect(yuiList.upcoming.map((r) => r.reservation_number)).toEqual([yuis.reservation_number]);
    expect(yuiList.past).toEqual([]);
  });

  it('refuses staff and anonymous callers', async () => {
    expect((await w.api('/api/reservations/', { token: staffA.token })).status).toBe(401);
    expect((await w.api('/api/reservations/', { token: w.admin.token })).status).toBe(401);
    expect((await w.api('/api/reservations/')).status).toBe(401);
  });

  it('gives every reservation a short code from the unambiguous alphabet, unique in the salon', async () => {
    const rows = await w.db
      .select({ code: reservations.reservation_code })
      .from(reservations)
      .where(eq(reservations.salon_id, w.t.salonId));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const { code } of rows) expect(code).toMatch(CODE_PATTERN);
    expect(new Set(rows.map((row) => row.code)).size).toBe(rows.length);
    expect(sooner.reservation_code).toMatch(CODE_PATTERN);
    const detail = (await w.api(`/api/reservations/${sooner.reservation_number}/`, { token: hanako.token }))
      .body as Reservation;
    expect(detail.reservation_code).toBe(sooner.reservation_code);

    // The unique index is the final word: a second row with the same code in the salon is refused.
    const duplicate = w.db
      .update(reservations)
      .set({ reservation_code: sooner.reservation_code })
      .where(eq(reservations.reservation_number, yuis.reservation_number));
    await expect(duplicate).rejects.toThrow();
  });

  it('lets staff find a reservation by its code within their scope only', async () => {
    const search = (token: string, code: string) =>
      w.api(`/api/admin/reservations/?code=${encodeURIComponent(code)}`, { token });
    const numbers = (result: Awaited<ReturnType<typeof search>>) =>
      (result.body as unknown as Reservation[]).map((r) => r.reservation_number);

    // Typed as read out: lower case, with a hyphen and a space.
    const spoken = `${sooner.reservation_code.slice(0, 4).toLowerCase()}- ${sooner.reservation_code.slice(4)}`;
    const own = await search(staffA.token, spoken);
    expect(own.status).toBe(200);
    expect(numbers(own)).toEqual([sooner.reservation_number]);
    expect(numbers(await search(w.admin.token, sooner.reservation_code))).toEqual([sooner.reservation_number]);

    // Staff B serves none of these: the code finds nothing for them, even with another user_id asked for.
    const other = await w.api(`/api/admin/reservations/?code=${sooner.reservation_code}&user_id=${staffA.id}`, {
      token: staffB.token,
    });
    expect(other.status).toBe(200);
    expect(numbers(other)).toEqual([]);

    const invalid = await search(staffA.token, 'O0I1L');
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body)).toContain('予約コードは8文字の英数字で入力してください。');
  });
});

/**
 * The link in the customer's e-mail: a front-desk customer (no LINE account linked to the booking) opens their
 * reservation from it without signing in; the link opens that reservation only, and not once it has expired or
 * been altered.
 */
describe(`the e-mail link of a front-desk booking on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let gel: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp({ env: { PUBLIC_URL: 'https://salon.example/' } });
    staffA = await w.staff('link-a', '佐藤 A');
    gel = await w.service('ジェルネイル', 60);
  });
  afterAll(() => w?.close());

  async function frontDeskBooking(email: string, start: string) {
    const created = await w.api('/api/admin/reservations/create-with-new-customer/', {
      method: 'POST',
      token: staffA.token,
      json: { name: '窓口 花子', email, phone_number: '', service_id: gel.id, start_time: start },
    });
    expect(created.status).toBe(201);
    const reservation = created.body as unknown as Reservation;
    const [mail] = await w.db
      .select()
      .from(notificationsOutbox)
      .where(and(eq(notificationsOutbox.recipient, email), eq(notificationsOutbox.channel, 'email')));
    const text = (mail!.payload as { text: string }).text;
    const link = /https:\/\/salon\.example\/reservations\/\S+/.exec(text)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link!);
    return { reservation, text, url, secret: url.searchParams.get('t')! };
  }

  const open = (number: string, secret: string) =>
    w.api(`/api/reservations/${number}/by-link/?t=${encodeURIComponent(secret)}`);

  it('opens the booking from the e-mail’s link without signing in, read-only, and shows its code in the mail', async () => {
    const a = await frontDeskBooking('walkin-a@example.com', at('2030-02-01', '10:00'));
    expect(a.url.pathname).toBe(`/reservations/${a.reservation.reservation_number}`);
    expect(a.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(a.text).toContain(`予約コード: ${a.reservation.reservation_code}`);

    const opened = await open(a.reservation.reservation_number, a.secret);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      reservation_number: a.reservation.reservation_number,
      reservation_code: a.reservation.reservation_code,
      customer_name: '窓口 花子',
      can_cancel: false,
    });
    expect(JSON.stringify(opened.body)).not.toContain(a.secret);
  });

  it('opens no other booking: another booking’s secret, an altered or a missing one are refused alike', async () => {
    const a = await frontDeskBooking('walkin-b@example.com', at('2030-02-02', '10:00'));
    const b = await frontDeskBooking('walkin-c@example.com', at('2030-02-03', '10:00'));
    const altered = `${a.secret.slice(0, -1)}${a.secret.endsWith('0') ? '1' : '0'}`;
    for (const [number, secret] of [
      [b.reservation.reservation_number, a.secret],
      [a.reservation.reservation_number, b.secret],
      [a.reservation.reservation_number, altered],
      [a.reservation.reservation_number, a.secret.toUpperCase()],
      [a.reservation.reservation_number, ''],
    ] as const) {
      const refused = await open(number, secret);
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({
        detail:
          'このリンクは無効か、有効期限が切れています。LINEでログインしてご確認いただくか、サロンへお問い合わせください。',
      });
    }
    // Nor does the secret stand in for a session on the signed-in detail endpoint.
    expect((await w.api(`/api/reservations/${a.reservation.reservation_number}/?t=${a.secret}`)).status).toBe(401);
  });

  it('expires 30 days after the start', async () => {
    const customer = await w.customer({ name: '過去 花子', email: 'past@example.com' });
    const secretOf = async (number: string) =>
      (
        await w.db
          .select({ secret: reservations.link_secret })
          .from(reservations)
          .where(eq(reservations.reservation_number, number))
      )[0]!.secret;
    // Today is 2030-01-10 09:00: 29 days after 2029-12-12 10:00, 31 days after 2029-12-10 08:00.
    const recent = await w.insertReservation({
      staffId: staffA.id,
      customer,
      service: gel,
      start: at('2029-12-12', '10:00'),
      status: 'completed',
    });
    const old = await w.insertReservation({
      staffId: staffA.id,
      customer,
      service: gel,
      start: at('2029-12-10', '08:00'),
      status: 'completed',
    });
    expect((await open(recent.reservation_number, await secretOf(recent.reservation_number))).status).toBe(200);
    expect((await open(old.reservation_number, await secretOf(old.reservation_number))).status).toBe(404);
  });
});
