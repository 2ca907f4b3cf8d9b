/**
 * A full disk (issue 31): GET /api/health/ answered ok while every write failed, and a booking answered 500. Now the
 * health check writes a scratch row (migration 0021) and measures free space, and any write refused for want of
 * space answers 503 with a Japanese message (server/plugins/errors.ts). The database's refusal is made here by a
 * trigger that raises SQLSTATE 53100 (disk_full), which is what PostgreSQL, and the embedded engine built from it,
 * report when a write finds no space; a file write's ENOSPC takes the same path (server/db/storage-full.test.ts).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { at, startBookingApp, times, type BookingWorld } from '#tests/helpers/booking-fixtures';
import { startTestApp, type TestApp } from '#tests/helpers/app';
import { testEngine } from '#tests/helpers/database';

const DAY = '2030-01-21';

/** Makes every insert or update of `table` fail as a full disk does, until `undo` runs. */
async function failWritesAsDiskFull(db: BookingWorld['db'], table: 'health_probe' | 'reservations') {
  await db.execute(
    sql.raw(`create or replace function test_disk_full() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file: No space left on device' using errcode = '53100'; end $$`),
  );
  await db.execute(
    sql.raw(
      `create trigger test_disk_full before insert or update on ${table} for each row execute function test_disk_full()`,
    ),
  );
  return () => db.execute(sql.raw(`drop trigger test_disk_full on ${table}`));
}

describe(`a full disk on ${testEngine}`, () => {
  let w: BookingWorld;

  beforeAll(async () => {
    w = await startBookingApp();
  });
  afterAll(() => w?.close());

  it('health answers 503 disk_full while the database refuses writes, and ok again after', async () => {
    expect((await w.api('/api/health/')).status).toBe(200);
    const undo = await failWritesAsDiskFull(w.db, 'health_probe');
    try {
      const result = await w.api('/api/health/');
      expect(result.status).toBe(503);
      expect(JSON.parse(result.text)).toEqual({
        status: 'unavailable',
        detail: SERVER_MESSAGES.storageFull,
        code: 'disk_full',
      });
      expect(result.headers.get('retry-after')).toBe('5');
    } finally {
      await undo();
    }
    expect((await w.api('/api/health/')).status).toBe(200);
  });

  it('a booking the database cannot store for want of space answers 503 in Japanese, not 500', async () => {
    const staff = await w.staff('disk-staff');
    const service = await w.service('ワンカラー', 30);
    await w.openSlots(staff.id, DAY, times('10:00', '12:00'));
    const customer = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    const undo = await failWritesAsDiskFull(w.db, 'reservations');
    try {
      const result = await w.book(customer, service.id, at(DAY, '10:00'));
      expect(result.status, result.text).toBe(503);
      expect(result.body).toEqual({ detail: SERVER_MESSAGES.storageFull, code: 'storage_full' });
      expect(result.headers.get('retry-after')).toBe('60');
    } finally {
      await undo();
    }
    expect((await w.book(customer, service.id, at(DAY, '10:00'))).status).toBe(201);
  });
});

describe(`health with too little free space on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // More free space than any disk has: the check must fail on it.
    t = await startTestApp({ env: { HEALTH_MIN_FREE_MB: String(1024 * 1024 * 1024) } });
  });
  afterAll(() => t?.close());

  it('answers 503 disk_full when DATA_DIR or UPLOAD_DIR has less free space than HEALTH_MIN_FREE_MB', async () => {
    const result = await t.api('/api/health/');
    expect(result.status).toBe(503);
    expect(JSON.parse(result.text)).toEqual({
      status: 'unavailable',
      detail: SERVER_MESSAGES.storageFull,
      code: 'disk_full',
    });
  });
});
