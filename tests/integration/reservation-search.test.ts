import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations } from '../../server/db/schema';
import type { Reservation } from '../../src/shared/schemas/reservations';
import { at, startBookingApp, type BookingWorld, type StaffMember } from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/**
 * The staff search box's name and phone search (GET /api/admin/reservations/?q=): the booking's own copy of the
 * customer's name, furigana (hiragana finds katakana) and phone (digits, whatever the hyphens), within the caller's
 * scope and the list's other filters.
 */
describe(`reservation search by name or phone on ${testEngine}`, () => {
  let w: BookingWorld;
  let nailistA: StaffMember;
  let nailistB: StaffMember;
  let desk: StaffMember;
  const numbers: Record<string, string> = {};

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    nailistA = await w.staff('search-a', '佐藤 A');
    nailistB = await w.staff('search-b', '鈴木 B');
    desk = await w.staff('search-desk', '受付 D', 'front_desk');
    const gel = await w.service('ジェルネイル', 60);
    const people = [
      { key: 'hanako', name: '山田 花子', furigana: 'ヤマダ ハナコ', phone: '09011112222', staff: () => nailistA },
      { key: 'emma', name: 'Emma Brown', furigana: 'エマ ブラウン', phone: '080-3333-4444', staff: () => nailistB },
      { key: 'sato', name: '佐藤 100%', furigana: 'サトウ', phone: '', staff: () => nailistA },
    ];
    for (const [index, person] of people.entries()) {
      const customer = await w.customer({ name: person.name });
      const row = await w.insertReservation({
        staffId: person.staff().id,
        customer,
        service: gel,
        start: at(`2030-04-0${index + 1}`, '10:00'),
        status: 'confirmed',
      });
      await w.db
        .update(reservations)
        .set({ customer_furigana: person.furigana, customer_phone: person.phone })
        .where(eq(reservations.id, row.id));
      numbers[person.key] = row.reservation_number;
    }
  });
  afterAll(() => w?.close());

  const search = async (token: string, query: string) => {
    const result = await w.api(`/api/admin/reservations/?${query}`, { token });
    expect(result.status, result.text).toBe(200);
    return (result.body as unknown as Reservation[]).map((row) => row.reservation_number);
  };
  const q = (text: string) => `q=${encodeURIComponent(text)}`;

  it('finds a booking by part of the name, by furigana typed in hiragana, by a phone typed with hyphens', async () => {
    expect(await search(desk.token, q('山田'))).toEqual([numbers.hanako]);
    expect(await search(desk.token, q('やまだ'))).toEqual([numbers.hanako]);
    expect(await search(desk.token, q('emma'))).toEqual([numbers.emma]);
    expect(await search(desk.token, q(' 080-3333 '))).toEqual([numbers.emma]);
    expect(await search(desk.token, q('0901111'))).toEqual([numbers.hanako]);
    // `%` is a character, not a wildcard.
    expect(await search(desk.token, q('100%'))).toEqual([numbers.sato]);
    expect(await search(desk.token, q('%'))).toEqual([numbers.sato]);
    expect(await search(desk.token, q('田中'))).toEqual([]);
  });

  it('keeps the list’s other filters and the caller’s scope', async () => {
    expect(await search(desk.token, `${q('a')}&start_date=2030-04-02`)).toEqual([numbers.emma]);
    // 佐藤 A's bookings: 山田 and 佐藤; nailist B never finds them, even asking for A's user_id.
    expect(await search(nailistA.token, q('佐藤'))).toEqual([numbers.sato]);
    expect(await search(nailistB.token, q('山田'))).toEqual([]);
    expect(await search(nailistB.token, `${q('山田')}&user_id=${nailistA.id}`)).toEqual([]);
    expect(await search(nailistB.token, q('ブラウン'))).toEqual([numbers.emma]);
    // Blank text filters nothing.
    expect(await search(nailistA.token, q('  '))).toEqual([numbers.hanako, numbers.sato]);
  });

  it('refuses an overlong search with a 400, not a 500', async () => {
    const result = await w.api(`/api/admin/reservations/?${q('あ'.repeat(101))}`, { token: desk.token });
    expect(result.status).toBe(400);
  });
});
