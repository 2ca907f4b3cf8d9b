import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLSTATE, sqlState } from '#server/db/client';
import { notificationsOutbox, reservations, staffUsers } from '#server/db/schema';
import { STAFF_APPROVAL_LINE } from '#server/outbox/templates';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import {
  at,
  startBookingApp,
  times,
  TODAY,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { bookingMessagesQueued, pushedForReservation } from '#tests/helpers/booking-events';

/**
 * 無断欠席 and 直前キャンセル (server/db/incidents.ts): late cancels are stored when they happen, counts per customer
 * reach staff, and the salon's rule holds back an online booking it would otherwise confirm at once.
 * Fixed clock: 2030-01-10 09:00 Asia/Tokyo.
 */
describe(`no-show and late-cancel rules on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let service: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('rules-staff', '佐藤 A');
    service = await w.service('ワンカラー', 30);
    for (const day of [TODAY, '2030-01-13', '2030-02-01', '2030-02-02', '2030-02-03']) {
      await w.openSlots(staff.id, day, times('09:00', '21:00'));
    }
    // Customers may cancel until the start, so a cancel 2 hours before is theirs to make.
    await w.setSalon({ cancellation_deadline_days: 0, max_upcoming_per_customer: 20 });
  });
  afterAll(() => w?.close());

  const post = (path: string, token: string, json?: unknown) =>
    w.api(path, { method: 'POST', token, ...(json === undefined ? {} : { json }) });
  const patchSettings = (json: unknown, token = w.admin.token) =>
    w.api('/api/admin/settings/', { method: 'PATCH', token, json });

  async function rowOf(number: string) {
    const [row] = await w.db.select().from(reservations).where(eq(reservations.reservation_number, number));
    return row!;
  }

  async function customerAnswer(customer: CustomerMember) {
    const answer = await w.api(`/api/admin/customers/${customer.id}/`, { token: w.admin.token });
    expect(answer.status).toBe(200);
    return answer.body as { no_show_count: number; late_cancel_count: number };
  }

  async function bookByStaff(customer: CustomerMember, start: string): Promise<Reservation> {
    const made = await post('/api/admin/reservations/create-for-customer/', w.admin.token, {
      service_id: service.id,
      customer_id: customer.id,
      start_time: start,
      staff_id: staff.id,
    });
    expect(made.status).toBe(201);
    return made.body as unknown as Reservation;
  }

  async function noShows(customer: CustomerMember, count: number) {
    for (let index = 0; index < count; index += 1) {
      await w.insertReservation({
        staffId: staff.id,
        customer,
        service,
        start: at(`2029-12-0${index + 1}`, '10:00'),
        status: 'no_show',
      });
    }
  }

  describe('late cancels', () => {
    it('counts a customer cancel 2 hours before the start, not one 3 days before', async () => {
      const hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
      const soon = await w.booked(hanako, service.id, at(TODAY, '11:00'));
      const later = await w.booked(hanako, service.id, at('2030-01-13', '09:00'));

      for (const booking of [soon, later]) {
        const cancelled = await post(`/api/reservations/${booking.reservation_number}/cancel/`, hanako.token);
        expect(cancelled.status).toBe(200);
        expect(cancelled.body.status).toBe('cancelled');
        // The customer's own answer says nothing of it.
        expect(cancelled.body).not.toHaveProperty('cancelled_late');
      }
      expect(await rowOf(soon.reservation_number)).toMatchObject({
        status: 'cancelled',
        cancelled_late: true,
        cancelled_at: new Date('2030-01-10T00:00:00Z'),
      });
      expect(await rowOf(later.reservation_number)).toMatchObject({ status: 'cancelled', cancelled_late: false });
      expect(await customerAnswer(hanako)).toMatchObject({ no_show_count: 0, late_cancel_count: 1 });
    });

    it('counts a staff cancel 2 hours before the start, not one 3 days before', async () => {
      const yui = await w.customer({ name: '高橋 結衣', email: 'yui@example.com' });
      const soon = await bookByStaff(yui, at(TODAY, '11:30'));
      const later = await bookByStaff(yui, at('2030-01-13', '10:00'));
      const lateAnswer = await post(`/api/admin/reservations/${soon.reservation_number}/cancel/`, w.admin.token);
      expect(lateAnswer.status).toBe(200);
      expect(lateAnswer.body).toMatchObject({ status: 'cancelled', cancelled_late: true });
      const early = await post(`/api/admin/reservations/${later.reservation_number}/cancel/`, w.admin.token);
      expect(early.body).toMatchObject({ status: 'cancelled', cancelled_late: false });
      expect(await customerAnswer(yui)).toMatchObject({ no_show_count: 0, late_cancel_count: 1 });

      // The flag was stored when it happened: widening the window later does not rewrite history.
      expect((await patchSettings({ late_cancel_hours: 168 })).status).toBe(200);
      expect(await customerAnswer(yui)).toMatchObject({ late_cancel_count: 1 });
      expect((await rowOf(later.reservation_number)).cancelled_late).toBe(false);
      // And the new window applies to the next cancel: 3 days before is now within 168 hours.
      const next = await bookByStaff(yui, at('2030-01-13', '11:00'));
      await post(`/api/admin/reservations/${next.reservation_number}/cancel/`, w.admin.token);
      expect((await rowOf(next.reservation_number)).cancelled_late).toBe(true);
      expect(await customerAnswer(yui)).toMatchObject({ late_cancel_count: 2 });
      expect((await patchSettings({ late_cancel_hours: 24 })).status).toBe(200);
    });
  });

  describe('the approval rule on online bookings', () => {
    let repeat: CustomerMember;
    let regular: CustomerMember;

    beforeAll(async () => {
      repeat = await w.customer({ name: '伊藤 舞', email: 'mai@example.com' });
      regular = await w.customer({ name: '中村 彩', email: 'aya@example.com' });
      await noShows(repeat, 2);
    });

    async function outboxKinds(reservationId: number) {
      await bookingMessagesQueued(w.t);
      const rows = await w.db
        .select({ kind: notificationsOutbox.kind, channel: notificationsOutbox.channel })
        .from(notificationsOutbox)
        .where(eq(notificationsOutbox.reservation_id, reservationId))
        .orderBy(asc(notificationsOutbox.id));
      return rows.filter((row) => row.channel === 'email').map((row) => row.kind);
    }

    /** The text of the staff member's new-booking LINE message, as it was pushed. */
    async function staffLineText(reservationId: number) {
      const pushed = await pushedForReservation(w.t, reservationId);
      return JSON.stringify(pushed.find((push) => push.kind === 'staff_new_reservation')?.messages);
    }

    it('under auto-confirm, holds back the booking of a customer with 2 no-shows and confirms another', async () => {
      expect((await patchSettings({ auto_confirm_online_bookings: true, approval_after_incidents: 2 })).status).toBe(
        200,
      );
      // The staff member has LINE linked: their new-booking message says which booking waits for them.
      await w.db
        .update(staffUsers)
        .set({ line_user_id: 'U' + 'c'.repeat(32) })
        .where(eq(staffUsers.id, staff.id));
      w.t.app.bookingReads.clear();
      const held = await w.booked(repeat, service.id, at('2030-02-01', '10:00'));
      const fine = await w.booked(regular, service.id, at('2030-02-01', '11:00'));

      expect(held.status).toBe('pending');
      expect(fine.status).toBe('confirmed');
      // Customers are not told why; their answer has no staff fields.
      expect(held).not.toHaveProperty('needs_approval');
      expect(await rowOf(held.reservation_number)).toMatchObject({ needs_approval: true });
      expect(await rowOf(fine.reservation_number)).toMatchObject({ needs_approval: false });
      // The customer hears what happened: acceptance (confirmation later) vs. the confirmation itself.
      expect(await outboxKinds(held.id)).toEqual(['reservation_accepted']);
      expect(await outboxKinds(fine.id)).toEqual(['reservation_confirmed']);
      expect(await staffLineText(held.id)).toContain(STAFF_APPROVAL_LINE);
      expect(await staffLineText(fine.id)).toMatch(/新しいご予約/);
      expect(await staffLineText(fine.id)).not.toContain(STAFF_APPROVAL_LINE);

      // Staff see the flag and the counts on the detail and in the list.
      const detail = await w.api(`/api/admin/reservations/${held.reservation_number}/`, { token: w.admin.token });
      expect(detail.body).toMatchObject({
        status: 'pending',
        needs_approval: true,
        customer_no_show_count: 2,
        customer_late_cancel_count: 0,
      });
      const list = await w.api('/api/admin/reservations/?start_date=2030-02-01&end_date=2030-02-01', {
        token: w.admin.token,
      });
      const rows = list.body as unknown as Reservation[];
      expect(rows.find((row) => row.reservation_number === held.reservation_number)).toMatchObject({
        needs_approval: true,
        customer_no_show_count: 2,
      });
      expect(rows.find((row) => row.reservation_number === fine.reservation_number)).toMatchObject({
        needs_approval: false,
        customer_no_show_count: 0,
        customer_late_cancel_count: 0,
      });
      // On the customer too: their next online booking would wait for approval; the other customer's would not.
      expect(await customerAnswer(repeat)).toMatchObject({
        no_show_count: 2,
        late_cancel_count: 0,
        needs_approval: true,
      });
      expect(await customerAnswer(regular)).toMatchObject({ no_show_count: 0, needs_approval: false });
      const listed = await w.api(`/api/admin/customers/?name=${encodeURIComponent('伊藤')}`, { token: w.admin.token });
      expect((listed.body as unknown as Array<{ id: number; no_show_count: number }>)[0]).toMatchObject({
        id: repeat.id,
        no_show_count: 2,
        needs_approval: true,
      });

      // Staff approve it as any pending booking: the customer then gets the confirmation.
      const confirmed = await post(`/api/admin/reservations/${held.reservation_number}/confirm/`, w.admin.token);
      expect(confirmed.body.status).toBe('confirmed');
      expect(await outboxKinds(held.id)).toEqual(['reservation_accepted', 'reservation_confirmed']);
    });

    it('counts late cancels towards the threshold too', async () => {
      const kana = await w.customer({ name: '小林 佳奈', email: 'kana@example.com' });
      await noShows(kana, 1);
      const soon = await bookByStaff(kana, at(TODAY, '13:00'));
      await post(`/api/admin/reservations/${soon.reservation_number}/cancel/`, w.admin.token);
      const held = await w.booked(kana, service.id, at('2030-02-01', '12:00'));
      expect(held.status).toBe('pending');
      expect(await rowOf(held.reservation_number)).toMatchObject({ needs_approval: true });
    });

    it('confirms everyone when the threshold is off (null)', async () => {
      expect((await patchSettings({ approval_after_incidents: null })).body).toMatchObject({
        auto_confirm_online_bookings: true,
        approval_after_incidents: null,
      });
      const booked = await w.booked(repeat, service.id, at('2030-02-02', '10:00'));
      expect(booked.status).toBe('confirmed');
      expect(await rowOf(booked.reservation_number)).toMatchObject({ needs_approval: false });
    });

    it('keeps every online booking pending when auto-confirm is off, still showing staff the counts', async () => {
      expect((await patchSettings({ auto_confirm_online_bookings: false, approval_after_incidents: 2 })).status).toBe(
        200,
      );
      const mine = await w.booked(repeat, service.id, at('2030-02-03', '10:00'));
      const theirs = await w.booked(regular, service.id, at('2030-02-03', '11:00'));
      expect([mine.status, theirs.status]).toEqual(['pending', 'pending']);
      expect(await outboxKinds(mine.id)).toEqual(['reservation_accepted']);
      const detail = await w.api(`/api/admin/reservations/${mine.reservation_number}/`, { token: w.admin.token });
      expect(detail.body).toMatchObject({ needs_approval: false, customer_no_show_count: 2 });
    });
  });

  describe('settings', () => {
    it('reads the defaults: auto-confirm off, approval after 2, late within 24 hours', async () => {
      const fresh = await startBookingApp();
      try {
        const settings = await fresh.api('/api/admin/settings/', { token: fresh.admin.token });
        expect(settings.body).toMatchObject({
          auto_confirm_online_bookings: false,
          approval_after_incidents: 2,
          late_cancel_hours: 24,
        });
      } finally {
        await fresh.close();
      }
    });

    it('refuses out-of-range values with Japanese messages and changes nothing', async () => {
      const before = (await w.api('/api/admin/settings/', { token: w.admin.token })).body;
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ approval_after_incidents: 0 }, 'approval_after_incidents', MESSAGES.approvalAfterIncidentsRange],
        [{ approval_after_incidents: 11 }, 'approval_after_incidents', MESSAGES.approvalAfterIncidentsRange],
        [{ approval_after_incidents: 1.5 }, 'approval_after_incidents', MESSAGES.approvalAfterIncidentsRange],
        [{ late_cancel_hours: 0 }, 'late_cancel_hours', MESSAGES.lateCancelHoursRange],
        [{ late_cancel_hours: 169 }, 'late_cancel_hours', MESSAGES.lateCancelHoursRange],
        [{ late_cancel_hours: null }, 'late_cancel_hours', MESSAGES.fieldRequired],
        [{ auto_confirm_online_bookings: 'yes' }, 'auto_confirm_online_bookings', MESSAGES.booleanInvalid],
      ];
      for (const [body, field, message] of cases) {
        const refused = await patchSettings({ ...body, salon_name: '変えないで' });
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.body.fields).toEqual({ [field]: [message] });
        expect(refused.body.detail).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      }
      expect((await w.api('/api/admin/settings/', { token: w.admin.token })).body).toEqual(before);
    });

    it('keeps the ranges in the database too', async () => {
      for (const patch of [{ late_cancel_hours: 0 }, { late_cancel_hours: 169 }, { approval_after_incidents: 11 }]) {
        const error = await w.setSalon(patch).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(sqlState(error), JSON.stringify(patch)).toBe(SQLSTATE.checkViolation);
      }
    });

    it('accepts the edges and lets only the superuser change them', async () => {
      const edges = await patchSettings({ approval_after_incidents: 10, late_cancel_hours: 1 });
      expect(edges.body).toMatchObject({ approval_after_incidents: 10, late_cancel_hours: 1 });
      const refused = await patchSettings({ auto_confirm_online_bookings: true }, staff.token);
      expect(refused.status).toBe(403);
      expect((await w.api('/api/admin/settings/', { token: staff.token })).body).toMatchObject({
        auto_confirm_online_bookings: false,
        approval_after_incidents: 10,
      });
      await patchSettings({ approval_after_incidents: 2, late_cancel_hours: 24 });
    });
  });
});
