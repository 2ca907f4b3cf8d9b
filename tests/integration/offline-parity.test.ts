import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLocal, storeAnswer } from '../../src/app/offline/staff-offline';
import { StaffDatabase } from '../../src/lib/db';
import type { AdminCustomer } from '../../src/shared/schemas/customers';
import type { DayBoard } from '../../src/shared/schemas/day-board';
import type { Reservation } from '../../src/shared/schemas/reservations';
import { at, startBookingApp, type BookingWorld, type StaffMember } from '../helpers/booking-fixtures';

/**
 * The staff app answers list screens from its local copy when offline (src/features/*\/offline.ts). Those readers
 * must give what the server gives for the same URL: the same filters, order and page sizes. This suite fills a
 * local database the way the sync does (every row in scope, from the server), then asks the same URLs of both.
 * A server filter that changes without its offline reader (or the other way round) fails here.
 */

let world: BookingWorld;
let staffA: StaffMember;
let staffB: StaffMember;
let customerIds: number[] = [];

beforeAll(async () => {
  world = await startBookingApp();
  // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
  staffA = await world.staff('parity-a');
  staffB = await world.staff('parity-b');
  const gel = await world.service('ジェル', 60);
  const care = await world.service('ケア', 30);
  const people = [
    { name: '山田 花子', furigana: 'ヤマダ ハナコ', email: 'Hanako.Yamada@Example.com', phoneNumber: '090-1111-2222' },
    { name: '山本 ゆい', furigana: 'ヤマモト ユイ', email: 'yui@example.jp', phoneNumber: '08033334444' },
    { name: 'Emma Brown', furigana: 'エマ ブラウン', email: 'emma_b@example.com', phoneNumber: '070-5555-6666' },
    { name: '佐藤 100%', furigana: 'サトウ', email: '', phoneNumber: '' },
    { name: 'やまだ はな', furigana: 'ヤマダ ハナ', email: 'hana%@example.com', phoneNumber: '090 7777 8888' },
  ];
  const members = [];
  for (const [index, person] of people.entries()) {
    members.push(await world.customer({ ...person, assignedStaffId: index % 2 === 0 ? staffA.id : undefined }));
  }
  customerIds = members.map((member) => member.id);
  const statuses = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'] as const;
  // Three weeks of bookings on both staff members, every status, several per day, some at the same start.
  let n = 0;
  for (let day = 1; day <= 21; day += 1) {
    const date = `2030-02-${String(day).padStart(2, '0')}`;
    for (const [slot, time] of ['10:00', '11:30', '14:00'].entries()) {
      for (const staff of [staffA, staffB]) {
        n += 1;
        if (n % 4 === 0) continue;
        await world.insertReservation({
          staffId: staff.id,
          customer: members[(n + slot) % members.length]!,
          service: n % 3 === 0 ? care : gel,
          start: at(date, time),
          status: statuses[n % statuses.length],
        });
      }
    }
  }
});

afterAll(() => world?.close());

async function serverAnswer<T>(token: string, path: string): Promise<T> {
  const result = await world.api(path, { token });
  expect(result.status, `${path}: ${result.text}`).toBe(200);
  return JSON.parse(result.text) as T;
}

/** A local copy as the sync leaves it: every reservation and customer this staff member may see. */
async function localCopyFor(staff: StaffMember): Promise<StaffDatabase> {
  const db = new StaffDatabase(`parity-${staff.id}-${Math.random()}`);
  await db.open();
  for (const path of ['/api/admin/me/', '/api/admin/reservations/?limit=1000', '/api/admin/customers/?limit=1000']) {
    await storeAnswer('GET', new URL(path, world.t.url), await serverAnswer(staff.token, path), db);
  }
  return db;
}

const RESERVATION_QUERIES = [
  '',
  'start_date=2030-02-05',
  'end_date=2030-02-03',
  'start_date=2030-02-04&end_date=2030-02-04',
  'start_date=2030-02-02&end_date=2030-02-09&status=pending',
  'status=confirmed&status=pending',
  'status=cancelled&status=no_show&status=completed',
  'start_date=2030-02-10&limit=5',
  'limit=7&offset=11',
  'start_date=2030-02-01&end_date=2030-02-28&offset=40',
  // The search box's name and phone text (src/features/reservations-admin/search.ts).
  'q=やまだ',
  'q=EMMA&status=confirmed',
  'q=100%25',
  'q=090-1111&start_date=2030-02-05',
];

