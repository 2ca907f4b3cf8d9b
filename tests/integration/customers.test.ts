import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, linkTokens } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { AdminCustomer } from '../../src/shared/schemas/customers';
import type { Reservation } from '../../src/shared/schemas/reservations';
import type { ApiResult } from '../helpers/app';
import {
  startBookingApp,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const CUSTOMER_NOT_FOUND = { detail: MESSAGES.customerNotFound, code: 'not_found' };
const idsOf = (result: ApiResult) => (result.body as unknown as AdminCustomer[]).map((customer) => customer.id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Customers for staff (docs/screens.md#customer-detail): search, scope (docs/architecture.md#roles-and-scope), memo and contact edits, history, LINE link URL. */
describe(`admin customers on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let gel: ServiceRow;
  /** Assigned to A. */
  let hanako: CustomerMember;
  /** Not assigned; has a reservation with A. */
  let wildcard: CustomerMember;
  /** Assigned to B. */
  let taro: CustomerMember;
  /** Assigned to B, with a reservation with A and one with B. */
  let shared: CustomerMember;
  /** Nobody's. */
  let walkIn: CustomerMember;
  let all: number[];

  beforeAll(async () => {
    w = await startBookingApp({ env: { PUBLIC_URL: 'https://salon.example/' } });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('cust-a', '佐藤 A');
    staffB = await w.staff('cust-b', '鈴木 B');
    gel = await w.service('ジェルネイル', 90);
    // Created one after the other so that ids ascend in this order.
    hanako = await w.customer({
      name: '山田 花子',
      furigana: 'ヤマダ ハナコ',
      email: 'Hanako@Example.com',
      phoneNumber: '09011112222',
      assignedStaffId: staffA.id,
    });
    wildcard = await w.customer({ name: '田中_50%', furigana: 'タナカ', email: 'tanaka@example.com' });
    taro = await w.customer({
      name: '山田 太郎',
      furigana: 'ヤマダ タロウ',
      email: 'taro@example.com',
      phoneNumber: '08033334444',
      assignedStaffId: staffB.id,
    });
    shared = await w.customer({ name: '高橋 結衣', furigana: 'タカハシ ユイ', assignedStaffId: staffB.id });
    walkIn = await w.customer({ name: '伊藤 一郎', furigana: 'イトウ イチロウ', lineUserId: 'U-walk-in-linked' });
    all = [hanako.id, wildcard.id, taro.id, shared.id, walkIn.id];
    await w.insertReservation({
      staffId: staffA.id,
      customer: wildcard,
      service: gel,
      start: '2030-01-05T10:00:00',
      status: 'completed',
    });
    await w.insertReservation({
      staffId: staffA.id,
      customer: shared,
      service: gel,
      start: '2030-01-06T10:00:00',
      status: 'completed',
    });
    await w.insertReservation({
      staffId: staffB.id,
      customer: shared,
      service: gel,
      start: '2030-01-20T10:00:00',
      status: 'confirmed',
    });
    await w.insertReservation({
      staffId: staffB.id,
      customer: shared,
      service: gel,
      start: '2030-01-02T10:00:00',
      status: 'cancelled',
    });
  });
  afterAll(() => w?.close());

  const list = (token: string, query = '') => w.api(`/api/admin/customers/${query}`, { token });
  const patch = (token: string, id: number, json: unknown) =>
    w.api(`/api/admin/customers/${id}/`, { method: 'PATCH', token, json });
  const rowOf = async (id: number) => (await w.db.select().from(customers).where(eq(customers.id, id)))[0]!;

  describe('GET /api/admin/customers/', () => {
    it('gives a superuser every customer in id order, with the count and the item shape', async () => {
      const result = await list(w.admin.token);
      expect(result.status).toBe(200);
      expect(idsOf(result)).toEqual(all);
      expect(result.headers.get('x-total-count')).toBe('5');
      const first = (result.body as unknown as AdminCustomer[])[0]!;
      expect(first).toEqual({
        id: hanako.id,
        name: '山田 花子',
        furigana: 'ヤマダ ハナコ',
        email: 'Hanako@Example.com',
        phone_number: '09011112222',
        notes: '',
        line_user_id: null,
        line_display_name: '',
        line_picture_url: '',
        is_line_linked: false,
        assigned_staff_id: staffA.id,
        rebook_prompts_enabled: true,
        no_show_count: 0,
        late_cancel_count: 0,
        needs_approval: false,
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      const linked = (result.body as unknown as AdminCustomer[]).find((customer) => customer.id === walkIn.id)!;
      expect(linked).toMatchObject({ is_line_linked: true, line_user_id: 'U-walk-in-linked', assigned_staff_id: null });
    });

    it('gives ordinary staff only their customers (assigned or with a reservation with them); user_id is ignored', async () => {
      for (const query of ['', `?user_id=${staffB.id}`, '?user_id=999999']) {
        const result = await list(staffA.token, query);
        expect(result.status, query).toBe(200);
        expect(idsOf(result), query).toEqual([hanako.id, wildcard.id, shared.id]);
        expect(result.headers.get('x-total-count'), query).toBe('3');
      }
      const b = await list(staffB.token, `?user_id=${staffA.id}`);
      expect(idsOf(b)).toEqual([taro.id, shared.id]);
      expect(b.headers.get('x-total-count')).toBe('2');
    });

    it("lets a superuser narrow the list to one staff member's scope with user_id", async () => {
      expect(idsOf(await list(w.admin.token, `?user_id=${staffA.id}`))).toEqual([hanako.id, wildcard.id, shared.id]);
      const b = await list(w.admin.token, `?user_id=${staffB.id}`);
      expect(idsOf(b)).toEqual([taro.id, shared.id]);
      expect(b.headers.get('x-total-count')).toBe('2');
    });

    it('searches name or furigana (also by hiragana), e-mail and phone by part, case-insensitively', async () => {
      const cases: Array<[string, number[]]> = [
        ['?name=山田', [hanako.id, taro.id]],
        ['?name=花子', [hanako.id]],
        ['?name=ヤマダ', [hanako.id, taro.id]],
        ['?name=やまだ', [hanako.id, taro.id]],
        ['?name=タロウ', [taro.id]],
        [`?email=${encodeURIComponent('HANAKO@example')}`, [hanako.id]],
        ['?email=example.com', [hanako.id, wildcard.id, taro.id]],
        ['?phone_number=1111', [hanako.id]],
        ['?phone_number=080-3333', [taro.id]],
        [`?name=${encodeURIComponent('山田')}&email=taro`, [taro.id]],
        ['?name=nobody', []],
      ];
      for (const [query, expected] of cases) {
        const result = await list(w.admin.token, query);
        expect(result.status, query).toBe(200);
        expect(idsOf(result), query).toEqual(expected);
        expect(result.headers.get('x-total-count'), query).toBe(String(expected.length));
      }
    });

    it('treats % and _ in the search as plain characters', async () => {
      expect(idsOf(await list(w.admin.token, `?name=${encodeURIComponent('%')}`))).toEqual([wildcard.id]);
      expect(idsOf(await list(w.admin.token, '?name=_'))).toEqual([wildcard.id]);
      expect(idsOf(await list(w.admin.token, `?name=${encodeURIComponent('_50%')}`))).toEqual([wildcard.id]);
      expect(idsOf(await list(w.admin.token, `?email=${encodeURIComponent('%@%')}`))).toEqual([]);
      expect(idsOf(await list(w.admin.token, `?name=${encodeURIComponent('\\')}`))).toEqual([]);
    });

    it('ignores empty filter values', async () => {
      const result = await list(w.admin.token, '?name=&email=&phone_number=&user_id=&updated_since=&limit=&offset=');
      expect(result.status).toBe(200);
      expect(idsOf(result)).toEqual(all);
    });

    it("never shows another staff member's customers through a search", async () => {
      const result = await list(staffA.token, `?name=${encodeURIComponent('太郎')}`);
      expect(result.status).toBe(200);
      expect(idsOf(result)).toEqual([]);
      expect(result.headers.get('x-total-count')).toBe('0');
    });

    it('pages with limit and offset; X-Total-Count stays the total', async () => {
      const page1 = await list(w.admin.token, '?limit=2');
      expect(idsOf(page1)).toEqual(all.slice(0, 2));
      expect(page1.headers.get('x-total-count')).toBe('5');
      const page2 = await list(w.admin.token, '?limit=2&offset=2');
      expect(idsOf(page2)).toEqual(all.slice(2, 4));
      expect(page2.headers.get('x-total-count')).toBe('5');
      const scoped = await list(staffA.token, '?limit=1&offset=1');
      expect(idsOf(scoped)).toEqual([wildcard.id]);
      expect(scoped.headers.get('x-total-count')).toBe('3');
      for (const query of ['?limit=0', '?limit=1001', '?offset=-1', '?limit=abc']) {
        const result = await list(w.admin.token, query);
        expect(result.status, query).toBe(400);
        expect(result.body.code, query).toBe('invalid');
      }
      expect((await list(w.admin.token, '?limit=1000')).status).toBe(200);
    });

    it('returns only rows changed after updated_since (delta sync), and refuses a malformed one', async () => {
      await sleep(20);
      const since = new Date().toISOString();
      await sleep(20);
      expect((await patch(staffA.token, hanako.id, { notes: 'ジェルが好き' })).status).toBe(200);
      const delta = await list(w.admin.token, `?updated_since=${encodeURIComponent(since)}`);
      expect(delta.status).toBe(200);
      expect(idsOf(delta)).toEqual([hanako.id]);
      expect(delta.headers.get('x-total-count')).toBe('1');
      // The same instant with an offset.
      const tokyo = new Date(new Date(since).getTime() + 9 * 3600_000).toISOString().replace('Z', '+09:00');
      expect(idsOf(await list(w.admin.token, `?updated_since=${encodeURIComponent(tokyo)}`))).toEqual([hanako.id]);
      // Staff B does not get A's customer in a delta either.
      expect(idsOf(await list(staffB.token, `?updated_since=${encodeURIComponent(since)}`))).toEqual([]);
      for (const bad of ['yesterday', '2030-01-01', '2030-01-01T00:00:00']) {
        const result = await list(w.admin.token, `?updated_since=${encodeURIComponent(bad)}`);
        expect(result.status, bad).toBe(400);
        expect(result.body.fields, bad).toEqual({ updated_since: [MESSAGES.invalidDateTime] });
      }
    });

    it('refuses anonymous callers and customer tokens with 401', async () => {
      expect((await w.api('/api/admin/customers/')).status).toBe(401);
      const asCustomer = await list(hanako.token);
      expect(asCustomer.status).toBe(401);
      expect(asCustomer.body.code).toBe('token_not_valid');
    });
  });

  describe('GET and PATCH /api/admin/customers/{id}/', () => {
    it('shows a customer in scope and answers 404 for one out of scope or absent', async () => {
      const own = await w.api(`/api/admin/customers/${shared.id}/`, { token: staffA.token });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ id: shared.id, name: '高橋 結衣', assigned_staff_id: staffB.id });
      for (const id of [taro.id, walkIn.id, 999999]) {
        const result = await w.api(`/api/admin/customers/${id}/`, { token: staffA.token });
        expect(result.status, String(id)).toBe(404);
        expect(result.body).toEqual(CUSTOMER_NOT_FOUND);
      }
      expect((await w.api(`/api/admin/customers/${walkIn.id}/`, { token: w.admin.token })).status).toBe(200);
      expect((await w.api('/api/admin/customers/abc/', { token: w.admin.token })).status).toBe(400);
      expect((await w.api(`/api/admin/customers/${hanako.id}/`)).status).toBe(401);
    });

    it('updates the memo and contact fields and bumps updated_at', async () => {
      const before = await rowOf(wildcard.id);
      await sleep(5);
      const result = await patch(staffA.token, wildcard.id, {
        notes: '爪が薄いので注意\n次回はオフから',
        name: ' 田中 みどり ',
        furigana: 'タナカ ミドリ',
        email: 'midori@example.com',
        phone_number: '0312345678',
      });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({
        id: wildcard.id,
        notes: '爪が薄いので注意\n次回はオフから',
        name: '田中 みどり',
        furigana: 'タナカ ミドリ',
        email: 'midori@example.com',
        phone_number: '0312345678',
      });
      const after = await rowOf(wildcard.id);
      expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
      expect(result.body.updated_at).toBe(after.updated_at.toISOString());
      // Only the fields sent change; an empty e-mail is allowed (walk-ins).
      const partial = await patch(staffA.token, wildcard.id, { email: '' });
      expect(partial.status).toBe(200);
      expect(partial.body).toMatchObject({ email: '', notes: '爪が薄いので注意\n次回はオフから', name: '田中 みどり' });
    });

    it("answers 404 for another staff member's customer and changes nothing", async () => {
      const before = await rowOf(taro.id);
      const result = await patch(staffA.token, taro.id, { notes: 'hijack', name: '乗っ取り' });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(CUSTOMER_NOT_FOUND);
      expect(await rowOf(taro.id)).toEqual(before);
      // The superuser may edit anyone.
      expect((await patch(w.admin.token, taro.id, { notes: '店長メモ' })).body).toMatchObject({ notes: '店長メモ' });
    });

    it('refuses bad input field by field, with nothing written', async () => {
      const before = await rowOf(hanako.id);
      const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
        [{ notes: 'x', furigana: 'Yamada' }, { furigana: [MESSAGES.furiganaKatakana] }],
        [{ notes: 'x', email: 'not-an-email' }, { email: [MESSAGES.emailInvalid] }],
        [{ notes: 'x', phone_number: '+81-90-1234-5678' }, { phone_number: [MESSAGES.phoneDigits] }],
        [{ notes: 'x'.repeat(5001) }, { notes: [MESSAGES.tooLong] }],
        [{ notes: 'x', name: '   ' }, { name: [MESSAGES.requiredMissing] }],
        [{ notes: 42 }, { notes: [expect.any(String)] }],
      ];
      for (const [body, fields] of cases) {
        const result = await patch(w.admin.token, hanako.id, body);
        expect(result.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(result.body).toEqual({ detail: MESSAGES.invalidInput, code: 'invalid', fields });
      }
      expect(await rowOf(hanako.id)).toEqual(before);
      expect((await patch(w.admin.token, hanako.id, { notes: 'x'.repeat(5000) })).status).toBe(200);
    });
  });

  describe('GET /api/admin/customers/{id}/reservations/', () => {
    const reservationsOf = (token: string, id: number) => w.api(`/api/admin/customers/${id}/reservations/`, { token });

    it('lists every reservation of the customer for a superuser, newest start first, in the admin shape', async () => {
      const result = await reservationsOf(w.admin.token, shared.id);
      expect(result.status).toBe(200);
      const rows = result.body as unknown as Reservation[];
      expect(rows.map((row) => row.start_time)).toEqual([
        '2030-01-20T10:00:00',
        '2030-01-06T10:00:00',
        '2030-01-02T10:00:00',
      ]);
      expect(rows.map((row) => row.staff_id)).toEqual([staffB.id, staffA.id, staffB.id]);
      expect(rows[0]).toMatchObject({
        customer_id: shared.id,
        status: 'confirmed',
        service_name: 'ジェルネイル',
        service: { id: gel.id, name: 'ジェルネイル', price: '5000', duration_minutes: 90 },
        staff_name: '鈴木 B',
        end_time: '2030-01-20T11:30:00',
        reservation_number: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(result.headers.get('x-total-count')).toBe('3');
    });

    it('shows ordinary staff only the reservations assigned to them', async () => {
      const a = await reservationsOf(staffA.token, shared.id);
      expect(a.status).toBe(200);
      expect((a.body as unknown as Reservation[]).map((row) => [row.staff_id, row.start_time])).toEqual([
        [staffA.id, '2030-01-06T10:00:00'],
      ]);
      expect(a.headers.get('x-total-count')).toBe('1');
      const b = await reservationsOf(staffB.token, shared.id);
      expect((b.body as unknown as Reservation[]).map((row) => row.staff_id)).toEqual([staffB.id, staffB.id]);
      // Hanako is A's customer with no reservations at all.
      const none = await reservationsOf(staffA.token, hanako.id);
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
    });

    it('answers 404 for a customer out of scope', async () => {
      for (const id of [taro.id, walkIn.id, 999999]) {
        const result = await reservationsOf(staffA.token, id);
        expect(result.status, String(id)).toBe(404);
        expect(result.body).toEqual(CUSTOMER_NOT_FOUND);
      }
    });
  });

  describe('POST /api/admin/customers/{id}/generate-line-link/', () => {
    const generate = (token: string, id: number) =>
      w.api(`/api/admin/customers/${id}/generate-line-link/`, { method: 'POST', token });
    const tokenCount = async () => (await w.db.select({ value: count() }).from(linkTokens))[0]!.value;

    it('gives a one-time 7-day link with a message to paste, storing only the hash of the token', async () => {
      const result = await generate(w.admin.token, hanako.id);
      expect(result.status).toBe(201);
      const body = result.body as { link_url: string; message: string; expires_at: string };
      expect(Object.keys(body).sort()).toEqual(['expires_at', 'link_url', 'message']);
      const match = /^https:\/\/salon\.example\/link-customer\/([A-Za-z0-9_-]{22})$/.exec(body.link_url);
      expect(match, body.link_url).not.toBeNull();
      const token = match![1]!;
      expect(body.message).toContain(body.link_url);
      expect(body.message).toContain('7日間');
      // The booking suites' clock: 2030-01-10 09:00 in Tokyo, plus 7 days.
      expect(body.expires_at).toBe('2030-01-17T09:00:00');

      const rows = await w.db.select().from(linkTokens).where(eq(linkTokens.customer_id, hanako.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        token_hash: createHash('sha256').update(token).digest('hex'),
        kind: 'customer',
        created_by_staff_id: w.admin.id,
        used_at: null,
      });
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(rows[0]!.expires_at.toISOString()).toBe('2030-01-17T00:00:00.000Z');

      const status = await w.api(`/api/link-customer/${token}/`);
      expect(status.status).toBe(200);
      expect(status.body).toEqual({ valid: true, expires_at: '2030-01-17T09:00:00' });
      // A second link is another token.
      const again = await generate(w.admin.token, hanako.id);
      expect(again.status).toBe(201);
      expect(again.body.link_url).not.toBe(body.link_url);
    });

    it('refuses ordinary staff, even for their own customer, and answers 404 for an unknown one; no token', async () => {
      const before = await tokenCount();
      for (const id of [hanako.id, taro.id]) {
        expect((await generate(staffA.token, id)).status).toBe(403);
      }
      const unknown = await generate(w.admin.token, 999999);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(CUSTOMER_NOT_FOUND);
      expect(await tokenCount()).toBe(before);
    });

    it('answers 409 for a customer already linked to LINE', async () => {
      const before = await tokenCount();
      const result = await generate(w.admin.token, walkIn.id);
      expect(result.status).toBe(409);
      expect(result.body).toEqual({ detail: SERVER_MESSAGES.customerAlreadyLinked, code: 'already_linked' });
      expect(await tokenCount()).toBe(before);
    });

    it('answers 404 with the Japanese message for an unknown link token', async () => {
      const result = await w.api('/api/link-customer/AAAAAAAAAAAAAAAAAAAAAA/');
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ detail: MESSAGES.customerLinkInvalid, code: 'not_found' });
    });
  });
});
