/**
 * Faults, part 1 (issue 8): `kill -9` of the server in the middle of a stream of bookings and of outbox sends,
 * then a restart on the same PostgreSQL database.
 * - Every 201 the client got is in the database; nothing is half-written: each reservation has all of its outbox
 *   rows (the booking and its messages are one transaction), and no request that died with the process left
 *   a trace.
 * - Every queued message is eventually sent: LINE exactly once per message (the retry key; the fake drops a
 *   repeat as LINE does); e-mail at least once, and a repeat only for a message whose send was cut off by the
 *   kill (SMTP has no retry key: a message the server took but whose answer never arrived is sent again).
 *   The rows the dead process had claimed wait for their lease (60 s) before the new process sends them; the
 *   test checks that the lease holds, then ends it rather than wait a minute (the lease running out is tested with
 *   a clock in tests/integration/outbox.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { ensureInitialData } from '../../server/db/seed';
import type { FakeLineMessaging } from '../helpers/fake-line-messaging';
import type { FakeSmtpServer } from '../helpers/fake-smtp';
import { createScratchDatabase } from '../helpers/postgres-cluster';
import {
  bookOn,
  PROCESS_ADMIN_PASSWORD,
  PROCESS_TZ,
  seedProcessWorld,
  waitFor,
  type ProcessWorld,
  queryRows,
  startFakePeers,
  type OutboxRow,
} from '../helpers/process-world';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

/** Slow peers: at any moment some messages are on their way. */
const PEER_DELAY_MS = 300;
/** LINE answering only after the kill (its timers then answer sockets the dead process left). */
const STALLED_MS = 15_000;

/**
 * Nothing half-written. Each booking's outbox is whole: its one event (the booking's own statement wrote it), and its
 * three messages (customer e-mail and LINE, staff LINE) exactly when the worker settled the event (one statement
 * marks it sent and stores them: server/outbox/event-delivery.ts). The rows are read with an event's reservation id
 * from its payload.
 */
function expectWholeOutbox(
  reservations: Array<{ id: number; reservation_number: string | null }>,
  outbox: Array<{ reservation_id: number | null; channel: string; kind: string; status: string }>,
) {
  for (const reservation of reservations) {
    const rows = outbox.filter((row) => row.reservation_id === reservation.id);
    const events = rows.filter((row) => row.channel === 'event');
    expect(
      events.map((row) => row.kind),
      `event of ${reservation.reservation_number}`,
    ).toEqual(['reservation_event']);
    const kinds = rows
      .filter((row) => row.channel !== 'event')
      .map((row) => `${row.channel}:${row.kind}`)
      .sort();
    expect(kinds, `outbox rows of ${reservation.reservation_number}`).toEqual(
      events[0]!.status === 'sent'
        ? ['email:reservation_accepted', 'line:reservation_accepted', 'line:staff_new_reservation']
        : [],
    );
  }
}

/**
 * Four clients book one after another (on-the-hour starts over three days) until the server is killed with
 * SIGKILL, as soon as at least 10 bookings were answered and `readyToKill` agrees.
 */
async function bookUntilKilled(server: ServerProcess, world: ProcessWorld, readyToKill: () => Promise<boolean>) {
  const starts = world.starts.filter((start) => start.endsWith(':00:00'));
  const answered = new Set<string>();
  const lostInFlight: string[] = [];
  const unexpected: string[] = [];
  let next = 0;
  let killed = false;
  const client = async (index: number) => {
    while (!killed) {
      const start = starts[next++ % starts.length]!;
      const customer = world.customers[(next + index) % world.customers.length]!;
      let result: Awaited<ReturnType<typeof bookOn>>;
      try {
        result = await bookOn(server.url, world, customer, start);
      } catch {
        // The process died with this request in flight: its outcome is unknown to the client.
        lostInFlight.push(start);
        continue;
      }
      if (result.status === 201) answered.add(String(result.body.reservation_number));
      else if (result.status !== 409) unexpected.push(`${result.status} ${result.text}`);
    }
  };
  const clients = Array.from({ length: 4 }, (_, i) => client(i));
  await waitFor(
    async () => (answered.size >= 10 && (await readyToKill()) ? true : undefined),
    30_000,
    () => `${answered.size} bookings answered`,
  );
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  killed = true;
  await exited;
  await Promise.all(clients);
  expect(unexpected).toEqual([]);
  return { answered, lostInFlight };
}

