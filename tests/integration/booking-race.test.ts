import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Reservation } from '../../src/shared/schemas/reservations';
import type { ApiResult } from '../helpers/app';
import {
  at,
  dates,
  overlappingPairs,
  startBookingApp,
  statusesOf,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/**
 * Acceptance items 2 and 3. PostgreSQL runs the requests truly in parallel (a pool of connections), so the
 * exclusion constraint and the compare-and-swap transitions are what decide; PGlite has one connection and
 * serializes them, so it runs half the rounds, as a check of the same answers.
 */
const ROUNDS = testEngine === 'postgres' ? 20 : 10;
const PARALLEL = 20;
const TRANSITION_REPEATS = 10;

const SLOT_TAKEN = { detail: MESSAGES.slotUnavailable, code: 'slot_unavailable' };
const STALE = { detail: SERVER_MESSAGES.staleStatus, code: 'stale_status' };

// The answers are what is checked, not the speed: on a loaded CI machine PostgreSQL's deadlock detection (1 s per
// detected cycle between overlapping inserts) can stretch a round well past the default limit.
describe(`booking races on ${testEngine}`, { timeout: 180_000 }, () => {
  let w: BookingWorld;
  let solo: StaffMember;
  let pairA: StaffMember;
  let pairB: StaffMember;
  let crowd: CustomerMember[];
  let gel: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    solo = await w.staff('race-solo');
    pairA = await w.staff('race-a');
    pairB = await w.staff('race-b');
    crowd = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => w.customer({ name: `客 ${i}`, email: `crowd${i}@example.com` })),
    );
    gel = await w.service('ジェルネイル', 90);
    // Every customer books once per round: the per-customer limit must not be what refuses them.
    await w.setSalon({ max_upcoming_per_customer: 10_000 });
  });
  afterAll(() => w?.close());

  /** One round: every customer of the crowd books at once; answers in customer order. */
  const round = (startFor: (i: number) => string) =>
    Promise.all(crowd.map((customer, i) => w.book(customer, gel.id, startFor(i))));

  function expectWinners(results: ApiResult[], winners: number, label: string) {
    const statuses = statusesOf(results);
    expect(statuses, label).toEqual([...Array(winners).fill(201), ...Array(PARALLEL - winners).fill(409)]);
    for (const result of results.filter((r) => r.status === 409)) expect(result.body, label).toEqual(SLOT_TAKEN);
  }

  describe('item 2: parallel customer bookings', () => {
    it(`${ROUNDS} rounds of ${PARALLEL} bookings of one slot with one staff member open: one 201 per round`, async () => {
      const days = dates('2030-03-01', ROUNDS);
      await w.openSlotsDirect(solo.id, days, times('10:00', '13:00'));
      for (const [index, day] of days.entries()) {
        const results = await round(() => at(day, '10:00'));
        expectWinners(results, 1, `round ${index} (${day})`);
        const rows = await w.activeRows(at(day, '00:00'), at(day, '23:30'));
        expect(rows, `round ${index}`).toHaveLength(1);
        const winner = results.find((r) => r.status === 201)!.body as unknown as Reservation;
        expect(rows[0]!.reservation_number).toBe(winner.reservation_number);
        expect(rows[0]).toMatchObject({ staff_id: solo.id, status: 'pending' });
      }
    });

    it(`${ROUNDS} rounds of overlapping starts (90 minutes at 10:00, 10:30 and 11:00): one 201 per round`, async () => {
      const days = dates('2030-04-01', ROUNDS);
      await w.openSlotsDirect(solo.id, days, times('10:00', '13:00'));
      const starts = ['10:00', '10:30', '11:00'];
      for (const [index, day] of days.entries()) {
        const results = await round((i) => at(day, starts[(i + index) % starts.length]!));
        expectWinners(results, 1, `round ${index} (${day})`);
        const rows = await w.activeRows(at(day, '00:00'), at(day, '23:30'));
        expect(rows, `round ${index}`).toHaveLength(1);
        expect(overlappingPairs(rows)).toEqual([]);
      }
    });

    it(`${ROUNDS} rounds of one slot with two staff members open: two 201s, one per staff member`, async () => {
      const days = dates('2030-05-01', ROUNDS);
      await Promise.all([
        w.openSlotsDirect(pairA.id, days, times('10:00', '13:00')),
        w.openSlotsDirect(pairB.id, days, times('10:00', '13:00')),
      ]);
      for (const [index, day] of days.entries()) {
        const results = await round(() => at(day, '10:00'));
        expectWinners(results, 2, `round ${index} (${day})`);
        const winners = results.filter((r) => r.status === 201).map((r) => (r.body as unknown as Reservation).staff_id);
        expect(winners.sort(), `round ${index}`).toEqual([pairA.id, pairB.id].sort());
        const rows = await w.activeRows(at(day, '00:00'), at(day, '23:30'));
        expect(rows.map((row) => row.staff_id).sort(), `round ${index}`).toEqual([pairA.id, pairB.id].sort());
      }
      // Over all the rounds: never two overlapping active reservations of one staff member.
      const all = await w.activeRows(at(days[0]!, '00:00'), at(days.at(-1)!, '23:30'));
      expect(all).toHaveLength(2 * ROUNDS);
      expect(overlappingPairs(all)).toEqual([]);
    });
  });

  it('a customer booking and a staff booking for that customer, same staff and time, at once: one 201, never a 5xx', async () => {
    // The customer's transaction locks its customer row; the staff insert needs a key-share lock on that row
    // for its foreign key, after its exclusion-constraint entry is in. Landing the staff request inside the
    // customer's transaction (the small delays) makes PostgreSQL detect a deadlock (40P01), which must end
    // as the same 409 as any lost race.
    const regular = await w.customer({ name: '常連 花子', email: 'regular@example.com', assignedStaffId: solo.id });
    const days = dates('2030-07-01', 30);
    await w.openSlotsDirect(solo.id, days, times('10:00', '13:00'));
    for (const [index, day] of days.entries()) {
      const results = await Promise.all([
        w.book(regular, gel.id, at(day, '10:00')),
        new Promise((resolve) => setTimeout(resolve, index % 15)).then(() =>
          w.api('/api/admin/reservations/create-for-customer/', {
            method: 'POST',
            token: w.admin.token,
            json: { service_id: gel.id, customer_id: regular.id, start_time: at(day, '10:00'), staff_id: solo.id },
          }),
        ),
      ]);
      expect(statusesOf(results), `round ${index} (${day})`).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('slot_unavailable');
      expect(await w.activeRows(at(day, '00:00'), at(day, '23:30')), `round ${index}`).toHaveLength(1);
    }
  });

  describe('item 3: parallel status changes', () => {
    let owner: CustomerMember;
    let nextStart = 0;
    /** A fresh reservation of `solo`, owned by `owner`, each at its own time. */
    async function reservation(status: 'pending' | 'confirmed', when: 'future' | 'past' = 'future') {
      const index = nextStart++;
      const day = when === 'future' ? dates('2030-09-01', 40)[index]! : dates('2029-11-01', 40)[index]!;
      const row = await w.insertReservation({
        staffId: solo.id,
        customer: owner,
        service: gel,
        start: at(day, '10:00'),
        status,
      });
      return row.reservation_number;
    }
    const post = (path: string, token: string) => w.api(path, { method: 'POST', token });
    const staffAction = (number: string, action: string, token = solo.token) =>
      post(`/api/admin/reservations/${number}/${action}/`, token);
    const customerCancel = (number: string) => post(`/api/reservations/${number}/cancel/`, owner.token);

    beforeAll(async () => {
      owner = await w.customer({ name: '競合 太郎', email: 'owner@example.com' });
    });

    /** Exactly one of two parallel transitions wins; the loser is 409 stale_status; the stored status is the winner's. */
    async function expectOneWinner(number: string, requests: [Promise<ApiResult>, Promise<ApiResult>], label: string) {
      const results = await Promise.all(requests);
      expect(statusesOf(results), label).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!;
      const loser = results.find((r) => r.status === 409)!;
      expect(loser.body, label).toEqual(STALE);
      const stored = await w.statusOf(number);
      expect(stored?.status, label).toBe(winner.body.status);
      return winner.body.status as string;
    }

    it(`confirm twice at once: one 200, one 409 stale_status (${TRANSITION_REPEATS} times)`, async () => {
      for (let i = 0; i < TRANSITION_REPEATS; i += 1) {
        const number = await reservation('pending');
        // The assigned staff member and the superuser press 確定 at the same moment.
        const final = await expectOneWinner(
          number,
          [staffAction(number, 'confirm'), post(`/api/reservations/${number}/confirm/`, w.admin.token)],
          `repeat ${i}`,
        );
        expect(final).toBe('confirmed');
      }
    });

    it(`staff cancel and customer cancel at once: one 200, one 409 (${TRANSITION_REPEATS} times)`, async () => {
      for (let i = 0; i < TRANSITION_REPEATS; i += 1) {
        const number = await reservation(i % 2 === 0 ? 'pending' : 'confirmed');
        const final = await expectOneWinner(
          number,
          [staffAction(number, 'cancel'), customerCancel(number)],
          `repeat ${i}`,
        );
        expect(final).toBe('cancelled');
      }
    });

    it(`complete, no-show and cancel of a past reservation at once: one wins and the status never changes twice (${TRANSITION_REPEATS} times)`, async () => {
      for (let i = 0; i < TRANSITION_REPEATS; i += 1) {
        const number = await reservation('confirmed', 'past');
        const results = await Promise.all([
          staffAction(number, 'complete'),
          staffAction(number, 'no-show', w.admin.token),
          staffAction(number, 'cancel'),
        ]);
        expect(statusesOf(results), `repeat ${i}`).toEqual([200, 409, 409]);
        for (const loser of results.filter((r) => r.status === 409)) expect(loser.body).toEqual(STALE);
        const winner = results.find((r) => r.status === 200)!.body.status;
        expect(['completed', 'no_show', 'cancelled']).toContain(winner);
        expect((await w.statusOf(number))?.status, `repeat ${i}`).toBe(winner);
      }
    });

    it(`confirm and cancel at once (customer or staff cancel): one of the two serial orders (${TRANSITION_REPEATS} times)`, async () => {
      // Cancel is allowed from pending and from confirmed (docs/architecture.md#statuses-and-transitions), so "confirm, then cancel" is a
      // legitimate order in which both succeed; "cancel, then confirm" makes the confirm a 409. What must never
      // happen: a 5xx, or a confirm applied after the cancel (the reservation would end up confirmed).
      for (let i = 0; i < TRANSITION_REPEATS; i += 1) {
        const number = await reservation('pending');
        const cancelRequest = i % 2 === 0 ? customerCancel(number) : staffAction(number, 'cancel', w.admin.token);
        const [confirm, cancel] = await Promise.all([staffAction(number, 'confirm'), cancelRequest]);
        expect(cancel.status, `repeat ${i}`).toBe(200);
        expect(cancel.body.status).toBe('cancelled');
        if (confirm.status === 200) {
          expect(confirm.body.status).toBe('confirmed');
        } else {
          expect(confirm.status, `repeat ${i}`).toBe(409);
          expect(confirm.body).toEqual(STALE);
        }
        expect((await w.statusOf(number))?.status, `repeat ${i}`).toBe('cancelled');
      }
    });
  });
});
