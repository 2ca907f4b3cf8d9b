/**
 * Two instances on one PostgreSQL (issue 8; docs/architecture.md#operating-contract: "several stateless Node instances on one
 * PostgreSQL"). Two real server processes (`npm start`) share a fresh database, one SMTP server and one LINE
 * API. The test shows that:
 * - both can start at the same moment on an empty database (migrations and first-start data are serialized);
 * - bookings racing for the same times, spread over both, never overlap (the exclusion constraint, checked
 *   again in SQL), and every 201 is exactly one row;
 * - a change made on one instance reaches an event stream opened on the other (LISTEN/NOTIFY), exactly once,
 *   and the instance that made it delivers it to its own streams exactly once too;
 * - the two outbox workers, competing for the same rows, send every message exactly once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { openEventStream, type EventStream } from '../helpers/event-stream';
import type { FakeLineMessaging } from '../helpers/fake-line-messaging';
import type { FakeSmtpServer } from '../helpers/fake-smtp';
import { createScratchDatabase } from '../helpers/postgres-cluster';
import {
  bookOn,
  seedProcessWorld,
  startServerProcesses,
  waitFor,
  type ProcessWorld,
  queryRows,
  startFakePeers,
  type OutboxRow,
} from '../helpers/process-world';
import type { ServerProcess } from '../helpers/server-process';
import { request, type ApiResult } from '../helpers/app';

describe('two server processes on one PostgreSQL', () => {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let smtp: FakeSmtpServer;
  let line: FakeLineMessaging;
  let a: ServerProcess;
  let b: ServerProcess;
  let db: DatabaseHandle;
  let world: ProcessWorld;
  let env: Record<string, string>;
  const streams: EventStream[] = [];
  /** Every reservation number a 201 returned, and which instance answered it. */
  const created = new Map<string, 'a' | 'b'>();

  const rows = <T>(query: SQL) => queryRows<T>(db, query);

  beforeAll(async () => {
    if (!adminUrl) throw new Error('TEST_POSTGRES_URL is not set: run through `npm test`, which starts PostgreSQL.');
    scratch = await createScratchDatabase(adminUrl, 'two_instances');
    // Slow peers widen the window in which both workers hold claimed rows at the same time.
    ({ smtp, line, env } = await startFakePeers({ DATABASE_URL: scratch.url }, 30));
    // Both at once on the empty database, as two replicas of a first deployment start.
    [a, b] = (await startServerProcesses([env, env])) as [ServerProcess, ServerProcess];
    db = await openDatabase({ databaseUrl: scratch.url });
    world = await seedProcessWorld({ databaseUrl: scratch.url }, env.JWT_SECRET!, { staff: 3, customers: 40 });
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.close();
    await Promise.all([smtp?.close(), line?.close()]);
    await scratch?.drop();
  });

  async function stream(server: ServerProcess, token: string) {
    const opened = await openEventStream(server.url, token);
    streams.push(opened);
    expect(opened.status).toBe(200);
    await opened.next((m) => m.event === 'ready', 5_000);
    return opened;
  }

  it('both started on the empty database: one salon, one superuser, migrations applied once', async () => {
    const salons = await rows<{ count: number }>(sql`select count(*)::int as count from salons`);
    expect(salons[0]!.count).toBe(1);
    const admins = await rows<{ count: number }>(
      sql`select count(*)::int as count from staff_users where is_superuser`,
    );
    expect(admins[0]!.count).toBe(1);
    for (const server of [a, b]) {
      const config = await request(server.url, '/api/salons/');
      expect(config.status).toBe(200);
    }
  });

  it('parallel bookings spread over both instances never overlap, and every 201 is one row', async () => {
    const [streamA, streamB] = await Promise.all([stream(a, world.admin.token), stream(b, world.admin.token)]);
    // 120 bookings at once for 15 starts of 3 staff members: far more requests than room. The first third of the
    // starts is asked of instance a only and the second of b only, so that each instance books whichever starts
    // first (one that warmed up sooner could otherwise take every start); the last third is asked of both, and
    // neighbouring starts overlap across the thirds, so the two instances still race for the same staff time.
    const third = Math.ceil(world.starts.length / 3);
    const attempts = Array.from({ length: 120 }, (_, i) => {
      const index = (i * 7) % world.starts.length;
      const server: 'a' | 'b' = index < third ? 'a' : index < 2 * third ? 'b' : i % 2 === 0 ? 'a' : 'b';
      return { server, customer: world.customers[i % world.customers.length]!, start: world.starts[index]! };
    });
    const results: Array<{ server: 'a' | 'b'; result: ApiResult }> = await Promise.all(
      attempts.map(async (attempt) => ({
        server: attempt.server,
        result: await bookOn(attempt.server === 'a' ? a.url : b.url, world, attempt.customer, attempt.start),
      })),
    );
    const statuses = results.map((r) => r.result.status);
    const unexpected = results.filter((r) => r.result.status !== 201 && r.result.status !== 409);
    expect(unexpected.map((r) => `${r.result.status} ${r.result.text}`)).toEqual([]);
    for (const { server, result } of results) {
      if (result.status === 201) created.set(String(result.body.reservation_number), server);
      // A lost race is a 409 with a Japanese message, never a 500.
      else expect(String(result.body.detail)).toMatch(/[ぁ-んァ-ヶ一-龯]/);
    }
    // Both instances booked, and both lost races.
    const byServer = (server: 'a' | 'b', status: number) =>
      results.filter((r) => r.server === server && r.result.status === status).length;
    expect(byServer('a', 201), `statuses: ${JSON.stringify(statuses)}`).toBeGreaterThan(0);
    expect(byServer('b', 201)).toBeGreaterThan(0);
    expect(byServer('a', 409) + byServer('b', 409)).toBeGreaterThan(0);

    const overlaps = await rows<{ a: number; b: number }>(sql`
      select r1.id as a, r2.id as b from reservations r1 join reservations r2
        on r1.staff_id = r2.staff_id and r1.id < r2.id
       and tstzrange(r1.start_time, r1.end_time, '[)') && tstzrange(r2.start_time, r2.end_time, '[)')
      where r1.status in ('pending', 'confirmed') and r2.status in ('pending', 'confirmed')`);
    expect(overlaps).toEqual([]);
    const stored = await rows<{ reservation_number: string }>(sql`select reservation_number from reservations`);
    expect(stored.map((r) => r.reservation_number).sort()).toEqual([...created.keys()].sort());
    // 3 staff members x 8 one-hour bookings between 10:00 and 18:00 is the most that can fit.
    expect(created.size).toBeLessThanOrEqual(24);

    // Every booking reached the superuser's stream on both instances, once: the instance that made it
    // delivered it locally, the other heard it through LISTEN/NOTIFY (and neither heard its own NOTIFY again).
    for (const s of [streamA, streamB]) {
      await waitFor(
        async () => (s.reservations().length >= created.size ? true : undefined),
        5_000,
        () => `${s.reservations().length} of ${created.size} events`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const s of [streamA, streamB]) {
      const numbers = s.reservations().map((event) => event.reservation_number);
      expect(numbers.sort()).toEqual([...created.keys()].sort());
      expect(s.reservations().every((event) => event.action === 'created' && event.by === 'customer')).toBe(true);
    }
  });

  it('a change on one instance reaches a staff member’s stream on the other within a second, scoped', async () => {
    const [number, server] = [...created].find(([, s]) => s === 'a')!;
    const [reservation] = await rows<{ staff_id: number }>(
      sql`select staff_id from reservations where reservation_number = ${number}`,
    );
    const owner = world.staff.find((s) => s.id === reservation!.staff_id)!;
    const other = world.staff.find((s) => s.id !== owner.id)!;
    expect(server).toBe('a');
    // Streams on B; the change is made on A by the staff member who owns the reservation.
    const [ownerOnB, otherOnB] = await Promise.all([stream(b, owner.token), stream(b, other.token)]);
    const started = Date.now();
    const confirmed = await request(a.url, `/api/admin/reservations/${number}/confirm/`, {
      method: 'POST',
      token: owner.token,
    });
    expect(confirmed.status).toBe(200);
    const message = await ownerOnB.next((m) => m.event === 'reservation', 2_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(JSON.parse(message.data)).toMatchObject({
      action: 'confirmed',
      reservation_number: number,
      staff_id: owner.id,
      status: 'confirmed',
      by: 'staff',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(otherOnB.reservations()).toEqual([]);
    expect(ownerOnB.reservations()).toHaveLength(1);

    // And the other way round: cancelled on B, heard on A.
    const ownerOnA = await stream(a, owner.token);
    const cancelled = await request(b.url, `/api/admin/reservations/${number}/cancel/`, {
      method: 'POST',
      token: owner.token,
    });
    expect(cancelled.status).toBe(200);
    const back = await ownerOnA.next((m) => m.event === 'reservation', 2_000);
    expect(JSON.parse(back.data)).toMatchObject({ action: 'cancelled', reservation_number: number });
  });

  it('a start booked out on one instance leaves the other instance’s availability at once, cache or not', async () => {
    const availableOn = async (server: ServerProcess, date: string) => {
      const answer = await request(server.url, `/api/availability/?date=${date}&service_id=${world.serviceId}`);
      expect(answer.status).toBe(200);
      return answer.body as unknown as string[];
    };
    // A start that A offers now: A has answered for its day and keeps that answer for a few seconds.
    let start: string | undefined;
    for (const candidate of world.starts) {
      if ((await availableOn(a, candidate.slice(0, 10))).includes(candidate.slice(11, 16))) {
        start = candidate;
        break;
      }
    }
    expect(start, 'some start is still free').toBeDefined();
    const [date, time] = [start!.slice(0, 10), start!.slice(11, 16)];

    // B books it until every staff member is taken at that start.
    let refused = false;
    for (const customer of world.customers) {
      const result = await bookOn(b.url, world, customer, start!);
      if (result.status === 409) {
        refused = true;
        break;
      }
      expect(result.status).toBe(201);
      created.set(String(result.body.reservation_number), 'b');
    }
    expect(refused).toBe(true);

    // A heard the bookings through LISTEN/NOTIFY and dropped its cached answer: well before the cache's own
    // 5-second lifetime, A no longer offers the start.
    const started = Date.now();
    await waitFor(
      async () => ((await availableOn(a, date)).includes(time) ? undefined : true),
      2_000,
      () => `A still offers ${start} after ${Date.now() - started} ms`,
    );
  });

  it('the two outbox workers send every queued message exactly once', async () => {
    const outbox = () =>
      rows<OutboxRow>(
        sql`select id, channel, kind, recipient, reservation_id, retry_key::text as retry_key, status, attempts from notifications_outbox order by id`,
      );
    const all = await waitFor(
      async () => {
        const current = await outbox();
        return current.length > 0 && current.every((row) => row.status === 'sent') ? current : undefined;
      },
      30_000,
      async () => JSON.stringify((await outbox()).filter((row) => row.status !== 'sent').slice(0, 5)),
    );
    // Each booking queued an e-mail and a LINE message to its customer and a LINE message to its staff member;
    // the confirmation and cancellation above queued theirs.
    const bookings = created.size;
    expect(all.filter((row) => row.kind === 'reservation_accepted' && row.channel === 'email')).toHaveLength(bookings);
    expect(all.filter((row) => row.kind === 'reservation_accepted' && row.channel === 'line')).toHaveLength(bookings);
    expect(all.filter((row) => row.kind === 'staff_new_reservation')).toHaveLength(bookings);
    expect(
      all.every((row) => row.attempts === 1),
      'no row needed a second attempt',
    ).toBe(true);

    // E-mail: one message per outbox row, each delivered once (no Message-ID twice, no recipient+subject twice).
    const emails = all.filter((row) => row.channel === 'email');
    await waitFor(
      async () => (smtp.received.length >= emails.length ? true : undefined),
      5_000,
      () => `${smtp.received.length} e-mails`,
    );
    expect(smtp.received).toHaveLength(emails.length);
    const messageIds = smtp.received.map((mail) => mail.headers['message-id']);
    expect(new Set(messageIds).size).toBe(messageIds.length);
    const deliveries = smtp.received.map(
      (mail) => `${mail.envelopeTo.join(',')}|${mail.subject}|${/予約番号: (\S+)/.exec(mail.text)?.[1]}`,
    );
    expect(new Set(deliveries).size).toBe(deliveries.length);
    expect(smtp.received.map((mail) => mail.envelopeTo.join(',')).sort()).toEqual(
      emails.map((row) => row.recipient).sort(),
    );

    // LINE: one request per outbox row (never a second send that LINE would have to drop), each accepted.
    const pushes = all.filter((row) => row.channel === 'line');
    expect(line.requests).toHaveLength(pushes.length);
    expect(line.requests.map((push) => push.retryKey).sort()).toEqual(pushes.map((row) => row.retry_key).sort());
    expect(line.accepted).toHaveLength(pushes.length);
    expect(line.requests.every((push) => push.status === 200)).toBe(true);
  });
});
