/**
 * Live updates for the staff app (issue 6): GET /api/admin/events/ streams reservation changes as server-sent
 * events, after the commit, scoped like everything else (an ordinary staff member hears only their own
 * reservations, a superuser all of them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReservationChangeEvent } from '../../src/shared/schemas/events';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USERNAME } from '../helpers/app';
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
import { openEventStream, type EventStream } from '../helpers/event-stream';

describe(`admin event stream on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let customerOfA: CustomerMember;
  let gel: ServiceRow;
  const streams: EventStream[] = [];

  async function stream(token: string | undefined, query = '') {
    const opened = await openEventStream(w.t.url, token, query);
    streams.push(opened);
    return opened;
  }

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('events_a', '佐藤 A');
    staffB = await w.staff('events_b', '鈴木 B');
    customerOfA = await w.customer({ name: '山田 花子', email: 'hanako@example.com', assignedStaffId: staffA.id });
    gel = await w.service('ジェルネイル', 60);
    await w.openSlots(staffA.id, '2030-02-04', times('10:00', '18:00'));
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await w?.close();
  });

  it('a staff member hears their customer’s booking within a second; another staff member hears nothing', async () => {
    const [streamA, streamB, streamAdmin] = await Promise.all([
      stream(staffA.token),
      stream(staffB.token),
      stream(w.admin.token),
    ]);
    for (const s of [streamA, streamB, streamAdmin]) {
      expect(s.status).toBe(200);
      expect(s.contentType).toContain('text/event-stream');
      await s.next((m) => m.event === 'ready', 2_000);
    }

    const booked = await w.booked(customerOfA, gel.id, at('2030-02-04', '11:00'));
    const bookedAt = Date.now();
    const message = await streamA.next((m) => m.event === 'reservation', 1_000);
    expect(Date.now() - bookedAt).toBeLessThan(1_000);
    expect(JSON.parse(message.data)).toEqual({
      action: 'created',
      reservation_number: booked.reservation_number,
      staff_id: staffA.id,
      status: 'pending',
      start_time: '2030-02-04T11:00:00',
      customer_name: '山田 花子',
      by: 'customer',
    } satisfies ReservationChangeEvent);
    // The superuser hears every reservation.
    await streamAdmin.next((m) => m.event === 'reservation', 1_000);

    // Staff A confirms it: a second event on A's stream, still nothing on B's.
    const confirmed = await w.api(`/api/admin/reservations/${booked.reservation_number}/confirm/`, {
      method: 'POST',
      token: staffA.token,
    });
    expect(confirmed.status).toBe(200);
    await streamA.next((m) => m.event === 'reservation' && m.data.includes('"confirmed"'), 1_000);
    expect(streamA.reservations().map((e) => [e.action, e.by])).toEqual([
      ['created', 'customer'],
      ['confirmed', 'staff'],
    ]);

    // Give any misrouted event time to arrive before asserting its absence.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(streamB.reservations()).toEqual([]);
    expect(streamB.messages.map((m) => m.event)).toEqual(['ready']);
  });

  it('publishes nothing for a booking that was refused (only committed changes)', async () => {
    const streamA = await stream(staffA.token);
    await streamA.next((m) => m.event === 'ready', 2_000);
    // 2030-02-05: staff A has no opening slots, so the booking is refused with 409.
    const refused = await w.book(customerOfA, gel.id, at('2030-02-05', '11:00'));
    expect(refused.status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(streamA.reservations()).toEqual([]);
  });

  it('refuses customer tokens and anonymous callers with 401, like every /api/admin/ route', async () => {
    const asCustomer = await stream(customerOfA.token);
    expect(asCustomer.status).toBe(401);
    const anonymous = await stream(undefined);
    expect(anonymous.status).toBe(401);
  });

  it('ends the stream after max_seconds', async () => {
    const short = await stream(staffA.token, '?max_seconds=0');
    expect(short.status).toBe(200);
    await short.ended;
    expect(short.messages.map((m) => m.event)).toEqual(['ready']);
  });
});

describe(`closing the app with open event streams on ${testEngine}`, () => {
  it('ends the streams and closes promptly (a test run must not hang)', async () => {
    const t = await startTestApp();
    try {
      const { access } = await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD);
      const open = await openEventStream(t.url, access);
      await open.next((m) => m.event === 'ready', 2_000);
      const started = Date.now();
      await t.app.close();
      await open.ended;
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await t.close();
    }
  });
});
