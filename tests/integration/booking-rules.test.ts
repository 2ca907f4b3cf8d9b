import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Reservation } from '../../src/shared/schemas/reservations';
import type { ApiResult } from '../helpers/app';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
  twoStaffCast,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const NOT_FOUND = { detail: MESSAGES.reservationNotFound, code: 'not_found' };
const STALE = { detail: SERVER_MESSAGES.staleStatus, code: 'stale_status' };
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Acceptance item 4: customer rules, staff scope, the admin list, complete and no-show. */
describe(`reservation rules on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let gel: ServiceRow;
  let short: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    ({ staffA, staffB, hanako, yui, gel, short } = await twoStaffCast(w, 'rules'));
    // Staff A is open every day the customer tests book on (February 2030, and 2030-01-11 for the deadline).
    for (const day of ['2030-01-11', '2030-01-12', '2030-02-01', '2030-02-02', '2030-02-03']) {
      await w.openSlots(staffA.id, day, times('09:00', '18:00'));
    }
  });
  afterAll(() => w?.close());

  const post = (path: string, token: string) => w.api(path, { method: 'POST', token });
  const get = (path: string, token: string) => w.api(path, { token });

  describe('item 4: customers', () => {
    it("answers another customer's reservation with 404 on read and cancel, and leaves it alone", async () => {
      const mine = await w.booked(hanako, gel.id, at('2030-02-01', '10:00'));
      const read = await get(`/api/reservations/${mine.reservation_number}/`, yui.token);
      expect(read.status).toBe(404);
      expect(read.body).toEqual(NOT_FOUND);
      const cancel = await post(`/api/reservations/${mine.reservation_number}/cancel/`, yui.token);
      expect(cancel.status).toBe(404);
      expect(cancel.body).toEqual(NOT_FOUND);
      // The same answer as a number that does not exist, and as something that is not a number at all.
      expect((await get('/api/reservations/00000000-0000-4000-8000-000000000000/', yui.token)).body).toEqual(NOT_FOUND);
      expect((await get('/api/reservations/12/', yui.token)).body).toEqual(NOT_FOUND);
      const own = await get(`/api/reservations/${mine.reservation_number}/`, hanako.token);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({
        status: 'pending',
        customer_id: hanako.id,
        staff_id: staffA.id,
        can_cancel: true,
      });
    });

    it('refuses a customer token on confirm with 403', async () => {
      const mine = await w.booked(hanako, short.id, at('2030-02-01', '14:00'));
      const confirm = await post(`/api/reservations/${mine.reservation_number}/confirm/`, hanako.token);
      expect(confirm.status).toBe(403);
      expect(confirm.body).toEqual({ detail: MESSAGES.forbidden, code: 'permission_denied' });
      expect((await w.statusOf(mine.reservation_number))?.status).toBe('pending');
      // Staff may confirm it through the same shared URL.
      const byStaff = await post(`/api/reservations/${mine.reservation_number}/confirm/`, staffA.token);
      expect(byStaff.status).toBe(200);
      expect(byStaff.body.status).toBe('confirmed');
      const again = await post(`/api/reservations/${mine.reservation_number}/confirm/`, staffA.token);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(STALE);
    });

    it('refuses a cancel after the deadline with 403 and the salon message', async () => {
      // Tomorrow 09:00 with a one-day deadline: the deadline is now (2030-01-10 09:00) and has passed.
      const tomorrow = await w.booked(yui, short.id, at('2030-01-11', '09:00'));
      expect(tomorrow).toMatchObject({ cancellation_deadline: '2030-01-10T09:00:00', can_cancel: false });
      const cancel = await post(`/api/reservations/${tomorrow.reservation_number}/cancel/`, yui.token);
      expect(cancel.status).toBe(403);
      expect(cancel.body).toEqual({
        detail: MESSAGES.cancellationDeadlinePassed,
        code: 'cancellation_deadline_passed',
      });
      expect((await w.statusOf(tomorrow.reservation_number))?.status).toBe('pending');

      // A start that is only just past the deadline can still be cancelled (2030-01-11 10:00: deadline 10:00 today).
      const later = await w.booked(yui, short.id, at('2030-01-11', '10:00'));
      expect(later).toMatchObject({ cancellation_deadline: '2030-01-10T10:00:00', can_cancel: true });
      expect((await post(`/api/reservations/${later.reservation_number}/cancel/`, yui.token)).status).toBe(200);

      // The deadline is the salon's setting: with 0 days the customer may cancel until the start.
      await w.setSalon({ cancellation_deadline_days: 0 });
      try {
        const detail = await get(`/api/reservations/${tomorrow.reservation_number}/`, yui.token);
        expect(detail.body).toMatchObject({ cancellation_deadline: '2030-01-11T09:00:00', can_cancel: true });
        const allowed = await post(`/api/reservations/${tomorrow.reservation_number}/cancel/`, yui.token);
        expect(allowed.status).toBe(200);
      } finally {
        await w.setSalon({ cancellation_deadline_days: 1 });
      }
      // Staff may cancel whatever the deadline says.
      const staffOnly = await w.booked(yui, short.id, at('2030-01-11', '09:00'));
      expect((await post(`/api/reservations/${staffOnly.reservation_number}/cancel/`, yui.token)).status).toBe(403);
      expect((await post(`/api/reservations/${staffOnly.reservation_number}/cancel/`, staffA.token)).status).toBe(200);
    });

    it('cancels before the deadline; the detail then shows cancelled; a second cancel is 409', async () => {
      const booking = await w.booked(hanako, gel.id, at('2030-01-12', '10:00'));
      expect(booking).toMatchObject({ cancellation_deadline: '2030-01-11T10:00:00', can_cancel: true });
      const cancel = await post(`/api/reservations/${booking.reservation_number}/cancel/`, hanako.token);
      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({
        reservation_number: booking.reservation_number,
        status: 'cancelled',
        can_cancel: false,
      });
      const detail = await get(`/api/reservations/${booking.reservation_number}/`, hanako.token);
      expect(detail.body).toMatchObject({ status: 'cancelled', can_cancel: false });
      const again = await post(`/api/reservations/${booking.reservation_number}/cancel/`, hanako.token);
      expect(again.status).toBe(409);
      expect(again.body).toEqual(STALE);
    });

    it('refuses a 4th upcoming booking with 409 reservation_limit; a cancel makes room', async () => {
      const mika = await w.customer({ name: '伊藤 美香', email: 'mika@example.com' });
      const booked: Reservation[] = [];
      for (const time of ['10:00', '11:00', '12:00'])
        booked.push(await w.booked(mika, short.id, at('2030-02-02', time)));
      const fourth = await w.book(mika, short.id, at('2030-02-02', '13:00'));
      expect(fourth.status).toBe(409);
      expect(fourth.body).toEqual({ detail: SERVER_MESSAGES.reservationLimit(3), code: 'reservation_limit' });
      expect(fourth.body.detail).toMatch(JAPANESE);
      expect(await w.activeRows(at('2030-02-02', '13:00'), at('2030-02-02', '13:30'))).toHaveLength(0);

      expect((await post(`/api/reservations/${booked[0]!.reservation_number}/cancel/`, mika.token)).status).toBe(200);
      expect((await w.book(mika, short.id, at('2030-02-02', '13:00'))).status).toBe(201);
    });
  });

  describe('item 4: staff scope and the admin list', () => {
    let ofA: Reservation;
    let ofB: Reservation[];

    beforeAll(async () => {
      // Only staff A is open on 2030-02-03: the customer's booking is A's.
      ofA = await w.booked(hanako, short.id, at('2030-02-03', '10:00'));
      expect(ofA.staff_id).toBe(staffA.id);
      const forB = await w.customer({ name: '小林 さくら', email: 'sakura@example.com', assignedStaffId: staffB.id });
      ofB = [];
      for (const time of ['10:00', '12:00']) {
        const created = await w.api('/api/admin/reservations/create-for-customer/', {
          method: 'POST',
          token: staffB.token,
          json: { service_id: short.id, customer_id: forB.id, start_time: at('2030-02-03', time) },
        });
        expect(created.status).toBe(201);
        ofB.push(created.body as unknown as Reservation);
      }
    });

    it("staff B cannot see or change staff A's reservation (404), and it stays as it was", async () => {
      const number = ofA.reservation_number;
      const attempts: ApiResult[] = [
        await get(`/api/admin/reservations/${number}/`, staffB.token),
        await get(`/api/reservations/${number}/`, staffB.token),
        await post(`/api/reservations/${number}/confirm/`, staffB.token),
        await post(`/api/reservations/${number}/cancel/`, staffB.token),
      ];
      for (const action of ['confirm', 'cancel', 'complete', 'no-show']) {
        attempts.push(await post(`/api/admin/reservations/${number}/${action}/`, staffB.token));
      }
      for (const result of attempts) {
        expect(result.status).toBe(404);
        expect(result.body).toEqual(NOT_FOUND);
      }
      expect((await w.statusOf(number))?.status).toBe('pending');
      expect((await get(`/api/admin/reservations/${number}/`, staffA.token)).status).toBe(200);
      expect((await get(`/api/admin/reservations/${number}/`, w.admin.token)).status).toBe(200);
    });

    it("lists only staff B's own reservations for staff B, whatever user_id says", async () => {
      const [{ value: bTotal }] = (await w.db
        .select({ value: count() })
        .from(reservations)
        .where(eq(reservations.staff_id, staffB.id))) as [{ value: number }];
      for (const query of ['', `?user_id=${staffA.id}`, `?user_id=${w.admin.id}`]) {
        const list = await get(`/api/admin/reservations/${query}`, staffB.token);
        expect(list.status).toBe(200);
        const rows = list.body as unknown as Reservation[];
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((row) => row.staff_id === staffB.id)).toBe(true);
        expect(rows).toHaveLength(bTotal);
        expect(list.headers.get('x-total-count')).toBe(String(bTotal));
      }
      const ids = ((await get('/api/admin/reservations/', staffB.token)).body as unknown as Reservation[]).map(
        (r) => r.reservation_number,
      );
      expect(ids).toEqual(expect.arrayContaining(ofB.map((r) => r.reservation_number)));
      expect(ids).not.toContain(ofA.reservation_number);
    });

    it('gives the superuser everything, filtered by user_id, status (repeated) and date range', async () => {
      const all = await w.db.select().from(reservations);
      const list = async (query: string) => {
        const result = await get(`/api/admin/reservations/?${query}`, w.admin.token);
        expect(result.status).toBe(200);
        const rows = result.body as unknown as Reservation[];
        expect(result.headers.get('x-total-count')).toBe(String(rows.length));
        return rows;
      };
      expect(await list('')).toHaveLength(all.length);
      expect((await list(`user_id=${staffA.id}`)).map((r) => r.id).sort()).toEqual(
        all
          .filter((r) => r.staff_id === staffA.id)
          .map((r) => r.id)
          .sort(),
      );
      const activeIds = all
        .filter((r) => r.status === 'pending' || r.status === 'confirmed')
        .map((r) => r.id)
        .sort();
      expect((await list('status=pending&status=confirmed')).map((r) => r.id).sort()).toEqual(activeIds);
      const cancelled = await list('status=cancelled');
      expect(cancelled.length).toBe(all.filter((r) => r.status === 'cancelled').length);
      expect(cancelled.length).toBeGreaterThan(0);
      expect(cancelled.every((r) => r.status === 'cancelled')).toBe(true);
      const february3 = await list('start_date=2030-02-03&end_date=2030-02-03');
      expect(february3.map((r) => r.start_time).sort()).toEqual([
        at('2030-02-03', '10:00'),
        at('2030-02-03', '10:00'),
        at('2030-02-03', '12:00'),
      ]);
      const range = await list('start_date=2030-02-01&end_date=2030-02-02');
      expect(range.length).toBeGreaterThan(0);
      expect(range.every((r) => r.start_time >= '2030-02-01' && r.start_time < '2030-02-03')).toBe(true);
      const combined = await list(`user_id=${staffB.id}&status=confirmed&start_date=2030-02-03&end_date=2030-02-03`);
      expect(combined.map((r) => r.reservation_number).sort()).toEqual(ofB.map((r) => r.reservation_number).sort());
      // A page: X-Total-Count still counts everything that matches.
      const page = await get('/api/admin/reservations/?limit=2&offset=1', w.admin.token);
      expect(page.body).toHaveLength(2);
      expect(page.headers.get('x-total-count')).toBe(String(all.length));
    });

    it('complete and no-show are 409 before the start and work after it', async () => {
      for (const action of ['complete', 'no-show']) {
        const result = await post(`/api/admin/reservations/${ofB[0]!.reservation_number}/${action}/`, staffB.token);
        expect(result.status).toBe(409);
        expect(result.body).toEqual({ detail: SERVER_MESSAGES.notYetStarted, code: 'not_started' });
      }
      expect((await w.statusOf(ofB[0]!.reservation_number))?.status).toBe('confirmed');

      const regular = await w.customer({ name: '過去 太郎', email: 'past@example.com' });
      const earlier = await w.insertReservation({
        staffId: staffB.id,
        customer: regular,
        service: short,
        start: '2030-01-09T10:00:00',
        status: 'confirmed',
      });
      const missed = await w.insertReservation({
        staffId: staffB.id,
        customer: regular,
        service: short,
        start: '2030-01-09T11:00:00',
      });
      const done = await post(`/api/admin/reservations/${earlier.reservation_number}/complete/`, staffB.token);
      expect(done.status).toBe(200);
      expect(done.body.status).toBe('completed');
      const noShow = await post(`/api/admin/reservations/${missed.reservation_number}/no-show/`, w.admin.token);
      expect(noShow.status).toBe(200);
      expect(noShow.body.status).toBe('no_show');
      // Terminal: neither changes again.
      expect((await post(`/api/admin/reservations/${earlier.reservation_number}/no-show/`, staffB.token)).body).toEqual(
        STALE,
      );
      expect((await post(`/api/admin/reservations/${missed.reservation_number}/cancel/`, staffB.token)).body).toEqual(
        STALE,
      );
    });
  });
});
