import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminCustomer } from '../../shared/schemas/customers';
import type { Reservation } from '../../shared/schemas/reservations';
import { StaffDatabase } from '../../lib/db';
import { urlKey } from '../../lib/offline-engine';
import { readLocal, storeAnswer } from './staff-offline';

/** The local answers of docs/architecture.md#offline-design mirror the server's filters, order and page sizes. */

const db = new StaffDatabase('offline-reads-test');
const url = (path: string) => new URL(path, 'http://localhost');

let nextId = 1;
function reservation(start: string, status: Reservation['status'], extra: Partial<Reservation> = {}): Reservation {
  const id = nextId++;
  return {
    id,
    reservation_number: `r-${id}`,
    reservation_code: `CODE${String(id).padStart(4, '2')}`,
    status,
    salon: { name: 'サロン' },
    service: { id: 1, name: 'ジェル', price: '6000', duration_minutes: 60 },
    options: [],
    is_nominated: false,
    nomination_fee: '0',
    service_name: 'ジェル',
    start_time: start,
    end_time: start,
    customer_id: 1,
    customer_name: '山田 花子',
    customer_furigana: '',
    customer_email: '',
    customer_phone: '',
    staff_id: 1,
    staff_name: '店長',
    cancellation_deadline: start,
    can_cancel: true,
    updated_at: '2030-01-01T00:00:00.000Z',
    ...extra,
  };
}

function customer(id: number, name: string, furigana: string, extra: Partial<AdminCustomer> = {}): AdminCustomer {
  return {
    id,
    name,
    furigana,
    email: `c${id}@example.com`,
    phone_number: `0900000000${id}`,
    notes: '',
    line_user_id: null,
    line_display_name: '',
    line_picture_url: '',
    is_line_linked: false,
    assigned_staff_id: null,
    updated_at: '2030-01-01T00:00:00.000Z',
    ...extra,
  };
}

beforeEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
});

describe('reservation list', () => {
  it('keeps inclusive days, the statuses asked for, the staff filter, and sorts by start', async () => {
    await db.reservations.bulkPut([
      reservation('2030-01-15T18:00:00', 'confirmed'),
      reservation('2030-01-15T09:00:00', 'pending'),
      reservation('2030-01-15T10:00:00', 'cancelled'),
      reservation('2030-01-14T23:30:00', 'pending'),
      reservation('2030-01-16T00:00:00', 'pending'),
      reservation('2030-01-15T11:00:00', 'pending', { staff_id: 2 }),
    ]);
    const day = (await readLocal(
      url('/api/admin/reservations/?start_date=2030-01-15&end_date=2030-01-15&status=pending&status=confirmed'),
      db,
    )) as Reservation[];
    expect(day.map((row) => row.start_time)).toEqual([
      '2030-01-15T09:00:00',
      '2030-01-15T11:00:00',
      '2030-01-15T18:00:00',
    ]);

    const mine = (await readLocal(
      url('/api/admin/reservations/?start_date=2030-01-15&user_id=2'),
      db,
    )) as Reservation[];
    expect(mine.map((row) => row.start_time)).toEqual(['2030-01-15T11:00:00']);

    const all = (await readLocal(url('/api/admin/reservations/'), db)) as Reservation[];
    expect(all).toHaveLength(6);
  });

  it('pages like the server (500 by default, limit and offset)', async () => {
    await db.reservations.bulkPut(
      Array.from({ length: 520 }, (_, index) =>
        reservation(
          `2030-02-01T${String(9 + Math.floor(index / 60)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}:00`,
          'pending',
        ),
      ),
    );
    expect(((await readLocal(url('/api/admin/reservations/'), db)) as Reservation[]).length).toBe(500);
    const page = (await readLocal(url('/api/admin/reservations/?limit=10&offset=515'), db)) as Reservation[];
    expect(page).toHaveLength(5);
  });

  it('answers a detail by number, and nothing for one it does not hold', async () => {
    const row = reservation('2030-03-01T10:00:00', 'pending');
    await db.reservations.put(row);
    expect(await readLocal(url(`/api/admin/reservations/${row.reservation_number}/`), db)).toEqual(row);
    expect(await readLocal(url('/api/admin/reservations/unknown/'), db)).toBeUndefined();
    expect(await readLocal(url('/api/admin/statistics/'), db)).toBeUndefined();
  });
});

describe('customers', () => {
  it('searches name or furigana (hiragana finds katakana), email and phone, by id, 100 a page', async () => {
    await db.customers.bulkPut([
      customer(3, '山田 花子', 'ヤマダ ハナコ'),
      customer(1, '高橋 結衣', 'タカハシ ユイ'),
      customer(2, '山本 愛', 'ヤマモト アイ', { email: 'ai@salon.example' }),
    ]);
    const ids = async (query: string) =>
      ((await readLocal(url(`/api/admin/customers/?${query}`), db)) as AdminCustomer[]).map((row) => row.id);
    expect(await ids('name=山')).toEqual([2, 3]);
    expect(await ids(`name=${encodeURIComponent('やまだ')}`)).toEqual([3]);
    expect(await ids('email=SALON.example')).toEqual([2]);
    expect(await ids('phone_number=00001')).toEqual([1]);
    expect(await ids('')).toEqual([1, 2, 3]);
    expect(await ids('limit=1&offset=1')).toEqual([2]);
  });

  it("answers a customer's reservations newest first, only for a customer it holds", async () => {
    await db.customers.put(customer(7, '佐藤 美咲', 'サトウ ミサキ'));
    await db.reservations.bulkPut([
      reservation('2030-01-01T10:00:00', 'completed', { customer_id: 7 }),
      reservation('2030-02-01T10:00:00', 'pending', { customer_id: 7 }),
      reservation('2030-03-01T10:00:00', 'pending', { customer_id: 8 }),
    ]);
    const rows = (await readLocal(url('/api/admin/customers/7/reservations/'), db)) as Reservation[];
    expect(rows.map((row) => row.start_time)).toEqual(['2030-02-01T10:00:00', '2030-01-01T10:00:00']);
    expect(await readLocal(url('/api/admin/customers/8/reservations/'), db)).toBeUndefined();
  });
});

describe('storing answers on the way', () => {
  it('keeps list rows, transition answers, memo answers and small answers by URL', async () => {
    const row = reservation('2030-04-01T10:00:00', 'pending');
    await storeAnswer('GET', url('/api/admin/reservations/?start_date=2030-04-01'), [row], db);
    await storeAnswer(
      'POST',
      url(`/api/admin/reservations/${row.reservation_number}/confirm/`),
      { ...row, status: 'confirmed' },
      db,
    );
    expect((await db.reservations.get(row.reservation_number))?.status).toBe('confirmed');

    await storeAnswer(
      'PATCH',
      url('/api/admin/customers/4/'),
      customer(4, '伊藤 愛', 'イトウ アイ', { notes: '新しいメモ' }),
      db,
    );
    expect((await db.customers.get(4))?.notes).toBe('新しいメモ');

    const dates = ['2030-04-01', '2030-04-02'];
    await storeAnswer('GET', url('/api/admin/configured-dates/?year=2030&month=4&user_id=1'), dates, db);
    expect(await readLocal(url('/api/admin/configured-dates/?user_id=1&month=4&year=2030'), db)).toEqual(dates);
    expect(urlKey(url('/api/x/?b=2&a=1&a=0'))).toBe('/api/x/?a=0&a=1&b=2');

    // A customer booking call is never kept.
    await storeAnswer('POST', url('/api/reservations/'), { reservation_number: 'x' }, db);
    expect(await db.reservations.count()).toBe(1);
  });
});
