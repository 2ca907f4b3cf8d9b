import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, Executor } from '../../server/db/client';
import {
  customers,
  devLineInbox,
  devMail,
  notificationsOutbox,
  reservations,
  salons,
  services,
  staffUsers,
} from '../../server/db/schema';
import { listInbox } from '../../server/integrations/line/inbox';
import { createLinePusher } from '../../server/integrations/line/pusher';
import { listDevMail } from '../../server/integrations/mail/dev-mailbox';
import { createMailer } from '../../server/integrations/mail/mailer';
import { claimDueNotifications, enqueueNotification, enqueueNotifications } from '../../server/outbox/outbox';
import { enqueueDueReminders } from '../../server/outbox/reminders';
import {
  queueReservationNotifications,
  type ReservationNotificationContext,
} from '../../server/outbox/reservation-notifications';
import { createOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from '../../server/outbox/worker';
import { localDateTimeToInstant } from '../../src/shared/time';
import { createTestDatabase, testEngine } from '../helpers/database';
import { startFakeLineMessaging, type FakeLineMessaging } from '../helpers/fake-line-messaging';
import { startFakeSmtp, type FakeSmtpServer } from '../helpers/fake-smtp';
import { lineTexts } from '#tests/helpers/line-text';

const SALON_NAME = 'ネイルサロン Lumière';
const TZ = 'Asia/Tokyo';
const PUBLIC_URL = 'https://salon.example.jp';
const ACCESS_TOKEN = 'test-channel-access-token';
const CUSTOMER_LINE = 'U0123456789abcdef0123456789abcdef';
const STAFF_LINE = 'Ufedcba9876543210fedcba9876543210';
const CUSTOMER_EMAIL = 'hanako@example.com';
/** Short timeouts keep the suite fast: a hanging peer costs 400 ms. */
const TRANSPORT_TIMEOUT_MS = 400;

type ReservationRow = typeof reservations.$inferSelect;

describe(`notifications outbox on ${testEngine}`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  let ids: { salon: number; staff: number; customer: number; walkIn: number; service: number };
  let smtp: FakeSmtpServer;
  let line: FakeLineMessaging;
  const workers: OutboxWorker[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    const [salon] = await db.insert(salons).values({ name: SALON_NAME }).returning();
    const [staff] = await db
      .insert(staffUsers)
      .values({ salon_id: salon!.id, username: 'sato', full_name: '佐藤', line_user_id: STAFF_LINE })
      .returning();
    const [customer, walkIn] = await db
      .insert(customers)
      .values([
        { salon_id: salon!.id, name: '山田 花子', email: CUSTOMER_EMAIL, line_user_id: CUSTOMER_LINE },
        { salon_id: salon!.id, name: '田中 一郎' },
      ])
      .returning();
    const [service] = await db
      .insert(services)
      .values({ salon_id: salon!.id, name: 'ジェルネイル', price: 6600, duration_minutes: 90 })
      .returning();
    ids = { salon: salon!.id, staff: staff!.id, customer: customer!.id, walkIn: walkIn!.id, service: service!.id };
  });
  afterAll(() => database?.drop());

  beforeEach(async () => {
    await db.delete(notificationsOutbox);
    await db.delete(reservations);
    await db.delete(devMail);
    await db.delete(devLineInbox);
    await db.update(salons).set({ reminders_enabled: true });
    smtp = await startFakeSmtp();
    line = await startFakeLineMessaging({ accessToken: ACCESS_TOKEN });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all([smtp.close(), line.close()]);
  });

  /** A worker on the test database sending to the fakes (or to the dev mailbox and inbox with `dev`). */
  function makeWorker(
    overrides: Partial<OutboxWorkerOptions> & { dev?: boolean; transportTimeoutMs?: number } = {},
  ): OutboxWorker {
    const { dev, transportTimeoutMs = TRANSPORT_TIMEOUT_MS, ...rest } = overrides;
    const worker = createOutboxWorker({
      db,
      mailer: createMailer(
        { SMTP_URL: dev ? undefined : smtp.url, MAIL_FROM: `${SALON_NAME} <no-reply@salon.example.jp>` },
        db,
        { timeoutMs: transportTimeoutMs },
      ),
      line: createLinePusher(
        { LINE_MESSAGING_ACCESS_TOKEN: dev ? undefined : ACCESS_TOKEN, LINE_API_BASE: line.url },
        db,
        { timeoutMs: transportTimeoutMs },
      ),
      publicUrl: PUBLIC_URL,
      timeZone: TZ,
      // Far away: the transports' own timeouts must end a hanging send (the backstop has its own test).
      sendTimeoutMs: 30_000,
      leaseMs: 60_000,
      backoffBaseMs: 0,
      pollIntervalMs: 10,
      ...rest,
    });
    workers.push(worker);
    return worker;
  }

  let nextDay = 0;
  async function insertReservation(
    input: Partial<
      Pick<
        ReservationRow,
        'status' | 'customer_email' | 'customer_id' | 'service_name' | 'reminder_sent_at' | 'created_at'
      >
    > & {
      start?: string;
    } = {},
    executor: Executor = db,
  ): Promise<ReservationRow> {
    // Distinct days by default: the exclusion constraint forbids overlapping active reservations.
    nextDay += 1;
    const start = localDateTimeToInstant(
      input.start ??
        `2025-06-${String((nextDay % 28) + 1).padStart(2, '0')}T${String(9 + Math.floor(nextDay / 28)).padStart(2, '0')}:00:00`,
      TZ,
    );
    const [row] = await executor
      .insert(reservations)
      .values({
        salon_id: ids.salon,
        staff_id: ids.staff,
        customer_id: input.customer_id ?? ids.customer,
        service_id: ids.service,
        start_time: start,
        end_time: new Date(start.getTime() + 90 * 60_000),
        status: input.status ?? 'pending',
        service_name: input.service_name ?? 'ジェルネイル',
        price: 6600,
        duration_minutes: 90,
        customer_name: '山田 花子',
        customer_email: input.customer_email ?? CUSTOMER_EMAIL,
        created_by: 'customer',
        reminder_sent_at: input.reminder_sent_at ?? null,
        created_at: input.created_at ?? new Date('2025-01-01T00:00:00Z'),
      })
      .returning();
    return row!;
  }

  function contextFor(
    reservation: ReservationRow,
    links: { customer?: string | null; staff?: string | null } = {},
  ): ReservationNotificationContext {
    return {
      reservation,
      customerLineUserId: links.customer === undefined ? CUSTOMER_LINE : links.customer,
      staffLineUserId: links.staff === undefined ? STAFF_LINE : links.staff,
      salonName: SALON_NAME,
      publicUrl: PUBLIC_URL,
      timeZone: TZ,
    };
  }

  /** Books (inserts) a reservation and queues its 'created' messages in one transaction, as the booking does. */
  async function bookWithNotifications(start?: string) {
    return db.transaction(async (tx) => {
      const reservation = await insertReservation({ start }, tx);
      const outboxIds = await queueReservationNotifications(tx, 'created', contextFor(reservation));
      return { reservation, outboxIds };
    });
  }

  const outboxRows = () => db.select().from(notificationsOutbox).orderBy(asc(notificationsOutbox.id));

  describe('queuing', () => {
    it('queues each event’s messages in the caller’s transaction, and none when it rolls back', async () => {
      const reservation = await insertReservation({ start: '2025-01-31T09:00:00' });
      const kinds = async (event: 'created' | 'confirmed' | 'cancelled') => {
        await db.delete(notificationsOutbox);
        await db.transaction((tx) => queueReservationNotifications(tx, event, contextFor(reservation)));
        return (await outboxRows()).map((row) => [row.channel, row.kind, row.recipient, row.status]);
      };
      expect(await kinds('created')).toEqual([
        ['email', 'reservation_accepted', CUSTOMER_EMAIL, 'pending'],
        ['line', 'reservation_accepted', CUSTOMER_LINE, 'pending'],
        ['line', 'staff_new_reservation', STAFF_LINE, 'pending'],
      ]);
      expect(await kinds('confirmed')).toEqual([
        ['email', 'reservation_confirmed', CUSTOMER_EMAIL, 'pending'],
        ['line', 'reservation_confirmed', CUSTOMER_LINE, 'pending'],
      ]);
      expect(await kinds('cancelled')).toEqual([
        ['email', 'reservation_cancelled', CUSTOMER_EMAIL, 'pending'],
        ['line', 'reservation_cancelled', CUSTOMER_LINE, 'pending'],
        ['line', 'staff_reservation_cancelled', STAFF_LINE, 'pending'],
      ]);

      // Only where there is an address: a walk-in without e-mail or LINE, served by an unlinked staff member.
      await db.delete(notificationsOutbox);
      const walkIn = { ...reservation, customer_email: '' };
      await queueReservationNotifications(db, 'created', contextFor(walkIn, { customer: null, staff: null }));
      expect(await outboxRows()).toEqual([]);

      // The messages belong to the change: a rolled-back booking leaves none.
      await expect(
        db.transaction(async (tx) => {
          await queueReservationNotifications(tx, 'created', contextFor(reservation));
          throw new Error('booking failed');
        }),
      ).rejects.toThrow('booking failed');
      expect(await outboxRows()).toEqual([]);
    });

    it('renders Japanese texts with the number, the salon-local date, the service, the yen price and the link', async () => {
      const reservation = await insertReservation({ start: '2025-01-31T09:00:00' });
      await queueReservationNotifications(db, 'created', contextFor(reservation));
      const [email, customerLine, staffLine] = await outboxRows();
      const number = reservation.reservation_number;
      expect(email!.payload).toEqual({
        subject: `【${SALON_NAME}】ご予約を受け付けました`,
        text: expect.stringContaining(`予約番号: ${number}`),
      });
      for (const text of [
        (email!.payload as { text: string }).text,
        lineTexts(customerLine!.payload as { messages: unknown[] }),
      ]) {
        expect(text).toContain('山田 花子 様');
        expect(text).toContain(`予約番号: ${number}`);
        expect(text).toContain('日時: 2025年1月31日(金) 09:00');
        expect(text).toContain('メニュー: ジェルネイル');
        expect(text).toContain('料金: ¥6,600');
        expect(text).toContain(`${PUBLIC_URL}/reservations/${number}`);
      }
      const staffMessages = (staffLine!.payload as { messages: Array<{ type: string }> }).messages;
      expect(staffMessages.map((message) => message.type)).toEqual(['flex']);
      const staffText = lineTexts(staffMessages);
      expect(staffText).toContain('【新しいご予約】');
      expect(staffText).toContain('お客様: 山田 花子 様');
      expect(staffText).toContain(`予約を確認する: ${PUBLIC_URL}/admin/reservations/${number}`);
      // Each row has its own retry key, fixed at queue time.
      expect(new Set([email, customerLine, staffLine].map((row) => row!.retry_key)).size).toBe(3);
    });
  });

  describe('delivery', () => {
    it('delivers every message exactly once through a refusal, a timeout and a success; LINE sees one retry key per message', async () => {
      const { reservation, outboxIds } = await bookWithNotifications('2025-01-31T09:00:00');
      expect(outboxIds).toHaveLength(3);
      // SMTP: 451, then a server that never answers MAIL FROM, then a normal one.
      smtp.script(['refuse', 'hang', 'accept']);
      // LINE: every message gets a 500, then no answer at all, then LINE's normal answer.
      line.planPerMessage([500, 'hang']);

      const warnings: string[] = [];
      const logger = {
        info() {},
        error() {},
        warn: (obj: object) => warnings.push(String((obj as { err: string }).err)),
      };
      const started = Date.now();
      const result = await makeWorker({ logger }).drainOnce();
      expect(result).toEqual({ sent: 3, skipped: 0, retried: 6, failed: 0 });
      // Each hang cost one transport timeout (sends run side by side), not the worker's 30 s backstop.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(warnings.sort()).toEqual(
        [
          'SMTP: Mail command failed: 451 Temporary local problem, try again later',
          'SMTP: Timeout',
          'LINE push answered 500: {"message":"An error occurred in the server"}',
          'LINE push answered 500: {"message":"An error occurred in the server"}',
          `LINE push timed out after ${TRANSPORT_TIMEOUT_MS} ms`,
          `LINE push timed out after ${TRANSPORT_TIMEOUT_MS} ms`,
        ].sort(),
      );

      expect(smtp.connections).toEqual(['refuse', 'hang', 'accept']);
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0]!;
      const number = reservation.reservation_number;
      expect(mail.envelopeTo).toEqual([CUSTOMER_EMAIL]);
      expect(mail.headers.to).toBe(CUSTOMER_EMAIL);
      expect(mail.headers.from).toBe(`${SALON_NAME} <no-reply@salon.example.jp>`);
      expect(mail.subject).toBe(`【${SALON_NAME}】ご予約を受け付けました`);
      expect(mail.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/i);
      expect(mail.text).toContain('山田 花子 様');
      expect(mail.text).toContain('ご予約を受け付けました');
      expect(mail.text).toContain(`予約番号: ${number}`);
      expect(mail.text).toContain('日時: 2025年1月31日(金) 09:00');
      expect(mail.text).toContain('メニュー: ジェルネイル');
      expect(mail.text).toContain('料金: ¥6,600');
      expect(mail.text).toContain(`${PUBLIC_URL}/reservations/${number}`);

      const rows = await outboxRows();
      expect(rows.map((row) => [row.status, row.attempts, row.last_error])).toEqual([
        ['sent', 3, null],
        ['sent', 3, null],
        ['sent', 3, null],
      ]);
      // Per recipient: three attempts (500, no answer, 200), all with the one retry key of its outbox row.
      for (const recipient of [CUSTOMER_LINE, STAFF_LINE]) {
        const attempts = line.requests.filter((request) => request.to === recipient);
        const row = rows.find((candidate) => candidate.channel === 'line' && candidate.recipient === recipient)!;
        expect(attempts.map((request) => request.status)).toEqual([500, null, 200]);
        expect(new Set(attempts.map((request) => request.retryKey))).toEqual(new Set([row.retry_key]));
        expect(attempts.every((request) => request.authorization === `Bearer ${ACCESS_TOKEN}`)).toBe(true);
      }
      expect(line.accepted.map((push) => push.to).sort()).toEqual([STAFF_LINE, CUSTOMER_LINE].sort());
      expect(lineTexts(line.accepted.find((push) => push.to === CUSTOMER_LINE))).toContain('料金: ¥6,600');
    });

    it('wakes within the wake delay share one poll: their rows go in one batch, marked sent together', async () => {
      const worker = makeWorker({ wakeDelayMs: 300, pollIntervalMs: 60_000 });
      worker.start();
      await new Promise((resolve) => setTimeout(resolve, 100)); // The start's own poll, with nothing due.
      const queued: number[] = [];
      const firstWake = Date.now();
      for (const text of ['一通目', '二通目', '三通目']) {
        queued.push(
          await enqueueNotification(db, {
            salonId: ids.salon,
            channel: 'email',
            kind: 'reservation_accepted',
            recipient: CUSTOMER_EMAIL,
            payload: { subject: '件名', text },
          }),
        );
        worker.wake();
        await new Promise((resolve) => setTimeout(resolve, 80));
      }
      const rows = async () => db.select().from(notificationsOutbox).where(inArray(notificationsOutbox.id, queued));
      await waitFor(async () => (await rows()).every((row) => row.status === 'sent'));
      const sentAt = (await rows()).map((row) => row.sent_at!.getTime());
      // One poll, not before the first wake's delay: one mark for the whole batch.
      expect(new Set(sentAt).size).toBe(1);
      expect(sentAt[0]).toBeGreaterThanOrEqual(firstWake + 300);
      expect(smtp.received.map((mail) => mail.text.trim()).sort()).toEqual(['一通目', '三通目', '二通目'].sort());
    });

    it('backs off exponentially, then gives up after maxAttempts; undeliverable messages fail at once', async () => {
      let clock = new Date('2025-01-30T03:00:00Z');
      const worker = makeWorker({ now: () => clock, backoffBaseMs: 1000, maxAttempts: 3 });
      smtp.fallback('refuse');
      const id = await enqueueNotification(db, {
        salonId: ids.salon,
        channel: 'email',
        kind: 'reservation_accepted',
        recipient: CUSTOMER_EMAIL,
        payload: { subject: '件名', text: '本文' },
      });
      const row = async () => (await db.select().from(notificationsOutbox).where(eq(notificationsOutbox.id, id)))[0]!;
      const waited = async () => (await row()).next_attempt_at.getTime() - clock.getTime();

      expect(await worker.drainOnce()).toMatchObject({ retried: 1 });
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('451') });
      expect(await waited()).toBeGreaterThanOrEqual(1000);
      expect(await waited()).toBeLessThanOrEqual(1100);
      // Not due yet: nothing happens.
      expect(await worker.drainOnce()).toEqual({ sent: 0, skipped: 0, retried: 0, failed: 0 });

      clock = new Date(clock.getTime() + 1100);
      expect(await worker.drainOnce()).toMatchObject({ retried: 1 });
      expect(await row()).toMatchObject({ status: 'pending', attempts: 2 });
      expect(await waited()).toBeGreaterThanOrEqual(2000);
      expect(await waited()).toBeLessThanOrEqual(2200);

      clock = new Date(clock.getTime() + 2200);
      expect(await worker.drainOnce()).toMatchObject({ failed: 1 });
      expect(await row()).toMatchObject({ status: 'failed', attempts: 3, last_error: expect.stringContaining('451') });
      expect(smtp.connections).toHaveLength(3);
      expect(smtp.received).toEqual([]);

      // A header-injection attempt never reaches the SMTP server, and a message LINE rejects as invalid (400)
      // is not retried.
      line.always(400);
      const [injected, rejected] = await enqueueNotifications(db, [
        {
          salonId: ids.salon,
          channel: 'email',
          kind: 'reservation_accepted',
          recipient: 'a@example.com\r\nBcc: victim@example.com',
          payload: { subject: '件名', text: '本文' },
        },
        {
          salonId: ids.salon,
          channel: 'line',
          kind: 'reservation_accepted',
          recipient: CUSTOMER_LINE,
          payload: { messages: [{ type: 'text', text: 'テスト' }] },
        },
      ]);
      expect(await worker.drainOnce()).toEqual({ sent: 0, skipped: 0, retried: 0, failed: 2 });
      const failed = await db
        .select()
        .from(notificationsOutbox)
        .where(inArray(notificationsOutbox.id, [injected!, rejected!]));
      expect(failed.map((r) => [r.status, r.attempts])).toEqual([
        ['failed', 1],
        ['failed', 1],
      ]);
      expect(smtp.connections).toHaveLength(3);
    });
  });

  describe('time limits', () => {
    it('the worker’s own limit ends a send that hangs outside the transports’ timeouts', async () => {
      const never = () => new Promise<never>(() => {});
      const worker = createOutboxWorker({
        db,
        mailer: { mode: 'smtp', send: never, close() {} },
        line: { mode: 'live', push: never },
        publicUrl: PUBLIC_URL,
        timeZone: TZ,
        sendTimeoutMs: 100,
        backoffBaseMs: 60_000,
      });
      workers.push(worker);
      await enqueueNotifications(db, [
        {
          salonId: ids.salon,
          channel: 'email',
          kind: 'reservation_accepted',
          recipient: CUSTOMER_EMAIL,
          payload: { subject: '件名', text: '本文' },
        },
        {
          salonId: ids.salon,
          channel: 'line',
          kind: 'reservation_accepted',
          recipient: CUSTOMER_LINE,
          payload: { messages: [{ type: 'text', text: 'テスト' }] },
        },
      ]);
      expect(await worker.drainOnce()).toEqual({ sent: 0, skipped: 0, retried: 2, failed: 0 });
      expect((await outboxRows()).map((row) => [row.status, row.last_error])).toEqual([
        ['pending', 'send timed out after 100 ms'],
        ['pending', 'send timed out after 100 ms'],
      ]);
    });
  });

  describe('restarts and several workers', () => {
    it('a restart in between loses nothing: a new worker finishes what the old one could not, once', async () => {
      const { outboxIds } = await bookWithNotifications();
      // The first worker meets an SMTP outage, and LINE accepts both pushes but the answers are lost.
      smtp.fallback('refuse');
      line.planPerMessage(['accept-and-hang']);
      const first = makeWorker({ backoffBaseMs: 60_000 });
      expect(await first.drainOnce()).toEqual({ sent: 0, skipped: 0, retried: 3, failed: 0 });
      await first.stop();
      expect((await outboxRows()).map((row) => [row.status, row.attempts])).toEqual([
        ['pending', 1],
        ['pending', 1],
        ['pending', 1],
      ]);

      // "Restart": new transports, new worker, later clock; the outage is over.
      smtp.fallback('accept');
      const second = makeWorker({ now: () => new Date(Date.now() + 5 * 60_000) });
      expect(await second.drainOnce()).toEqual({ sent: 3, skipped: 0, retried: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      // LINE answered 409 to the repeated retry keys: accepted once each, and the rows count as sent.
      expect(line.accepted).toHaveLength(2);
      expect(line.requests.map((request) => request.status).sort()).toEqual([409, 409, null, null]);
      const rows = await outboxRows();
      expect(rows.map((row) => row.id)).toEqual(outboxIds);
      expect(rows.map((row) => [row.status, row.attempts])).toEqual([
        ['sent', 2],
        ['sent', 2],
        ['sent', 2],
      ]);
    });

    it('a worker that dies mid-send leaves a lease; once it runs out another worker sends the rows, once', async () => {
      await bookWithNotifications();
      // A worker claims the rows and crashes before sending anything.
      const crashed = await claimDueNotifications(db, { now: new Date(), leaseMs: 1000, limit: 10 });
      expect(crashed).toHaveLength(3);
      const survivor = makeWorker();
      // The lease still holds: the rows are not taken.
      expect(await survivor.drainOnce()).toEqual({ sent: 0, skipped: 0, retried: 0, failed: 0 });
      expect((await outboxRows()).every((row) => row.status === 'sending')).toBe(true);

      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await survivor.drainOnce()).toEqual({ sent: 3, skipped: 0, retried: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      expect(line.accepted).toHaveLength(2);
      expect(line.requests).toHaveLength(2);
      expect((await outboxRows()).map((row) => [row.status, row.attempts])).toEqual([
        ['sent', 2],
        ['sent', 2],
        ['sent', 2],
      ]);
    });

    it('stop() waits for the batch in flight; a new worker then sends the rest, once', async () => {
      await bookWithNotifications();
      // The SMTP server never sends its greeting; LINE never answers the first attempt.
      smtp.script(['silent']);
      line.planPerMessage(['hang']);
      const first = makeWorker({ backoffBaseMs: 60_000 });
      first.start();
      expect(first.running).toBe(true);
      await waitFor(() => smtp.connections.length + line.requests.length >= 3);
      await first.stop();
      expect(first.running).toBe(false);
      // Nothing left half-done: the in-flight batch finished (timed out) before stop() returned.
      expect((await outboxRows()).map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);

      const second = makeWorker({ now: () => new Date(Date.now() + 5 * 60_000) });
      expect(await second.drainOnce()).toEqual({ sent: 3, skipped: 0, retried: 0, failed: 0 });
      expect(smtp.received).toHaveLength(1);
      expect(line.accepted).toHaveLength(2);
    });

    it('several workers draining side by side never send a row twice', async () => {
      const count = 15;
      await enqueueNotifications(db, [
        ...Array.from({ length: count }, (_, i) => ({
          salonId: ids.salon,
          channel: 'email' as const,
          kind: 'reservation_accepted',
          recipient: `customer${i}@example.com`,
          payload: { subject: `件名${i}`, text: `本文${i}` },
        })),
        ...Array.from({ length: count }, (_, i) => ({
          salonId: ids.salon,
          channel: 'line' as const,
          kind: 'reservation_accepted',
          recipient: `U${String(i).padStart(32, '0')}`,
          payload: { messages: [{ type: 'text' as const, text: `メッセージ${i}` }] },
        })),
      ]);
      // Slow peers keep every worker's batch in flight while the others claim.
      smtp.acceptDelayMs = 20;
      line.delayMs = 20;
      // Generous timeouts: a retry after a slow answer would be a legitimate second request, not a double claim.
      const results = await Promise.all(
        [1, 2, 3].map(() =>
          makeWorker({ batchSize: 4, transportTimeoutMs: 10_000, sendTimeoutMs: 20_000 }).drainOnce(),
        ),
      );

      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(2 * count);
      expect(results.reduce((sum, result) => sum + result.retried + result.failed, 0)).toBe(0);
      expect(results.filter((result) => result.sent > 0).length).toBeGreaterThanOrEqual(2);
      expect(smtp.received).toHaveLength(count);
      expect(new Set(smtp.received.map((mail) => mail.envelopeTo[0])).size).toBe(count);
      expect(line.requests).toHaveLength(count);
      expect(new Set(line.requests.map((request) => request.retryKey)).size).toBe(count);
      expect((await outboxRows()).every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    });
  });

  describe('reminders', () => {
    it('are queued once for tomorrow’s active reservations and rendered from the reservation when sent', async () => {
      const noon = localDateTimeToInstant('2025-01-30T12:00:00', TZ);
      const a = await insertReservation({ start: '2025-01-31T09:00:00' });
      const b = await insertReservation({
        start: '2025-01-31T11:00:00',
        status: 'confirmed',
        customer_email: 'b@example.com',
      });
      await insertReservation({ start: '2025-01-31T14:00:00', status: 'cancelled' });
      await insertReservation({ start: '2025-02-01T10:00:00' });
      await insertReservation({ start: '2025-01-30T15:00:00' });
      await insertReservation({ start: '2025-01-31T16:00:00', reminder_sent_at: new Date('2025-01-29T03:00:00Z') });
      const walkIn = await insertReservation({
        start: '2025-01-31T18:00:00',
        customer_id: ids.walkIn,
        customer_email: '',
      });
      // Booked this morning: its acceptance message is recent enough, no reminder.
      await insertReservation({
        start: '2025-01-31T19:30:00',
        created_at: localDateTimeToInstant('2025-01-30T09:00:00', TZ),
      });

      // Quiet hours, then a salon with reminders off: nothing.
      expect(
        await enqueueDueReminders(db, { now: localDateTimeToInstant('2025-01-30T08:00:00', TZ), timeZone: TZ }),
      ).toBe(0);
      await db.update(salons).set({ reminders_enabled: false });
      expect(await enqueueDueReminders(db, { now: noon, timeZone: TZ })).toBe(0);
      await db.update(salons).set({ reminders_enabled: true });
      expect(await outboxRows()).toEqual([]);

      // Two instances at once, then again later: each reservation is queued once.
      const counts = await Promise.all([
        enqueueDueReminders(db, { now: noon, timeZone: TZ }),
        enqueueDueReminders(db, { now: noon, timeZone: TZ }),
      ]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(3);
      expect(await enqueueDueReminders(db, { now: new Date(noon.getTime() + 3_600_000), timeZone: TZ })).toBe(0);
      const queued = await outboxRows();
      expect(queued.map((row) => [row.reservation_id, row.channel, row.recipient, row.kind, row.payload])).toEqual(
        expect.arrayContaining([
          [a.id, 'email', CUSTOMER_EMAIL, 'reminder', { template: 'reminder' }],
          [a.id, 'line', CUSTOMER_LINE, 'reminder', { template: 'reminder' }],
          [b.id, 'email', 'b@example.com', 'reminder', { template: 'reminder' }],
          [b.id, 'line', CUSTOMER_LINE, 'reminder', { template: 'reminder' }],
        ]),
      );
      expect(queued).toHaveLength(4);
      const marked = await db
        .select({ id: reservations.id })
        .from(reservations)
        .where(eq(reservations.reminder_sent_at, noon));
      expect(marked.map((row) => row.id).sort()).toEqual([a.id, b.id, walkIn.id].sort());

      // After queuing: the service of A changes, B is cancelled. The reminders follow.
      await db
        .update(reservations)
        .set({ service_name: 'ジェルネイル（季節のデザイン）' })
        .where(eq(reservations.id, a.id));
      await db.update(reservations).set({ status: 'cancelled' }).where(eq(reservations.id, b.id));
      const worker = makeWorker({ dev: true, now: () => noon });
      expect(await worker.drainOnce()).toEqual({ sent: 2, skipped: 2, retried: 0, failed: 0 });

      const mails = await listDevMail(db);
      expect(mails.map((mail) => mail.to)).toEqual([CUSTOMER_EMAIL]);
      expect(mails[0]!.subject).toBe(`【${SALON_NAME}】明日のご予約のお知らせ`);
      expect(mails[0]!.text).toContain('メニュー: ジェルネイル（季節のデザイン）');
      expect(mails[0]!.text).toContain('日時: 2025年1月31日(金) 09:00');
      expect(mails[0]!.text).toContain(`${PUBLIC_URL}/reservations/${a.reservation_number}`);
      const pushes = await listInbox(db);
      expect(pushes).toHaveLength(1);
      expect(pushes[0]!.messages[0]).toMatchObject({
        type: 'flex',
        altText: expect.stringContaining('季節のデザイン'),
      });

      const skipped = (await outboxRows()).filter((row) => row.reservation_id === b.id);
      expect(skipped.map((row) => [row.status, row.last_error])).toEqual([
        ['sent', 'skipped: the reservation is cancelled'],
        ['sent', 'skipped: the reservation is cancelled'],
      ]);
    });
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
