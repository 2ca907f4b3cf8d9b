/**
 * The live-update bus buildApp picks (server/features/events/pg-event-bus.ts): on PostgreSQL, LISTEN/NOTIFY
 * between instances (two buses on one database stand for two processes; tests/e2e/two-instances.test.ts runs
 * real ones); on PGlite, the in-process bus.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEventBusFor,
  EVENT_CHANNEL,
  LISTENER_APPLICATION_NAME,
  type ManagedEventBus,
} from '../../server/features/events/pg-event-bus';
import type { ReservationChangeEvent } from '../../src/shared/schemas/events';
import { createTestDatabase, testEngine } from '../helpers/database';

const event = (reservationNumber: string): ReservationChangeEvent => ({
  action: 'created',
  reservation_number: reservationNumber,
  staff_id: 1,
  status: 'pending',
  start_time: '2030-02-01T10:00:00',
  customer_name: '山田 花子',
  by: 'customer',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe(`the live-update bus on ${testEngine}`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: ManagedEventBus;
  let b: ManagedEventBus;
  const heardOnA: string[] = [];
  const heardOnB: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    a = createEventBusFor(database);
    b = createEventBusFor(database);
    await Promise.all([a.start(), b.start()]);
    a.subscribe((e) => heardOnA.push(e.reservation_number));
    b.subscribe((e) => heardOnB.push(e.reservation_number));
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
  });

  it('delivers a publish to its own subscribers at once, exactly once', async () => {
    expect(a.listening).toBe(true);
    a.publish(event('own-1'));
    // Synchronously: the publishing instance's streams never wait for the database.
    expect(heardOnA).toEqual(['own-1']);
    await sleep(300);
    expect(heardOnA).toEqual(['own-1']);
  });

  if (testEngine === 'postgres') {
    it('reaches the other instance through NOTIFY, once', async () => {
      heardOnB.length = 0;
      a.publish(event('cross-1'));
      await until(() => heardOnB.includes('cross-1'), 2_000, 'the event on B');
      await sleep(300);
      expect(heardOnB).toEqual(['cross-1']);
    });

    it('a burst of publishes reaches the other instance whole and in order (sent together, one NOTIFY each)', async () => {
      heardOnB.length = 0;
      const burst = Array.from({ length: 20 }, (_, i) => `burst-${i}`);
      for (const number of burst) a.publish(event(number));
      await until(() => heardOnB.length >= burst.length, 5_000, 'the burst on B');
      await sleep(300);
      expect(heardOnB).toEqual(burst);
    });

    it('ignores foreign and malformed notifications on its channel, and keeps listening', async () => {
      heardOnB.length = 0;
      for (const payload of [
        'null',
        '42',
        'not json',
        '[]',
        '{"origin":"x"}',
        '{"origin":"x","event":{"action":"dropped"}}',
      ]) {
        await database.db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${payload})`);
      }
      a.publish(event('after-junk'));
      await until(() => heardOnB.includes('after-junk'), 2_000, 'the event after the junk');
      expect(heardOnB).toEqual(['after-junk']);
      expect(b.listening).toBe(true);
    });

    it('reconnects by itself when its LISTEN connection is killed', async () => {
      heardOnB.length = 0;
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`,
      );
      await until(() => !b.listening, 2_000, 'the listener to notice');
      await until(() => b.listening && a.listening, 5_000, 'the listeners to reconnect');
      a.publish(event('after-reconnect'));
      await until(() => heardOnB.includes('after-reconnect'), 2_000, 'the event after the reconnect');
      expect(heardOnB).toEqual(['after-reconnect']);
      expect(b.listening).toBe(true);
    });
  } else {
    it('stays in this process on PGlite: another bus on the same database hears nothing', async () => {
      heardOnB.length = 0;
      a.publish(event('local-only'));
      await sleep(200);
      expect(heardOnB).toEqual([]);
    });
  }
});
