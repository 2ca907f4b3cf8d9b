import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { devMail, linePushCounts, notificationsOutbox, reservations } from '#server/db/schema';
import { findByNumber } from '#server/features/reservations/reservations.repository';
import { claimDueNotifications } from '#server/outbox/outbox';
import { eventMessageRetryKey, renderReservationEvents } from '#server/outbox/reservation-events';
import { createReservationNotifier } from '#server/outbox/reservation-notifications';
import { createOutboxWorker } from '#server/outbox/worker';
import {
  at,
  fixedClock,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { startFakeLineMessaging, type FakeLineMessaging } from '#tests/helpers/fake-line-messaging';

const ACCESS_TOKEN = 'test-messaging-access-token';
const PUBLIC_URL = 'https://salon.example.jp';
const STAFF_LINE = 'U' + 'a'.repeat(32);
const CUSTOMER_LINE = 'U' + 'b'.repeat(32);
const DAY = '2030-01-15';

/**
 * A customer's booking queues its messages as ONE outbox event in the booking's own statement (book_reservation(),
 * migration 0027), whose messages the worker sends straight from it and then stores with what became of each
 * (server/outbox/event-delivery.ts; decisions 0023 and 0025). The worker is driven by hand.
 */
describe(`a booking's messages expanded by the worker on ${testEngine}`, () => {
  let w: BookingWorld;
  let line: FakeLineMessaging;
  let staff: StaffMember;
  let hanako: CustomerMember;
  let gel: ServiceRow;
  let nextStart = 0;

  const outbox = () => w.db.select().from(notificationsOutbox).orderBy(notificationsOutbox.id);
  const drain = () => w.t.app.notifications.worker.drainOnce();
  const byRecipient = (a: { to: string }, b: { to: string }) => a.to.localeCompare(b.to);
  /** This month's pushes counted against the salon's LINE budget (the app's clock: January 2030). */
  const pushesCounted = async () => {
    const [row] = await w.db
      .select({ pushes: linePushCounts.pushes })
      .from(linePushCounts)
      .where(and(eq(linePushCounts.salon_id, w.t.salonId), eq(linePushCounts.month, '2030-01')));
    return row?.pushes ?? 0;
  };
  /** A new start each time, so that the bookings never overlap. */
  const book = () => w.booked(hanako, gel.id, at(DAY, times('10:00', '18:00')[nextStart++]!));
  /** What the messages say and to whom, as rows to compare (ids, keys and times aside). */
  const messages = (rows: Array<typeof notificationsOutbox.$inferSelect>) =>
    rows
      .filter((row) => row.channel !== 'event')
      .map(({ channel, kind, recipient, reservation_id, payload }) => ({
        channel,
        kind,
        recipient,
        reservation_id,
        payload,
      }))
      .sort((a, b) => `${a.channel}${a.recipient}`.localeCompare(`${b.channel}${b.recipient}`));

  beforeAll(async () => {
    line = await startFakeLineMessaging({ accessToken: ACCESS_TOKEN });
    w = await startBookingApp({
      env: { LINE_MESSAGING_ACCESS_TOKEN: ACCESS_TOKEN, LINE_API_BASE: line.url, PUBLIC_URL },
      notifications: { autoStart: false, backoffBaseMs: 0, backoffMaxMs: 0 },
    });
    staff = await w.staff('event-staff', '佐藤 美咲');
    await w.setStaff(staff.id, { line_user_id: STAFF_LINE });
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com', lineUserId: CUSTOMER_LINE });
    gel = await w.service('ジェルネイル', 30, 6600);
    await w.setSalon({ max_upcoming_per_customer: 1000, phone_number: '03-1234-5678' });
    await w.openSlots(staff.id, DAY, times('10:00', '18:00'));
  });
  afterAll(async () => {
    await w?.close();
    await line?.close();
  });
  beforeEach(async () => {
    await drain();
    await w.db.delete(notificationsOutbox);
    await w.db.delete(devMail);
    line.accepted.splice(0);
    line.requests.splice(0);
    line.planPerMessage([]);
  });

  it('commits one event row with the booking and nothing else; a refused booking leaves none', async () => {
    const refused = await w.book(hanako, gel.id, at(DAY, '10:15'));
    expect(refused.status).toBe(400);
    const taken = await w.book(hanako, gel.id, at(DAY, '09:00'));
    expect(taken.status).toBe(409);
    expect(await outbox()).toEqual([]);

    const booking = await book();
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: 'event',
      kind: 'reservation_event',
      status: 'pending',
      reservation_id: null,
      payload: { event: 'created', reservation_id: booking.id },
    });
    expect((rows[0]!.payload as { reservation: { reservation_number: string } }).reservation.reservation_number).toBe(
      booking.reservation_number,
    );
  });

  it('sends the messages the booking queued before in one drain and stores them as sent, never the event', async () => {
    const booking = await book();
    const [event] = await outbox();
    // What the booking's transaction queued until now (createReservationNotifier, as claim-time.ts called it).
    const stored = (await findByNumber(w.db, w.t.salonId, booking.reservation_number))!;
    const notify = createReservationNotifier({ publicUrl: PUBLIC_URL, timeZone: 'Asia/Tokyo' });
    await w.db.transaction((tx) => notify(tx, 'created', stored));
    const before = messages(await outbox());
    expect(before.map((row) => `${row.channel}:${row.kind}`).sort()).toEqual([
      'email:reservation_accepted',
      'line:reservation_accepted',
      'line:staff_new_reservation',
    ]);
    await w.db.delete(notificationsOutbox).where(ne(notificationsOutbox.id, event!.id));

    const result = await drain();
    const after = await outbox();
    // Stored after they went, without their text (the event renders it again): which message of which event.
    const withoutText = (rows: ReturnType<typeof messages>) => rows.map(({ payload: _text, ...row }) => row);
    expect(withoutText(messages(after))).toEqual(withoutText(before));
    const sent = after.filter((row) => row.channel !== 'event');
    expect(sent.every((row) => row.status === 'sent')).toBe(true);
    expect(sent.map((row) => row.payload).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { sent_from_event: event!.id, message_index: 0 },
      { sent_from_event: event!.id, message_index: 1 },
      { sent_from_event: event!.id, message_index: 2 },
    ]);
    expect(after.find((row) => row.id === event!.id)).toMatchObject({ status: 'sent', sent_at: expect.any(Date) });
    expect(result).toMatchObject({ sent: 3, failed: 0 });
    // What went out is exactly what the booking's transaction would have queued.
    const email = before.find((row) => row.channel === 'email')!.payload as { subject: string; text: string };
    const mails = await w.db.select().from(devMail);
    expect(mails.map(({ to, subject, text }) => ({ to, subject, text }))).toEqual([
      { to: 'hanako@example.com', ...email },
    ]);
    const pushes = before.filter((row) => row.channel === 'line');
    expect(line.accepted.map(({ to, messages: pushed }) => ({ to, messages: pushed })).sort(byRecipient)).toEqual(
      pushes
        .map((row) => ({ to: row.recipient, messages: (row.payload as { messages: unknown }).messages }))
        .sort(byRecipient),
    );
  });

  it('tells the booking as it was made, even when staff moved it before the worker expanded it', async () => {
    const booking = await book();
    await w.db
      .update(reservations)
      .set({
        start_time: new Date('2030-01-15T08:00:00Z'),
        end_time: new Date('2030-01-15T08:30:00Z'),
        occupied_until: new Date('2030-01-15T08:30:00Z'),
      })
      .where(eq(reservations.id, booking.id));
    await drain();
    const [mail] = await w.db.select().from(devMail);
    expect(mail!.text).toContain(booking.start_time.slice(11, 16));
    expect(mail!.text).not.toContain('17:00');
  });

  it('sends each event once when two workers drain at once', async () => {
    const bookings = [];
    for (let i = 0; i < 5; i += 1) bookings.push(await book());
    const notifications = w.t.app.notifications;
    const other = createOutboxWorker({
      db: w.db,
      mailer: notifications.mailer,
      line: notifications.line,
      publicUrl: PUBLIC_URL,
      timeZone: 'Asia/Tokyo',
      now: fixedClock,
      batchSize: 2,
    });
    await Promise.all([drain(), other.drainOnce(), drain(), other.drainOnce()]);
    const rows = await outbox();
    expect(rows.filter((row) => row.channel === 'event').map((row) => row.status)).toEqual(Array(5).fill('sent'));
    const sent = rows.filter((row) => row.channel !== 'event');
    expect(sent).toHaveLength(15);
    expect(sent.every((row) => row.status === 'sent')).toBe(true);
    for (const booking of bookings) {
      expect(sent.filter((row) => row.reservation_id === booking.id)).toHaveLength(3);
    }
    expect(await w.db.select().from(devMail)).toHaveLength(5);
    expect(line.accepted).toHaveLength(10);
  });

  it('renders nothing under a claim whose lease ran out and was taken by another worker', async () => {
    await book();
    // A claim a minute ago (the app's clock) whose lease ran out at once.
    const now = new Date(fixedClock().getTime() - 60_000);
    const [stale] = await claimDueNotifications(w.db, { now, leaseMs: 1, limit: 10 });
    // The lease has run out: another worker claims the event (attempt 2) and sends it.
    await drain();
    const late = await renderReservationEvents(w.db, [stale!], { publicUrl: PUBLIC_URL, timeZone: 'Asia/Tokyo' });
    expect(late).toEqual({ rendered: [], failed: 0 });
    expect((await outbox()).filter((row) => row.channel !== 'event')).toHaveLength(3);
    expect(line.accepted).toHaveLength(2);
  });

  it('stores a push LINE failed to be retried under the key it was sent with, counted once', async () => {
    const pushesBefore = await pushesCounted();
    line.planPerMessage([500]);
    await book();
    const [event] = await outbox();
    const result = await drain();
    expect(result).toMatchObject({ sent: 3, retried: 2, failed: 0 });
    // Each push: a 500, then the same retry key again from its stored row, accepted.
    const keys = [...new Set(line.requests.map((request) => request.retryKey))].sort();
    expect(keys).toEqual([eventMessageRetryKey(event!.retry_key, 1), eventMessageRetryKey(event!.retry_key, 2)].sort());
    expect(line.requests.map((request) => request.status).sort()).toEqual([200, 200, 500, 500]);
    expect(line.accepted).toHaveLength(2);
    const stored = (await outbox()).filter((row) => row.channel === 'line');
    expect(stored.map((row) => row.retry_key).sort()).toEqual(keys);
    expect(stored.map((row) => [row.status, row.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
    ]);
    // Counted with the event; the retries were not counted again.
    expect(await pushesCounted()).toBe(pushesBefore + 2);
  });

  it("over the month's LINE budget pushes nothing of the event and lets the budget decide each push", async () => {
    const pushesBefore = await pushesCounted();
    await w.setSalon({ line_monthly_push_limit: pushesBefore + 1 });
    try {
      await book();
      const result = await drain();
      // The event's two pushes do not fit together; one by one, the customer's does and the staff member's does not.
      expect(line.accepted.map((push) => push.to)).toEqual([CUSTOMER_LINE]);
      expect(await w.db.select().from(devMail)).toHaveLength(1);
      const rows = messages(await outbox()).map((row) => `${row.channel}:${row.kind}`);
      expect(rows.sort()).toEqual([
        'email:reservation_accepted',
        'line:reservation_accepted',
        'line:staff_new_reservation',
      ]);
      const staffRow = (await outbox()).find((row) => row.kind === 'staff_new_reservation');
      expect(staffRow).toMatchObject({ status: 'failed', line_push_month: null });
      expect(result).toMatchObject({ sent: 2, failed: 1 });
      expect(await pushesCounted()).toBe(pushesBefore + 1);
    } finally {
      await w.setSalon({ line_monthly_push_limit: 0 });
    }
  });

  it('fails an event whose reservation is gone, with the reason, and sends nothing', async () => {
    const booking = await book();
    await w.db.delete(reservations).where(eq(reservations.id, booking.id));
    const result = await drain();
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'failed',
      last_error: `reservation ${booking.id} no longer exists`,
    });
    expect(await w.db.select().from(devMail)).toHaveLength(0);
    expect(line.accepted).toHaveLength(0);
  });
});
