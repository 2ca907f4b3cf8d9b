import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsOutbox, reservationReschedules, reservations, staffUsers } from '#server/db/schema';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { localDateTimeToInstant } from '#src/shared/time';
import type { ApiResult } from '#tests/helpers/app';
import {
  at,
  availability,
  dates,
  startBookingApp,
  statusesOf,
  times,
  TZ,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { lineTexts } from '#tests/helpers/line-text';

/**
 * Rescheduling (issue 15): POST /api/reservations/{n}/reschedule/ (the customer, before the cancellation deadline)
 * and POST /api/admin/reservations/{n}/reschedule/ (staff, any time). PostgreSQL runs the parallel moves truly at
 * once, so the exclusion constraint decides; PGlite serializes them and checks the same answers.
 */
const ROUNDS = testEngine === 'postgres' ? 5 : 3;
const PARALLEL = 20;

type Mail = { subject: string; text: string };
type Line = { messages: unknown[] };

describe(`rescheduling on ${testEngine}`, { timeout: 180_000 }, () => {
  let w: BookingWorld;
  let solo: StaffMember;
  let other: StaffMember;
  let crowd: CustomerMember[];
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let short: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    solo = await w.staff('move-solo', '佐藤 美咲');
    other = await w.staff('move-other', '鈴木 B');
    crowd = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => w.customer({ name: `客 ${i}`, email: `mover${i}@example.com` })),
    );
    [hanako, yui] = await Promise.all([
      w.customer({ name: '山田 花子', email: 'hanako@example.com', lineUserId: 'U-hanako-0000000000000000000000000' }),
      w.customer({ name: '高橋 結衣', email: 'yui@example.com' }),
    ]);
    short = await w.service('ワンカラー', 30, 4000);
    await w.setSalon({ max_upcoming_per_customer: 10_000 });
    // The staff member's LINE, so that the staff side of a move's messages is queued too.
    await w.db
      .update(staffUsers)
      .set({ line_user_id: 'U-staff-solo-00000000000000000000' })
      .where(eq(staffUsers.id, solo.id));
  });
  afterAll(() => w?.close());

  const moveAsCustomer = (customer: CustomerMember, number: string, json: Record<string, unknown>, key?: string) =>
    w.api(`/api/reservations/${number}/reschedule/`, {
      method: 'POST',
      token: customer.token,
      json,
      headers: key ? { 'Idempotency-Key': key } : undefined,
    });
  const moveAsStaff = (number: string, json: Record<string, unknown>, token = w.admin.token) =>
    w.api(`/api/admin/reservations/${number}/reschedule/`, { method: 'POST', token, json });

  async function rowOf(number: string) {
    const [row] = await w.db.select().from(reservations).where(eq(reservations.reservation_number, number));
    return row!;
  }
  const startOf = async (number: string) => (await rowOf(number)).start_time.getTime();
  const instant = (local: string) => localDateTimeToInstant(local, TZ).getTime();

  function expectOneWinner(results: ApiResult[], label: string) {
    expect(statusesOf(results), label).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    for (const result of results.filter((r) => r.status === 409)) {
      expect(result.body, label).toMatchObject({ code: 'slot_unavailable' });
    }
  }

  describe('parallel moves into one free start', () => {
    it(`${ROUNDS} rounds: ${PARALLEL} customers move their bookings to one start at once, exactly one succeeds`, async () => {
      const targets = dates('2030-03-01', ROUNDS);
      await w.openSlotsDirect(solo.id, targets, times('10:00', '13:00'));
      // Each customer's booking on a day of its own, far from the targets.
      const booked = await Promise.all(
        crowd.map((customer, i) =>
          w.insertReservation({
            staffId: solo.id,
            customer,
            service: short,
            start: at(dates('2030-05-01', PARALLEL)[i]!, '10:00'),
            status: 'confirmed',
          }),
        ),
      );
      for (const [index, day] of targets.entries()) {
        const results = await Promise.all(
          crowd.map((customer, i) =>
            moveAsCustomer(customer, booked[i]!.reservation_number, { start_time: at(day, '11:00') }),
          ),
        );
        const label = `round ${index} (${day})`;
        expectOneWinner(results, label);
        const there = await w.activeRows(at(day, '00:00'), at(day, '23:30'));
        expect(there, label).toHaveLength(1);
        const winner = results.find((r) => r.status === 200)!.body as unknown as Reservation;
        expect(winner.start_time).toBe(at(day, '11:00'));
        expect(there[0]!.reservation_number).toBe(winner.reservation_number);
        // The losers stay where they were.
        for (const [i, result] of results.entries()) {
          if (result.status === 409)
            expect(await startOf(booked[i]!.reservation_number)).not.toBe(instant(at(day, '11:00')));
        }
      }
    });

    it(`${ROUNDS} rounds: staff move ${PARALLEL} bookings to one start at once, exactly one succeeds`, async () => {
      const targets = dates('2030-03-20', ROUNDS);
      const booked = await Promise.all(
        crowd.map((customer, i) =>
          w.insertReservation({
            staffId: other.id,
            customer,
            service: short,
            start: at(dates('2030-06-01', PARALLEL)[i]!, '15:00'),
          }),
        ),
      );
      for (const [index, day] of targets.entries()) {
        const results = await Promise.all(
          booked.map((row) => moveAsStaff(row.reservation_number, { start_time: at(day, '14:00') })),
        );
        const label = `round ${index} (${day})`;
        expectOneWinner(results, label);
        expect(await w.activeRows(at(day, '00:00'), at(day, '23:30')), label).toHaveLength(1);
      }
    });
  });

  describe('the cancellation deadline', () => {
    it('a customer cannot move a booking after it (403); staff still can', async () => {
      const today = await w.insertReservation({
        staffId: solo.id,
        customer: hanako,
        service: short,
        start: at('2030-01-10', '15:00'),
      });
      const result = await moveAsCustomer(hanako, today.reservation_number, { start_time: at('2030-03-10', '10:00') });
      expect(result.status).toBe(403);
      expect(result.body).toEqual({ detail: MESSAGES.rescheduleDeadlinePassed, code: 'reschedule_deadline_passed' });
      expect(await startOf(today.reservation_number)).toBe(instant(at('2030-01-10', '15:00')));

      const byStaff = await moveAsStaff(today.reservation_number, { start_time: at('2030-01-10', '17:00') });
      expect(byStaff.status).toBe(200);
      expect(byStaff.body).toMatchObject({ start_time: at('2030-01-10', '17:00'), staff_id: solo.id });
    });
  });

  describe('the old start is freed only by a successful move', () => {
    const day = '2030-02-05';

    it('a refused move leaves the booking in place; a successful one frees the old start and keeps its identity', async () => {
      await w.openSlotsDirect(solo.id, [day], times('10:00', '18:00'));
      const mine = await w.booked(hanako, short.id, at(day, '14:00'));
      await w.booked(yui, short.id, at(day, '16:00'));
      expect(await availability(w, day, short.id)).not.toContain('14:00');

      // The target is taken: 409, and nothing moved or was freed.
      const refused = await moveAsCustomer(hanako, mine.reservation_number, { start_time: at(day, '16:00') });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'slot_unavailable', detail: MESSAGES.slotUnavailable });
      expect(await startOf(mine.reservation_number)).toBe(instant(at(day, '14:00')));
      const offeredAfterRefusal = await availability(w, day, short.id);
      expect(offeredAfterRefusal).not.toContain('14:00');
      expect(offeredAfterRefusal).not.toContain('16:00');
      expect(
        await w.db.select().from(reservationReschedules).where(eq(reservationReschedules.reservation_id, mine.id)),
      ).toEqual([]);

      const moved = await moveAsCustomer(
        hanako,
        mine.reservation_number,
        { start_time: at(day, '11:00') },
        'move-key-1',
      );
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        id: mine.id,
        reservation_number: mine.reservation_number,
        reservation_code: mine.reservation_code,
        customer_id: hanako.id,
        status: mine.status,
        start_time: at(day, '11:00'),
        end_time: at(day, '11:30'),
      });
      const offered = await availability(w, day, short.id);
      expect(offered).toContain('14:00');
      expect(offered).not.toContain('11:00');
      expect(offered).not.toContain('16:00');

      // A repeat with the same Idempotency-Key is answered from the first, not moved (or counted) again.
      const repeat = await moveAsCustomer(
        hanako,
        mine.reservation_number,
        { start_time: at(day, '11:00') },
        'move-key-1',
      );
      expect(repeat.status).toBe(200);
      expect(repeat.body).toEqual(moved.body);

      const history = await w.db
        .select()
        .from(reservationReschedules)
        .where(eq(reservationReschedules.reservation_id, mine.id));
      expect(history).toEqual([
        expect.objectContaining({
          old_start_time: new Date(instant(at(day, '14:00'))),
          new_start_time: new Date(instant(at(day, '11:00'))),
          old_staff_id: solo.id,
          new_staff_id: solo.id,
          by: 'customer',
        }),
      ]);
      const row = await rowOf(mine.reservation_number);
      expect(row).toMatchObject({ id: mine.id, customer_id: hanako.id, staff_id: solo.id });

      // The messages of the move say 変更, with the new time and the old one.
      const queued = await w.db
        .select({
          channel: notificationsOutbox.channel,
          kind: notificationsOutbox.kind,
          recipient: notificationsOutbox.recipient,
          payload: notificationsOutbox.payload,
        })
        .from(notificationsOutbox)
        .where(eq(notificationsOutbox.reservation_id, mine.id))
        .orderBy(asc(notificationsOutbox.id));
      const moves = queued.filter((r) => r.kind.endsWith('rescheduled'));
      expect(moves.map((r) => [r.channel, r.kind, r.recipient])).toEqual([
        ['email', 'reservation_rescheduled', 'hanako@example.com'],
        ['line', 'reservation_rescheduled', 'U-hanako-0000000000000000000000000'],
        ['line', 'staff_reservation_rescheduled', 'U-staff-solo-00000000000000000000'],
      ]);
      const mail = moves[0]!.payload as Mail;
      expect(mail.subject).toContain('予約日時の変更');
      expect(mail.text).toContain('変更後の日時: 2030年2月5日(火) 11:00');
      expect(mail.text).toContain('変更前の日時: 2030年2月5日(火) 14:00');
      expect(mail.text).toContain('担当: 佐藤 美咲');
      for (const line of moves.slice(1)) {
        const text = lineTexts(line.payload as Line);
        expect(text).toContain('変更');
        expect(text).toContain('2030年2月5日(火) 11:00');
        expect(text).toContain('2030年2月5日(火) 14:00');
      }
    });
  });

  describe('a superuser hands a booking to another staff member', () => {
    it('moves it to their time, and both staff members hear of it by LINE', async () => {
      const day = '2030-02-08';
      await w.db
        .update(staffUsers)
        .set({ line_user_id: 'U-staff-other-0000000000000000000' })
        .where(eq(staffUsers.id, other.id));
      const booking = await w.insertReservation({
        staffId: solo.id,
        customer: yui,
        service: short,
        start: at(day, '10:00'),
      });
      // Only a superuser may hand it over: an ordinary staff member's staff_id is ignored.
      const own = await moveAsStaff(
        booking.reservation_number,
        { start_time: at(day, '10:30'), staff_id: other.id },
        solo.token,
      );
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ staff_id: solo.id, start_time: at(day, '10:30') });

      const handed = await moveAsStaff(booking.reservation_number, {
        start_time: at(day, '11:00'),
        staff_id: other.id,
      });
      expect(handed.status).toBe(200);
      expect(handed.body).toMatchObject({ staff_id: other.id, staff_name: '鈴木 B', start_time: at(day, '11:00') });
      const history = await w.db
        .select()
        .from(reservationReschedules)
        .where(eq(reservationReschedules.reservation_id, booking.id))
        .orderBy(asc(reservationReschedules.id));
      expect(history.map((row) => [row.old_staff_id, row.new_staff_id, row.by])).toEqual([
        [solo.id, solo.id, 'staff'],
        [solo.id, other.id, 'staff'],
      ]);
      const staffRows = await w.db
        .select({ recipient: notificationsOutbox.recipient, payload: notificationsOutbox.payload })
        .from(notificationsOutbox)
        .where(eq(notificationsOutbox.reservation_id, booking.id))
        .orderBy(asc(notificationsOutbox.id));
      const last = staffRows.slice(-2);
      expect(last.map((row) => row.recipient)).toEqual([
        'U-staff-other-0000000000000000000',
        'U-staff-solo-00000000000000000000',
      ]);
      for (const row of last) expect(lineTexts(row.payload as Line)).toContain('担当: 佐藤 美咲 → 鈴木 B');
    });
  });

  describe('refusals', () => {
    const day = '2030-02-06';
    let mine: Reservation;

    beforeAll(async () => {
      await w.openSlotsDirect(solo.id, [day], times('10:00', '18:00'));
      mine = await w.booked(hanako, short.id, at(day, '12:00'));
    });

    it("another customer's reservation is 404, and stays", async () => {
      const result = await moveAsCustomer(yui, mine.reservation_number, { start_time: at(day, '13:00') });
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ detail: MESSAGES.reservationNotFound });
      // Staff outside its scope see nothing either.
      expect((await moveAsStaff(mine.reservation_number, { start_time: at(day, '13:00') }, other.token)).status).toBe(
        404,
      );
      expect(await startOf(mine.reservation_number)).toBe(instant(at(day, '12:00')));
    });

    it('the same time is 400; an off-grid time is 400', async () => {
      const same = await moveAsCustomer(hanako, mine.reservation_number, { start_time: at(day, '12:00') });
      expect(same.status).toBe(400);
      expect(same.body).toMatchObject({
        detail: SERVER_MESSAGES.rescheduleSameTime,
        fields: { start_time: [SERVER_MESSAGES.rescheduleSameTime] },
      });
      const offGrid = await moveAsCustomer(hanako, mine.reservation_number, { start_time: at(day, '13:10') });
      expect(offGrid.status).toBe(400);
      expect(offGrid.body).toMatchObject({ detail: SERVER_MESSAGES.offGridTime });
      const staffOffGrid = await moveAsStaff(mine.reservation_number, { start_time: at(day, '13:10') });
      expect(staffOffGrid.status).toBe(400);
      expect(await startOf(mine.reservation_number)).toBe(instant(at(day, '12:00')));
    });

    it('a cancelled reservation is 409 for the customer and for staff', async () => {
      const gone = await w.booked(hanako, short.id, at(day, '15:00'));
      expect(
        (await w.api(`/api/reservations/${gone.reservation_number}/cancel/`, { method: 'POST', token: hanako.token }))
          .status,
      ).toBe(200);
      const result = await moveAsCustomer(hanako, gone.reservation_number, { start_time: at(day, '16:00') });
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({ code: 'not_changeable', detail: SERVER_MESSAGES.reservationNotChangeable });
      expect((await moveAsStaff(gone.reservation_number, { start_time: at(day, '16:00') })).status).toBe(409);
      expect(await rowOf(gone.reservation_number)).toMatchObject({ status: 'cancelled' });
    });
  });

  describe('staff actions carry the start the staff member saw', () => {
    const day = '2030-02-07';

    it('a confirm queued against the old start after a move is 409 rescheduled and changes nothing', async () => {
      await w.openSlotsDirect(solo.id, [day], times('10:00', '18:00'));
      const booking = await w.booked(hanako, short.id, at(day, '10:00'));
      const seen = booking.start_time;
      // Another device moves it meanwhile.
      expect((await moveAsStaff(booking.reservation_number, { start_time: at(day, '15:00') })).status).toBe(200);
      const before = await rowOf(booking.reservation_number);

      for (const action of ['confirm', 'cancel'] as const) {
        const stale = await w.api(`/api/admin/reservations/${booking.reservation_number}/${action}/`, {
          method: 'POST',
          token: solo.token,
          json: { expected_start_time: seen },
          headers: { 'Idempotency-Key': `stale-${action}` },
        });
        expect(stale.status, action).toBe(409);
        expect(stale.body, action).toEqual({ detail: SERVER_MESSAGES.reservationMovedMeanwhile, code: 'rescheduled' });
      }
      const after = await rowOf(booking.reservation_number);
      expect(after).toMatchObject({ status: 'pending', start_time: before.start_time, updated_at: before.updated_at });

      // With the start as it now is, the same action goes through; so does one without a body, as before.
      const fresh = await w.api(`/api/admin/reservations/${booking.reservation_number}/confirm/`, {
        method: 'POST',
        token: solo.token,
        json: { expected_start_time: at(day, '15:00') },
      });
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({ status: 'confirmed', start_time: at(day, '15:00') });
      const bare = await w.api(`/api/admin/reservations/${booking.reservation_number}/cancel/`, {
        method: 'POST',
        token: solo.token,
      });
      expect(bare.status, bare.text).toBe(200);
      expect(bare.body).toMatchObject({ status: 'cancelled' });
    });

    it('a stale status with the right start is still stale_status; out of scope is still 404', async () => {
      const booking = await w.booked(yui, short.id, at(day, '12:00'));
      const json = { expected_start_time: booking.start_time };
      const path = `/api/admin/reservations/${booking.reservation_number}`;
      expect((await w.api(`${path}/confirm/`, { method: 'POST', token: other.token, json })).status).toBe(404);
      expect((await w.api(`${path}/confirm/`, { method: 'POST', token: solo.token, json })).status).toBe(200);
      const again = await w.api(`${path}/confirm/`, { method: 'POST', token: solo.token, json });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'stale_status' });
    });
  });
});