/** The short code of one of the rows, as a person types it: lower case, with a hyphen. */
const typedCode = (code: string) => `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;

const CUSTOMER_QUERIES = [
  '',
  'name=山田',
  'name=やまだ',
  'name=ヤマ',
  'name=emma',
  'name=BROWN',
  'name=100%25',
  'name=%20山本%20',
  // Folding (searchFold, migration 0017): katakana finds a hiragana name, hiragana a katakana furigana, one character.
  'name=ヤマダ%20ハナ',
  'name=ゆい',
  'name=e',
  'name=%E3%81%86',
  'email=example.com',
  'email=HANAKO',
  'email=%25',
  'email=_b',
  'phone_number=090',
  'phone_number=3333',
  'name=山&email=example',
  'limit=2&offset=1',
];

describe.each([
  ['the superuser', () => world.admin],
  ['an ordinary staff member', () => staffA],
])('offline answers equal the server answers for %s', (_label, principal) => {
  let db: StaffDatabase;
  beforeAll(async () => {
    db = await localCopyFor(principal());
  });
  afterAll(() => db?.delete());

  const expectSameAnswer = async (path: string) => {
    const server = await serverAnswer<unknown>(principal().token, path);
    const local = await readLocal(new URL(path, world.t.url), db);
    expect(local, path).toEqual(server);
  };

  it('has something to compare (the copy is not empty)', async () => {
    expect(await db.reservations.count()).toBeGreaterThan(20);
    expect(await db.customers.count()).toBeGreaterThan(1);
  });

  it.each(RESERVATION_QUERIES)('reservation list ?%s', (query) =>
    expectSameAnswer(`/api/admin/reservations/?${query}`),
  );

  it('reservation list by staff member (user_id)', async () => {
    for (const staff of [staffA, staffB])
      await expectSameAnswer(`/api/admin/reservations/?user_id=${staff.id}&start_date=2030-02-03`);
  });

  it('reservation list by short code', async () => {
    const rows = (await db.reservations.toArray()) as Reservation[];
    for (const row of rows.slice(0, 3)) {
      await expectSameAnswer(`/api/admin/reservations/?code=${encodeURIComponent(typedCode(row.reservation_code))}`);
    }
  });

  it.each(CUSTOMER_QUERIES)('customer list ?%s', (query) => expectSameAnswer(`/api/admin/customers/?${query}`));

  it('the day board: a day shown online as it was; another day drawn from the local reservations', async () => {
    const shown = '/api/admin/day-board/?date=2030-02-03';
    await storeAnswer('GET', new URL(shown, world.t.url), await serverAnswer(principal().token, shown), db);
    await expectSameAnswer(shown);
    // Never opened online: the same bookings in the same columns, without the working time the device never saw.
    const other = '/api/admin/day-board/?date=2030-02-04';
    const server = await serverAnswer<DayBoard>(principal().token, other);
    const local = (await readLocal(new URL(other, world.t.url), db)) as DayBoard;
    const booked = (board: DayBoard) =>
      board.staff.filter((column) => column.reservations.length > 0).map(({ working: _, ...column }) => column);
    expect(booked(server).length).toBeGreaterThan(0);
    expect(local.staff.map(({ working: _, ...column }) => column)).toEqual(booked(server));
    expect(local.grid_minutes).toBe(server.grid_minutes);
  });

  it("each customer's reservations, newest first", async () => {
    const visible = (await db.customers.toArray()) as AdminCustomer[];
    for (const customer of visible) {
      await expectSameAnswer(`/api/admin/customers/${customer.id}/reservations/`);
      await expectSameAnswer(`/api/admin/customers/${customer.id}/reservations/?limit=3&offset=1`);
    }
    expect(customerIds.length).toBeGreaterThan(visible.length - 1);
  });

  it('a reservation and a customer by key', async () => {
    const [first] = (await db.reservations.toArray()) as Reservation[];
    await expectSameAnswer(`/api/admin/reservations/${first!.reservation_number}/`);
    const [customer] = (await db.customers.toArray()) as AdminCustomer[];
    await expectSameAnswer(`/api/admin/customers/${customer!.id}/`);
  });
});