describe('kill -9 during bookings and sends, then a restart (PostgreSQL)', () => {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let smtp: FakeSmtpServer;
  let line: FakeLineMessaging;
  let server: ServerProcess;
  let db: DatabaseHandle;
  let world: ProcessWorld;
  let env: Record<string, string>;

  const rows = <T>(query: SQL) => queryRows<T>(db, query);
  const outbox = () =>
    rows<OutboxRow & { event_id: number | null }>(sql`select o.id, o.channel, o.kind, o.recipient,
      coalesce(o.reservation_id, (o.payload->>'reservation_id')::int) as reservation_id, r.reservation_number,
      (o.payload->>'sent_from_event')::int as event_id,
      o.retry_key::text as retry_key, o.status, o.attempts
      from notifications_outbox o left join reservations r on r.id = o.reservation_id order by o.id`);

  beforeAll(async () => {
    if (!adminUrl) throw new Error('TEST_POSTGRES_URL is not set: run through `npm test`, which starts PostgreSQL.');
    scratch = await createScratchDatabase(adminUrl, 'faults_crash');
    ({ smtp, line, env } = await startFakePeers({ DATABASE_URL: scratch.url }, PEER_DELAY_MS));
    server = await startServerProcess(env);
    db = await openDatabase({ databaseUrl: scratch.url });
    world = await seedProcessWorld({ databaseUrl: scratch.url }, env.JWT_SECRET!, { staff: 4, customers: 30, days: 3 });
  });

  afterAll(async () => {
    await server?.stop();
    await db?.close();
    await Promise.all([smtp?.close(), line?.close()]);
    await scratch?.drop();
  });

  it(
    'keeps every 201, writes nothing by halves, and sends every message after the restart',
    { timeout: 150_000 },
    async () => {
      // Kill once messages have been sent and another is in the middle of sending. A send to the slow peers takes
      // 300 ms, which a busy machine can spend between reading 'sending' here and the kill; so once some are sent,
      // LINE stops answering (STALLED_MS, longer than the worker's 10 s send timeout) and the kill follows the first
      // LINE request that arrives after that: its row is certainly in flight when the kill lands. (E-mail keeps its
      // pace: a batch of e-mails only would otherwise wait out the send timeout and be sent twice before the kill.)
      let requestsBeforeStall: number | undefined;
      const run = await bookUntilKilled(server, world, async () => {
        if (requestsBeforeStall === undefined) {
          if (!(await outbox()).some((row) => row.status === 'sent')) return false;
          line.delayMs = STALLED_MS;
          requestsBeforeStall = line.requests.length;
          return false;
        }
        return line.requests.length > requestsBeforeStall;
      });
      line.delayMs = PEER_DELAY_MS;
      const { answered, lostInFlight } = run;

      // Before any restart: the database as the dead process left it.
      const reservationsAfterKill = await rows<{ id: number; reservation_number: string }>(
        sql`select id, reservation_number from reservations`,
      );
      const stored = new Set(reservationsAfterKill.map((r) => r.reservation_number));
      expect(
        [...answered].filter((number) => !stored.has(number)),
        'every 201 is in the database',
      ).toEqual([]);
      // Requests cut off by the kill either committed entirely or not at all: at most one reservation each.
      expect(reservationsAfterKill.length - answered.size).toBeLessThanOrEqual(lostInFlight.length);
      const atKill = await outbox();
      expectWholeOutbox(reservationsAfterKill, atKill);
      expect(atKill.every((row) => row.reservation_id !== null)).toBe(true);
      const inFlightAtKill = new Set(atKill.filter((row) => row.status === 'sending').map((row) => Number(row.id)));
      expect(inFlightAtKill.size).toBeGreaterThan(0);
      // A message the kill cut off: its row was being sent, or it was being sent from its booking's event (decision
      // 0025: such a message is stored only after it went, naming its event). Ids come as text from the driver.
      const cutOff = (row: { id: number; event_id: number | null }) =>
        inFlightAtKill.has(Number(row.id)) || (row.event_id !== null && inFlightAtKill.has(Number(row.event_id)));
      // The dead process's claims keep their lease (a new worker must not take them yet)...
      const [lease] = await rows<{ held: boolean }>(
        sql`select bool_and(locked_until > now()) as held from notifications_outbox where status = 'sending'`,
      );
      expect(lease!.held, 'the claims of the dead process hold their lease').toBe(true);
      // ...until it runs out: moved to the past here instead of waited out in real time.
      await db.db.execute(
        sql`update notifications_outbox set locked_until = now() - interval '1 second' where status = 'sending'`,
      );

      // Restart on the same database: it serves at once, and its worker sends the rest (the dead one's claims
      // after their lease runs out).
      server = await startServerProcess(env);
      const after = await bookOn(server.url, world, world.customers[0]!, `${world.day}T17:00:00`);
      expect([201, 409]).toContain(after.status);
      const final = await waitFor(
        async () => {
          const current = await outbox();
          return current.every((row) => row.status === 'sent') ? current : undefined;
        },
        90_000,
        async () => JSON.stringify((await outbox()).filter((row) => row.status !== 'sent').slice(0, 5)),
      );

      // LINE: every message accepted exactly once (by its retry key); a second request only for a message whose
      // first send the kill cut off.
      const lineRows = final.filter((row) => row.channel === 'line');
      const accepted = line.accepted.map((push) => push.retryKey);
      expect(accepted.sort()).toEqual(lineRows.map((row) => row.retry_key).sort());
      const requestsPerKey = new Map<string, number>();
      for (const push of line.requests) requestsPerKey.set(push.retryKey, (requestsPerKey.get(push.retryKey) ?? 0) + 1);
      const resentLine = lineRows.filter((row) => (requestsPerKey.get(row.retry_key) ?? 0) > 1);
      expect(resentLine.every(cutOff), 'only cut-off LINE sends were repeated').toBe(true);

      // E-mail: every message at least once; a duplicate only for a send the kill cut off. Reported as measured.
      const emailRows = final.filter((row) => row.channel === 'email');
      const deliveries = new Map<string, number>();
      for (const mail of smtp.received) {
        const key = `${mail.envelopeTo.join(',')}|${/予約番号: (\S+)/.exec(mail.text)?.[1]}`;
        deliveries.set(key, (deliveries.get(key) ?? 0) + 1);
      }
      const keyOf = (row: OutboxRow) => `${row.recipient}|${row.reservation_number}`;
      expect(emailRows.filter((row) => !deliveries.has(keyOf(row))).map(keyOf), 'every e-mail delivered').toEqual([]);
      const duplicated = emailRows.filter((row) => deliveries.get(keyOf(row))! > 1);
      expect(duplicated.every(cutOff), 'only cut-off e-mail sends were repeated').toBe(true);
      console.info(
        `[faults] kill -9: ${answered.size} bookings answered 201, ${lostInFlight.length} requests cut off, ` +
          `${inFlightAtKill.size} messages in flight; afterwards ${emailRows.length} e-mails (${duplicated.length} delivered twice), ` +
          `${lineRows.length} LINE messages (${resentLine.length} re-sent and dropped by the retry key, 0 delivered twice)`,
      );
    },
  );
});

