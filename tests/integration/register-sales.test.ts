/**
 * Takings (docs/architecture.md#register-会計): GET /api/admin/sales/ by day, month, staff, menu and method, and the
 * accountant's CSV, counted from checkouts less voids and refunds, never from booked prices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkout } from '../../src/shared/schemas/register';
import { testEngine } from '../helpers/database';
import type { StaffRow } from '../helpers/factories';
import { line, startRegisterWorld, type RegisterWorld } from '../helpers/register-fixtures';

describe(`register takings on ${testEngine}`, () => {
  let w: RegisterWorld;
  let staffA: StaffRow;
  let staffB: StaffRow;
  let gelId: number;
  let teaId: number;
  const receipts: Checkout[] = [];
  const admin = () => w.admin.id;
  const sales = async (group: string) => {
    const result = await w.as(admin(), `/api/admin/sales/?from=2030-01-01&to=2030-02-28&group=${group}`);
    expect(result.status).toBe(200);
    return result.body as unknown as Array<{ key: string; label: string; count: number; total: number }>;
  };

  beforeAll(async () => {
    w = await startRegisterWorld();
    // One after the other: the rows come in id order, and A must have the lower id (made at once, either may).
    staffA = await w.staff('sales-a', '佐藤 A');
    staffB = await w.staff('sales-b', '鈴木 B');
    const hanako = await w.customer('山田 花子', staffA.id);
    const formula = await w.customer('=1+1', staffB.id);
    const gel = await w.service('ジェルネイル', 9900);
    gelId = gel.id;
    const tea = await w.as(admin(), '/api/admin/products/', {
      method: 'POST',
      json: { name: 'ハーブティー', price: 1080, tax_rate: 8 },
    });
    teaId = tea.body.id as number;
    // The booking's price (9900) is not what was paid: takings count the checkout.
    const booking = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: '2030-01-10T08:00:00',
    });
    receipts.push(
      await w.checkedOut(staffA.id, {
        reservation_number: booking.reservation_number,
        lines: [
          line('ジェルネイル', 6600, { kind: 'service', ref_id: gelId }),
          line('ハーブティー', 1080, { kind: 'product', ref_id: teaId, quantity: 2, tax_rate: 8 }),
        ],
        discounts: [{ name: '初回割引', amount: 1000 }],
        payments: [
          { method: 'card', amount: 5000 },
          { method: 'cash', amount: 3000 },
        ],
      }),
      await w.checkedOut(staffB.id, {
        customer_id: formula.id,
        lines: [line('ケア', 3300)],
        payments: [{ method: 'cash', amount: 3300 }],
      }),
      await w.checkedOut(staffA.id, {
        customer_id: hanako.id,
        lines: [line('ケア', 3300)],
        payments: [{ method: 'card', amount: 3300 }],
      }),
    );
    const voided = await w.as(admin(), `/api/admin/checkouts/${receipts[2]!.id}/void/`, {
      method: 'POST',
      json: { reason: '打ち間違い' },
    });
    expect(voided.status).toBe(201);
    w.advanceDays(25); // 2030-02-04
    receipts.push(
      await w.checkedOut(staffA.id, {
        customer_id: hanako.id,
        lines: [line('ケア', 3300)],
        payments: [{ method: 'qr', amount: 3300 }],
      }),
    );
    const refund = await w.as(admin(), `/api/admin/checkouts/${receipts[0]!.id}/refund/`, {
      method: 'POST',
      json: { reason: 'ティー未開封', lines: [{ line_index: 1, quantity: 1 }] },
    });
    expect(refund.body).toMatchObject({ amount: 957, method: 'cash', business_date: '2030-02-04' });
  });
  afterAll(() => w?.close());

  it('counts takings by day and by month: checkouts less voids and refunds', async () => {
    expect(await sales('day')).toEqual([
      { key: '2030-01-10', label: '2030年1月10日(木)', count: 2, total: 11060 },
      { key: '2030-02-04', label: '2030年2月4日(月)', count: 1, total: 2343 },
    ]);
    expect(await sales('month')).toEqual([
      { key: '2030-01', label: '2030年1月', count: 2, total: 11060 },
      { key: '2030-02', label: '2030年2月', count: 1, total: 2343 },
    ]);
  });

  it('counts takings by 担当, by menu line (discounts a row of their own) and by payment method', async () => {
    expect(await sales('staff')).toEqual([
      { key: String(staffA.id), label: '佐藤 A', count: 2, total: 10103, nominated: 0 },
      { key: String(staffB.id), label: '鈴木 B', count: 1, total: 3300, nominated: 0 },
    ]);
    expect(await sales('menu')).toEqual(
      [
        { key: 'custom:ケア', label: 'ケア', count: 2, total: 6600 },
        { key: 'discount', label: '値引き', count: 1, total: -877 },
        { key: `product:${teaId}`, label: 'ハーブティー', count: 1, total: 1080 },
        { key: `service:${gelId}`, label: 'ジェルネイル', count: 1, total: 6600 },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
    expect(await sales('method')).toEqual([
      { key: 'card', label: 'クレジットカード', count: 1, total: 5000 },
      { key: 'cash', label: '現金', count: 2, total: 5103 },
      { key: 'qr', label: 'QRコード決済', count: 1, total: 3300 },
    ]);
    const bad = await w.as(admin(), '/api/admin/sales/?from=2030-02-01&to=2030-01-01');
    expect(bad.status).toBe(400);
    expect((await w.as(admin(), '/api/admin/sales/?from=2029-01-01&to=2030-01-03')).status).toBe(400);
  });

  it('writes the CSV an accountant books: one row per record, UTF-8 with a BOM, negative corrections', async () => {
    const response = await fetch(`${w.t.url}/api/admin/checkouts.csv?from=2030-01-01&to=2030-02-28`, {
      headers: { authorization: `Bearer ${await w.tokenOf(admin())}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).trimEnd().split('\r\n');
    expect(rows[0]).toBe(
      '日付,時刻,区分,レシート番号,元のレシート番号,お客様,担当,小計,値引き,合計,10%対象額,10%消費税,8%対象額,8%消費税,現金,クレジットカード,QRコード決済,電子マネー,その他,理由',
    );
    const [first, second, third, , refundReceipt] = [...receipts.slice(0, 3), null, receipts[3]];
    expect(rows.slice(1)).toEqual([
      `2030-01-10,09:00,売上,${first!.receipt_number},,山田 花子,佐藤 A,8760,1000,7760,5846,531,1914,141,2760,5000,0,0,0,`,
      `2030-01-10,09:00,売上,${second!.receipt_number},,'=1+1,鈴木 B,3300,0,3300,3300,300,0,0,3300,0,0,0,0,`,
      `2030-01-10,09:00,売上,${third!.receipt_number},,山田 花子,佐藤 A,3300,0,3300,3300,300,0,0,0,3300,0,0,0,`,
      `2030-01-10,09:00,取消,,${third!.receipt_number},,佐藤 A,-3300,0,-3300,-3300,-300,0,0,0,-3300,0,0,0,打ち間違い`,
      `2030-02-04,09:00,売上,${refundReceipt!.receipt_number},,山田 花子,佐藤 A,3300,0,3300,3300,300,0,0,0,0,3300,0,0,`,
      `2030-02-04,09:00,返金,,${first!.receipt_number},,佐藤 A,-1080,-123,-957,0,0,-957,-70,-957,0,0,0,0,ティー未開封`,
    ]);
    const totals = rows.slice(1).map((row) => Number(row.split(',')[9]));
    expect(totals.reduce((sum, total) => sum + total, 0)).toBe(11060 + 2343);
  });

  // Last: it adds a checkout on 2030-02-04, which the earlier expectations do not count.
  it('sums up 客単価, 新規/再来, the 90-day return rate and the 指名 by 担当', async () => {
    const newcomer = await w.customer('新規 さん', staffB.id);
    await w.checkedOut(staffB.id, {
      customer_id: newcomer.id,
      lines: [line('ケア', 3300), line('指名料', 550, { kind: 'nomination' })],
      payments: [{ method: 'cash', amount: 3850 }],
    });
    const summary = await w.as(admin(), '/api/admin/sales/summary/?from=2030-01-01&to=2030-02-28');
    expect(summary.status).toBe(200);
    // Visits: Hanako's two (her voided one is none), "=1+1"'s one, the newcomer's one. Hanako's first came back
    // within 90 days (2030-02-04); the others did not (yet).
    expect(summary.body).toEqual({
      visit_count: 4,
      takings: 11060 + 2343 + 3850,
      average_spend: Math.round((11060 + 2343 + 3850) / 4),
      new_visits: 3,
      returning_visits: 1,
      walk_in_visits: 0,
      new_returned_90d: 1,
      return_rate_90d: 1 / 3,
    });
    expect((await sales('staff')).find((row) => row.key === String(staffB.id))).toEqual({
      key: String(staffB.id),
      label: '鈴木 B',
      count: 2,
      total: 7150,
      nominated: 1,
    });
    expect((await w.as(staffA.id, '/api/admin/sales/summary/?from=2030-01-01&to=2030-01-31')).status).toBe(403);
  });
});
