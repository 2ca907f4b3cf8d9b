import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vacuumDatabase } from '../../server/db/maintenance';
import { searchFold } from '../../src/shared/kana';
import type { AdminCustomer } from '../../src/shared/schemas/customers';
import type { Reservation } from '../../src/shared/schemas/reservations';
import type { ApiResult } from '../helpers/app';
import { at, startBookingApp, type BookingWorld, type CustomerMember } from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const namesOf = (result: ApiResult) => (result.body as unknown as AdminCustomer[]).map((customer) => customer.name);
const totalOf = (result: ApiResult) => result.headers.get('x-total-count');

/**
 * The customer search through its table of name suffixes (migration 0019) and the day list's single statement
 * (issue 17): the same answers as before, now from the index, and the folding the offline reader shares.
 */
describe(`customer search and the day list on ${testEngine}`, () => {
  let w: BookingWorld;
  let sakura: CustomerMember;

  beforeAll(async () => {
    w = await startBookingApp();
    sakura = await w.customer({ name: 'さくら 美咲', furigana: 'サクラ ミサキ', email: 'Misaki.Sakura@Example.com' });
    await w.customer({ name: '佐藤 花子', furigana: 'さとう はなこ', phoneNumber: '09012345678' });
    await w.customer({ name: 'Emma Brown', furigana: 'エマ ブラウン' });
    // The name ends and the furigana begins with the text of the line-break test below.
    await w.customer({ name: '鈴木 末', furigana: '始 スズキ' });
    for (let i = 0; i < 12; i += 1) await w.customer({ name: `高橋 ${i}`, furigana: 'タカハシ' });
  });
  afterAll(() => w?.close());

  const search = (query: string) => w.api(`/api/admin/customers/?${query}`, { token: w.admin.token });
  const scalar = async (query: ReturnType<typeof sql>) =>
    ((await w.db.execute(query)) as unknown as { rows: Array<{ value: string }> }).rows[0]!.value;

  it('folds exactly as the database does (the server and the offline reader agree with SQL)', async () => {
    const samples = [
      '',
      '佐藤 花子',
      'さとう はなこ',
      'ヴぁゔゕゖ',
      'Emma BROWN',
      'ＡＢＣ ａｂｃ', // full-width letters are not ASCII: neither side lowers them
      'Éclair',
      '𠮷野家', // outside the BMP
      '山田\n太郎',
      ' 佐藤\t花子\r\u3000',
      '100%_',
    ];
    for (const text of samples) {
      expect(await scalar(sql`select customer_search_fold(${text}) as value`), text).toBe(searchFold(text));
    }
  });

  it('finds hiragana and katakana in either form, in the name and the furigana, and ASCII in any case', async () => {
    expect(namesOf(await search('name=サクラ'))).toEqual(['さくら 美咲']);
    expect(namesOf(await search('name=さくら'))).toEqual(['さくら 美咲']);
    expect(namesOf(await search('name=サトウ'))).toEqual(['佐藤 花子']);
    expect(namesOf(await search('name=ハナコ'))).toEqual(['佐藤 花子']);
    expect(namesOf(await search('name=emma%20b'))).toEqual(['Emma Brown']);
    expect(namesOf(await search('name=BRAUN'))).toEqual([]);
  });

  it('answers one-character queries, and a line break never joins the name to the furigana', async () => {
    expect(namesOf(await search('name=咲'))).toEqual(['さくら 美咲']);
    expect(namesOf(await search('name=b'))).toEqual(['Emma Brown']);
    expect(namesOf(await search(`name=${encodeURIComponent('末\n始')}`))).toEqual([]);
    expect(namesOf(await search(`name=${encodeURIComponent('末')}`))).toEqual(['鈴木 末']);
  });

  it('follows an edit: the search columns are the database’s, rewritten with the row', async () => {
    const patch = await w.api(`/api/admin/customers/${sakura.id}/`, {
      method: 'PATCH',
      token: w.admin.token,
      json: { name: '桜井 美咲', furigana: 'サクライ ミサキ' },
    });
    expect(patch.status).toBe(200);
    expect(patch.body).not.toHaveProperty('search_key');
    expect(namesOf(await search('name=さくらい'))).toEqual(['桜井 美咲']);
    expect(namesOf(await search('name=さくら%20美咲'))).toEqual([]);
  });

  it('counts every match in X-Total-Count, on a full page, a partial page and a page past the end', async () => {
    const first = await search('name=たかはし&limit=5');
    expect(namesOf(first)).toEqual(['高橋 0', '高橋 1', '高橋 2', '高橋 3', '高橋 4']);
    expect(totalOf(first)).toBe('12');
    const last = await search('name=たかはし&limit=5&offset=10');
    expect(namesOf(last)).toEqual(['高橋 10', '高橋 11']);
    expect(totalOf(last)).toBe('12');
    const past = await search('name=たかはし&limit=5&offset=50');
    expect(namesOf(past)).toEqual([]);
    expect(totalOf(past)).toBe('12');
    const none = await search('name=存在しない');
    expect(totalOf(none)).toBe('0');
  });

  it('keeps one row per suffix of the folded name and furigana, rewritten with the row and gone with it', async () => {
    const suffixesOf = async (customerId: number) =>
      (
        (await w.db.execute(
          sql`select suffix from customer_name_suffixes where customer_id = ${customerId} order by suffix collate "C"`,
        )) as unknown as { rows: Array<{ suffix: string }> }
      ).rows.map((row) => row.suffix);
    const ann = await w.customer({ name: 'Ann あい', furigana: 'あん' });
    expect(await suffixesOf(ann.id)).toEqual([' アイ', 'ann アイ', 'n アイ', 'nn アイ', 'アイ', 'アン', 'イ', 'ン']);
    await w.db.execute(sql`update customers set furigana = 'アン', notes = 'メモ' where id = ${ann.id}`);
    expect(await suffixesOf(ann.id)).toContain('アン');
    await w.db.execute(sql`update customers set name = 'Bo' where id = ${ann.id}`);
    expect(await suffixesOf(ann.id)).toEqual(['bo', 'o', 'アン', 'ン']);
    await w.db.execute(sql`delete from customers where id = ${ann.id}`);
    expect(await suffixesOf(ann.id)).toEqual([]);
  });

  it('reads the matches from the suffix index, not from the customers', async () => {
    const plan = await w.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(
        sql`explain select distinct customer_id from customer_name_suffixes
          where salon_id = ${w.t.salonId} and suffix >= ${'サトウ'} and suffix < ${'サトウ\u{10FFFF}'}`,
      )) as unknown as { rows: Array<Record<string, string>> };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('customer_name_suffixes_prefix_idx');
    expect(plan).not.toContain('customers');
  });

  it('after the nightly maintenance, the planner knows the table and a search counts from the index alone', async () => {
    const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
      ((await w.db.execute(query)) as unknown as { rows: T[] }).rows;
    await vacuumDatabase(w.t.database);
    // ANALYZE: the planner's row count is the table's (PGlite has no autovacuum to take it).
    const [stats] = await rowsOf<{ reltuples: number; rows: number }>(
      sql`select reltuples::int as reltuples, (select count(*)::int from customer_name_suffixes) as rows
        from pg_class where relname = 'customer_name_suffixes'`,
    );
    expect(stats!.reltuples).toBe(stats!.rows);
    const plan = await w.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(
        sql`explain (analyze, costs off) select count(distinct customer_id) from customer_name_suffixes
          where salon_id = ${w.t.salonId} and suffix >= ${'タカハシ'} and suffix < ${'タカハシ\u{10FFFF}'}`,
      )) as unknown as { rows: Array<Record<string, string>> };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('customer_name_suffixes_prefix_idx');
    // VACUUM: every page is marked all-visible, so the index-only scan visits no table page. (PostgreSQL's test
    // cluster commits asynchronously, which may keep VACUUM from marking pages for a while: bench/lib/dataset.ts.)
    if (testEngine === 'pglite') expect(plan).toMatch(/Index Only Scan[\s\S]*Heap Fetches: 0\b/);
  });

  it('a staff member’s search counts only the customers in their scope, and a name goes with the other filters', async () => {
    const staff = await w.staff('search-scope');
    for (let i = 0; i < 3; i += 1) {
      await w.customer({ name: `渡辺 ${i}`, phoneNumber: `0801111000${i}`, assignedStaffId: staff.id });
    }
    await w.customer({ name: '渡辺 他', phoneNumber: '08011110009' });
    const asStaff = await w.api('/api/admin/customers/?name=渡辺&limit=2', { token: staff.token });
    expect(namesOf(asStaff)).toEqual(['渡辺 0', '渡辺 1']);
    expect(totalOf(asStaff)).toBe('3');
    const asAdmin = await search('name=渡辺&limit=2');
    expect(namesOf(asAdmin)).toEqual(['渡辺 0', '渡辺 1']);
    expect(totalOf(asAdmin)).toBe('4');
    const withPhone = await search('name=渡辺&phone_number=08011110009');
    expect(namesOf(withPhone)).toEqual(['渡辺 他']);
    expect(totalOf(withPhone)).toBe('1');
  });

  it('gives the day list its total from a partial page, and counts a full page or one past the end', async () => {
    const staff = await w.staff('day-list');
    const gel = await w.service('ジェル', 60);
    const customer = await w.customer({ name: '日付 一覧' });
    for (const time of ['10:00', '11:00', '12:00']) {
      await w.insertReservation({ staffId: staff.id, customer, service: gel, start: at('2030-01-15', time) });
    }
    const day = (query: string, date = '2030-01-15') =>
      w.api(`/api/admin/reservations/?start_date=${date}&end_date=${date}${query}`, { token: w.admin.token });
    const starts = (result: ApiResult) =>
      (result.body as unknown as Reservation[]).map((row) => row.start_time.slice(11, 16));
    const whole = await day('');
    expect(starts(whole)).toEqual(['10:00', '11:00', '12:00']);
    expect(totalOf(whole)).toBe('3');
    const full = await day('&limit=2');
    expect(starts(full)).toEqual(['10:00', '11:00']);
    expect(totalOf(full)).toBe('3');
    const rest = await day('&limit=2&offset=2');
    expect(starts(rest)).toEqual(['12:00']);
    expect(totalOf(rest)).toBe('3');
    const past = await day('&limit=2&offset=9');
    expect(starts(past)).toEqual([]);
    expect(totalOf(past)).toBe('3');
    expect(totalOf(await day('&limit=2', '2030-01-16'))).toBe('0');
  });
});