/**
 * The default deployment keeps its data in PGlite (DATA_DIR/db), in the server's own process. After a kill -9
 * the folder must open again with every answered booking in it, whole. (The database is read while no server
 * has it open: PGlite is one process's.) The in-flight claims' lease is the same as on PostgreSQL and is
 * covered above; here the rows that were waiting at the kill are sent once the server is back.
 */
describe('kill -9 during bookings and sends, then a restart (embedded PGlite)', () => {
  let smtp: FakeSmtpServer;
  let line: FakeLineMessaging;
  let server: ServerProcess;
  let world: ProcessWorld;
  let env: Record<string, string>;
  let dataDir: string;

  async function withPglite<T>(work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-crash-'));
    ({ smtp, line, env } = await startFakePeers({ DATA_DIR: dataDir }, PEER_DELAY_MS));
    // The database is created and filled as the server's first start would, while no server holds it.
    await withPglite(async (database) => {
      await database.migrate();
      await ensureInitialData({
        db: database.db,
        dataDir,
        timeZone: PROCESS_TZ,
        adminUsername: 'admin',
        adminPassword: PROCESS_ADMIN_PASSWORD,
        demoData: false,
      });
    });
    world = await seedProcessWorld({ dataDir: path.join(dataDir, 'db') }, env.JWT_SECRET!, {
      staff: 4,
      customers: 30,
      days: 3,
    });
    server = await startServerProcess(env);
  });

  afterAll(async () => {
    await server?.stop();
    await Promise.all([smtp?.close(), line?.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens again with every 201 whole, and sends what was waiting', { timeout: 120_000 }, async () => {
    const { answered, lostInFlight } = await bookUntilKilled(server, world, async () => line.requests.length >= 3);

    const { waiting } = await withPglite(async (database) => {
      const reservations = await queryRows<{ id: number; reservation_number: string }>(
        database,
        sql`select id, reservation_number from reservations`,
      );
      const stored = new Set(reservations.map((r) => r.reservation_number));
      expect(
        [...answered].filter((number) => !stored.has(number)),
        'every 201 is in the database',
      ).toEqual([]);
      expect(reservations.length - answered.size).toBeLessThanOrEqual(lostInFlight.length);
      const outboxRows = await queryRows<{
        reservation_id: number;
        channel: string;
        kind: string;
        status: string;
        retry_key: string;
      }>(
        database,
        sql`select coalesce(reservation_id, (payload->>'reservation_id')::int) as reservation_id, channel, kind, status,
          retry_key::text as retry_key from notifications_outbox`,
      );
      expectWholeOutbox(reservations, outboxRows);
      return {
        waiting: outboxRows
          .filter((row) => row.status === 'pending' && row.channel === 'line')
          .map((row) => row.retry_key),
      };
    });

    server = await startServerProcess(env);
    const after = await bookOn(server.url, world, world.customers[0]!, `${world.day}T17:00:00`);
    expect([201, 409]).toContain(after.status);
    await waitFor(
      async () => (waiting.every((key) => line.accepted.some((push) => push.retryKey === key)) ? true : undefined),
      30_000,
      () =>
        `${waiting.filter((key) => !line.accepted.some((push) => push.retryKey === key)).length} of ${waiting.length} waiting LINE messages unsent`,
    );
    console.info(
      `[faults] kill -9 on PGlite: ${answered.size} bookings answered 201, all kept; ${waiting.length} waiting LINE messages sent after the restart`,
    );
  });
});
