import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, linkTokens, notificationsOutbox, reservations } from '../../server/db/schema';
import type { AdminCustomer } from '../../src/shared/schemas/customers';
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
import { bookingMessagesQueued } from '#tests/helpers/booking-events';

/**
 * Front-desk bookings with a typed-in customer (create-with-new-customer): the phone or e-mail staff type reuses
 * only a customer the caller may already see and that is not linked to LINE. Anything else gets a new customer:
 * typing someone's number reveals nothing and brings no one into the caller's scope, and a LINE customer who typed
 * someone else's number into their own booking does not receive that person's bookings.
 */
describe(`walk-in contact lookup and staff scope on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let short: ServiceRow;
  let hour = 9;

  beforeAll(async () => {
    w = await startBookingApp({ env: { PUBLIC_URL: 'https://salon.example/' } });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('walkin-a', '佐藤 A');
    staffB = await w.staff('walkin-b', '鈴木 B');
    short = await w.service('ワンカラー', 30);
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    await w.openSlots(staffA.id, '2030-03-01', times('09:00', '21:00'));
  });
  afterAll(() => w?.close());

  /** A fresh start on 2030-03-04 or later for every booking (staff may book outside opening slots). */
  const nextStart = () => {
    hour += 1;
    const day = 4 + Math.floor(hour / 10);
    return at(`2030-03-${String(day).padStart(2, '0')}`, `${String(9 + (hour % 10)).padStart(2, '0')}:00`);
  };
  type Typed = { name: string; phone_number: string; email: string };
  const walkIn = (token: string, body: Record<string, unknown>) =>
    w.api('/api/admin/reservations/create-with-new-customer/', {
      method: 'POST',
      token,
      json: { service_id: short.id, start_time: nextStart(), ...body },
    });
  const customerRow = async (id: number) => (await w.db.select().from(customers).where(eq(customers.id, id)))[0]!;
  const reservationsOf = (customerId: number) =>
    w.db.select().from(reservations).where(eq(reservations.customer_id, customerId));

  describe('an ordinary staff member typing a contact of a customer outside their scope', () => {
    let stranger: CustomerMember;

    beforeAll(async () => {
      // Staff B's customer, never booked with A.
      stranger = await w.customer({
        name: '秘密 花子',
        furigana: 'ヒミツ ハナコ',
        email: 'Secret.Hanako@Example.com',
        phoneNumber: '09055556666',
        assignedStaffId: staffB.id,
      });
    });

    it('learns nothing: the answer is made of what they typed, on a new customer, as for an unknown contact', async () => {
      /** What may differ between two bookings: their ids, their times and the typed contact. */
      const comparable = (body: Record<string, unknown>) => {
        const {
          id,
          reservation_number,
          reservation_code,
          customer_id,
          customer_phone,
          customer_email,
          start_time,
          end_time,
          cancellation_deadline,
          updated_at,
          ...rest
        } = body;
        return rest;
      };
      const cases: Array<[Typed, Typed]> = [
        [
          { name: '来店 太郎', phone_number: '09055556666', email: '' },
          { name: '来店 太郎', phone_number: '09000000001', email: '' },
        ],
        [
          { name: '来店 次郎', phone_number: '', email: 'secret.hanako@example.com' },
          { name: '来店 次郎', phone_number: '', email: 'nobody@example.com' },
        ],
      ];
      for (const [typed, unknown] of cases) {
        const result = await walkIn(staffA.token, typed);
        expect(result.status, result.text).toBe(201);
        expect(result.body).toMatchObject({
          status: 'confirmed',
          staff_id: staffA.id,
          customer_name: typed.name,
          customer_furigana: '',
          customer_email: typed.email,
          customer_phone: typed.phone_number,
        });
        expect(result.body.customer_id).not.toBe(stranger.id);
        // Nothing of the stored record appears anywhere in the answer.
        for (const secret of ['秘密', 'ヒミツ', 'Secret.Hanako@Example.com']) expect(result.text).not.toContain(secret);
        // The same booking with a contact nobody has answers alike.
        const control = await walkIn(staffA.token, unknown);
        expect(control.status).toBe(201);
        expect(Object.keys(result.body).sort()).toEqual(Object.keys(control.body).sort());
        expect(comparable(result.body)).toEqual(comparable(control.body));
        expect(await customerRow(result.body.customer_id as number)).toMatchObject({
          name: typed.name,
          email: typed.email,
          phone_number: typed.phone_number,
          line_user_id: null,
          assigned_staff_id: staffA.id,
        });
      }
    });

    it('does not bring that customer into their scope: 404, not listed, no LINE link', async () => {
      await walkIn(staffA.token, { name: '来店 四郎', phone_number: '09055556666' });
      expect(await reservationsOf(stranger.id)).toEqual([]);

      const read = await w.api(`/api/admin/customers/${stranger.id}/`, { token: staffA.token });
      expect(read.status).toBe(404);
      const history = await w.api(`/api/admin/customers/${stranger.id}/reservations/`, { token: staffA.token });
      expect(history.status).toBe(404);
      for (const query of ['', '?phone_number=09055556666', '?email=secret', '?name=秘密']) {
        const list = await w.api(`/api/admin/customers/${query}`, { token: staffA.token });
        expect(list.status).toBe(200);
        expect(
          (list.body as unknown as AdminCustomer[]).map((row) => row.id),
          query,
        ).not.toContain(stranger.id);
      }
      const link = await w.api(`/api/admin/customers/${stranger.id}/generate-line-link/`, {
        method: 'POST',
        token: staffA.token,
      });
      // Only the superuser makes a LINE link (docs/architecture.md#roles-and-scope): refused before any lookup.
      expect(link.status).toBe(403);
      expect(await w.db.select().from(linkTokens).where(eq(linkTokens.customer_id, stranger.id))).toEqual([]);
      // The stored record is untouched.
      expect(await customerRow(stranger.id)).toMatchObject({ name: '秘密 花子', assigned_staff_id: staffB.id });
    });

    it("is still reused by the customer's own staff member and by the superuser, never renamed", async () => {
      const own = await walkIn(staffB.token, { name: '別の名前', phone_number: '09055556666' });
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ customer_id: stranger.id, customer_name: '秘密 花子', staff_id: staffB.id });
      const admin = await walkIn(w.admin.token, {
        name: '別の名前',
        email: 'SECRET.hanako@example.com',
        staff_id: staffB.id,
      });
      expect(admin.status).toBe(201);
      expect(admin.body).toMatchObject({ customer_id: stranger.id, customer_name: '秘密 花子', staff_id: staffB.id });
      expect(await customerRow(stranger.id)).toMatchObject({ name: '秘密 花子', email: 'Secret.Hanako@Example.com' });
    });
  });

  it('a LINE link for a customer is made by the superuser only, not by the staff member who books or looks after them', async () => {
    // B's customer, booked with A by the superuser: A sees them but does not look after them.
    const booked = await w.customer({ name: '共有 さん', phoneNumber: '09099990000', assignedStaffId: staffB.id });
    const made = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: w.admin.token,
      json: { service_id: short.id, customer_id: booked.id, start_time: nextStart(), staff_id: staffA.id },
    });
    expect(made.status).toBe(201);
    expect((await w.api(`/api/admin/customers/${booked.id}/`, { token: staffA.token })).status).toBe(200);

    const generate = (token: string) =>
      w.api(`/api/admin/customers/${booked.id}/generate-line-link/`, { method: 'POST', token });
    const refused = await generate(staffA.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('permission_denied');
    expect(await w.db.select().from(linkTokens).where(eq(linkTokens.customer_id, booked.id))).toEqual([]);
    // Not by the staff member who looks after them either: a link binds whoever opens it to the customer.
    expect((await generate(staffB.token)).status).toBe(403);
    expect((await generate(w.admin.token)).status).toBe(201);
  });

  describe('a LINE customer who planted a phone number and an e-mail in their own booking', () => {
    const VICTIM_PHONE = '08077778888';
    const PLANTER_LINE = 'U' + 'c'.repeat(32);
    const SECOND_LINE = 'U' + 'd'.repeat(32);
    let planter: CustomerMember;
    let second: CustomerMember;

    beforeAll(async () => {
      planter = await w.customer({ name: '仕込み 次郎', email: 'planter@example.com', lineUserId: PLANTER_LINE });
      // Booked with A (A then looks after them): their profile now carries the victim's phone number.
      const own = await w.book(planter, short.id, at('2030-03-01', '10:00'), {
        customer_phone: VICTIM_PHONE,
        customer_email: 'planter@example.com',
      });
      expect(own.status, own.text).toBe(201);
      expect(await customerRow(planter.id)).toMatchObject({ phone_number: VICTIM_PHONE, assigned_staff_id: staffA.id });
      // A second planter: another LINE customer whose profile carries the victim's e-mail.
      second = await w.customer({ name: '仕込み 三郎', lineUserId: SECOND_LINE });
      const planted = await w.book(second, short.id, at('2030-03-01', '11:00'), {
        customer_email: 'Victim@Example.com',
      });
      expect(planted.status, planted.text).toBe(201);
    });

    const outboxFor = (reservationId: number) =>
      w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.reservation_id, reservationId));

    it('captures no walk-in booking, by any staff member, and receives nothing for it', async () => {
      const toPlanters = async () =>
        (
          await w.db
            .select({ id: notificationsOutbox.id })
            .from(notificationsOutbox)
            .where(inArray(notificationsOutbox.recipient, [PLANTER_LINE, SECOND_LINE, 'planter@example.com']))
        ).length;
      await bookingMessagesQueued(w.t);
      const before = await toPlanters();
      expect(before).toBeGreaterThan(0);
      let victim: number | undefined;
      for (const [token, typed] of [
        [staffA.token, { name: '本人 花子', phone_number: VICTIM_PHONE, email: 'victim@example.com' }],
        [staffA.token, { name: '本人 花子', phone_number: '', email: 'Victim@Example.com' }],
        [w.admin.token, { name: '本人 花子', phone_number: VICTIM_PHONE, email: '' }],
        [w.admin.token, { name: '本人 花子', phone_number: '', email: 'VICTIM@example.com' }],
      ] as const) {
        const result = await walkIn(token, typed);
        expect(result.status, result.text).toBe(201);
        // The first creates the real person's record; the later ones find that one (staff wrote its contacts).
        victim ??= result.body.customer_id as number;
        expect(result.body).toMatchObject({
          customer_id: victim,
          customer_name: '本人 花子',
          customer_email: 'victim@example.com',
        });
        expect(await customerRow(victim)).toMatchObject({
          name: '本人 花子',
          phone_number: VICTIM_PHONE,
          line_user_id: null,
        });

        // The booking's messages go to the typed e-mail only: no LINE push and no e-mail to a planter.
        const queued = await outboxFor(result.body.id as number);
        expect(queued.filter((row) => row.channel === 'line' && row.kind !== 'staff_new_reservation')).toEqual([]);
        expect(queued.filter((row) => row.channel === 'email').map((row) => row.recipient)).toEqual([
          'victim@example.com',
        ]);

        // The planters can neither read nor cancel it.
        const number = result.body.reservation_number as string;
        for (const customer of [planter, second]) {
          const read = await w.api(`/api/reservations/${number}/`, { token: customer.token });
          expect(read.status).toBe(404);
          const cancel = await w.api(`/api/reservations/${number}/cancel/`, { method: 'POST', token: customer.token });
          expect(cancel.status).toBe(404);
        }
        expect((await w.statusOf(number))?.status).toBe('confirmed');
      }
      expect(victim).not.toBe(planter.id);
      expect(victim).not.toBe(second.id);
      // Over all of it, the planters' LINE accounts and e-mail got nothing more.
      expect(await toPlanters()).toBe(before);
      expect(await reservationsOf(planter.id)).toHaveLength(1);
      expect(await reservationsOf(second.id)).toHaveLength(1);
    });

    it('is booked for by staff only when they pick the customer (create-for-customer)', async () => {
      const picked = await w.api('/api/admin/reservations/create-for-customer/', {
        method: 'POST',
        token: staffA.token,
        json: { service_id: short.id, customer_id: planter.id, start_time: nextStart() },
      });
      expect(picked.status).toBe(201);
      expect(picked.body).toMatchObject({ customer_id: planter.id });
      const queued = await outboxFor(picked.body.id as number);
      expect(queued.map((row) => row.recipient)).toContain(PLANTER_LINE);
    });
  });
});
