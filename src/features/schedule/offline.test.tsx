import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { readLocal, storeAnswer } from '#src/app/offline/staff-offline';
import { StaffDatabase } from '#src/lib/db';

/** The schedule screen offline: what was read stays readable, and an accepted change drops what it made stale. */
const db = new StaffDatabase('schedule-offline-test');
const url = (path: string) => new URL(path, 'http://localhost');

const READS = [
  '/api/admin/configured-dates/?year=2030&month=1',
  '/api/admin/available-slots/?date=2030-01-15',
  '/api/admin/shifts/?user_id=2',
  '/api/admin/schedule-days/?year=2030&month=1&user_id=2',
  '/api/admin/holidays/?year=2030&month=1',
];

async function keepAll() {
  await storeAnswer('GET', url('/api/admin/users/'), [{ id: 2 }], db);
  for (const path of READS) await storeAnswer('GET', url(path), { kept: path }, db);
}

describe('schedule offline', () => {
  it('answers the weekly shift, the decided days and the holidays once seen', async () => {
    await keepAll();
    for (const path of READS) expect(await readLocal(url(path), db), path).toEqual({ kept: path });
    expect(await readLocal(url('/api/admin/shifts/?user_id=3'), db)).toBeUndefined();
  });

  it.each([
    ['PUT', '/api/admin/shifts/'],
    ['POST', '/api/admin/available-slots/'],
    ['DELETE', '/api/admin/available-slots/?date=2030-01-15'],
    ['POST', '/api/admin/holidays/'],
    ['DELETE', '/api/admin/holidays/2030-01-20/'],
  ])('%s %s forgets every kept working-time answer, keeping the staff list', async (method, path) => {
    await keepAll();
    await storeAnswer(method, url(path), {}, db);
    for (const read of READS) expect(await readLocal(url(read), db), read).toBeUndefined();
    expect(await readLocal(url('/api/admin/users/'), db)).toEqual([{ id: 2 }]);
  });
});
