import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { StaffDatabase } from '#src/lib/db';
import { createOfflineEngine } from '#src/lib/offline-engine';
import type { Service } from '#src/shared/schemas/booking';
import { menuOffline } from './offline';

/** The menu kept on the device (offline.ts) keeps each service's options: the menu screen shows them offline too. */

const db = new StaffDatabase('menu-offline-test');
const engine = createOfflineEngine([menuOffline]);
const url = (path: string) => new URL(path, 'http://localhost');

const menu: Service[] = [
  {
    id: 3,
    name: 'ジェルネイル',
    price: '6600',
    duration_minutes: 90,
    salon: 1,
    options: [
      { id: 7, name: 'ストーン', price: '1100', duration_minutes: 30 },
      { id: 8, name: 'アート', price: '0', duration_minutes: 0 },
    ],
  },
  { id: 4, name: 'ケア', price: '3000', duration_minutes: 30, salon: 1, options: [] },
];

beforeEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
});

describe('menu offline', () => {
  it('answers the last menu with its options', async () => {
    await engine.store('GET', url('/api/services/'), menu, db);
    expect(await engine.read(url('/api/services/'), db)).toEqual(menu);
  });

  it('keeps the options in the services table the answer falls back to', async () => {
    await engine.store('GET', url('/api/services/'), menu, db);
    await db.responses.clear();
    expect(await db.services.get(3)).toEqual(menu[0]);
    expect(await engine.read(url('/api/services/'), db)).toEqual(menu);
  });
});
