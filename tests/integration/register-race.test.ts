/**
 * The register's guards (docs/architecture.md#register-会計): one checkout per reservation under concurrency, the
 * closing that locks its day, voids and refunds as records, and what ordinary staff reach.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts } from '../../server/db/schema';
import type { Checkout, Closing, Correction } from '../../src/shared/schemas/register';
import { testEngine } from '../helpers/database';
import type { CustomerRow, StaffRow } from '../helpers/factories';
import { line, startRegisterWorld, type RegisterWorld } from '../helpers/register-fixtures';

describe(`register guards on ${testEngine}`, () => {
  let w: RegisterWorld;
  let staffA: StaffRow;
  let staffB: StaffRow;
  let hanako: CustomerRow;
  let yui: CustomerRow;
  let gel: { id: number; name: string; price: number };
  const admin = () => w.admin.id;
  const sale = (customerId: number, payments: Array<{ method: 'cash' | 'card'; amount: number }>) => ({
    customer_id: customerId,
    lines: [line('ジェルネイル', 6600), line('ハーブティー', 1080, { tax_rate: 8 })],
    payments,
  });

  beforeAll(async () => {
    w = await startRegisterWorld();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('guard-a', '佐藤 A');
    staffB = await w.staff('guard-b', '鈴木 B');
    hanako = await w.customer('山田 花子', staffA.id);
    yui = await w.customer('高橋 結衣', staffB.id);
    gel = await w.service('ジェルネイル', 6600);
  });
  afterAll(() => w?.close());

  it('gives 20 parallel checkouts of one reservation exactly one 201; the rest are 409', async () => {
    const booking = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: '2030-01-10T08:00:00',
    });
    const token = await w.tokenOf(staffA.id);
    const body = {
      reservation_number: booking.reservation_number,
      lines: [line('ジェルネイル', 6600, { kind: 'service' })],
      payments: [{ method: 'card', amount: 6600 }],
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        w.t.api('/api/admin/checkouts/', {
          method: 'POST',
          token,
          json: body,
          headers: { 'idempotency-key': `race-${i}` },
        }),
      ),
    );
    const statuses = results.map((result) => result.status).sort((a, b) => a - b);
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'already_checked_out')).toBe(true);
    expect(await w.db.select().from(checkouts).where(eq(checkouts.reservation_id, booking.id))).toHaveLength(1);
    expect(await w.statusOf(booking.id)).toBe('completed');
  });

  it('voids and refunds as records of their own, superuser only, with a reason', async () => {
    const paid = await w.checkedOut(staffA.id, sale(hanako.id, [{ method: 'card', amount: 7680 }]));
    const path = `/api/admin/checkouts/${paid.id}`;
    expect((await w.as(staffA.id, `${path}/void/`, { method: 'POST', json: { reason: '打ち間違い' } })).status).toBe(
      403,
    );
    expect((await w.as(admin(), `${path}/void/`, { method: 'POST', json: { reason: '' } })).status).toBe(400);
    const voided = await w.as(admin(), `${path}/void/`, { method: 'POST', json: { reason: '打ち間違い' } });
    expect(voided.status).toBe(201);
    expect(voided.body).toMatchObject({
      kind: 'void',
      amount: 7680,
      method: 'card',
      cash_refunded: 0,
      reason: '打ち間違い',
    });
    const read = (await w.as(staffA.id, `${path}/`)).body as unknown as Checkout;
    expect(read.status).toBe('voided');
    expect(read.total).toBe(7680);
    expect(read.corrections).toHaveLength(1);
    expect((await w.as(admin(), `${path}/void/`, { method: 'POST', json: { reason: '再' } })).body.code).toBe(
      'already_voided',
    );
    expect((await w.as(admin(), `${path}/refund/`, { method: 'POST', json: { reason: '再' } })).status).toBe(409);

    const other = await w.checkedOut(staffA.id, sale(hanako.id, [{ method: 'cash', amount: 7680 }]));
    const refund = await w.as(admin(), `/api/admin/checkouts/${other.id}/refund/`, {
      method: 'POST',
      json: { reason: '商品の不良', lines: [{ line_index: 1, quantity: 1 }] },
    });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({ kind: 'refund', amount: 1080, method: 'cash', cash_refunded: 1080 });
    const after = (await w.as(admin(), `/api/admin/checkouts/${other.id}/`)).body as unknown as Checkout;
    expect(after.status).toBe('partially_refunded');
    const tooMuch = await w.as(admin(), `/api/admin/checkouts/${other.id}/refund/`, {
      method: 'POST',
      json: { reason: '再', lines: [{ line_index: 1, quantity: 1 }] },
    });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, 'refund_too_much']);
    const voidAfterRefund = await w.as(admin(), `/api/admin/checkouts/${other.id}/void/`, {
      method: 'POST',
      json: { reason: '取消' },
    });
    expect([voidAfterRefund.status, voidAfterRefund.body.code]).toEqual([409, 'refunded']);
    const rest = await w.as(admin(), `/api/admin/checkouts/${other.id}/refund/`, {
      method: 'POST',
      json: { reason: '全額返金' },
    });
    expect(rest.body.amount).toBe(6600);
    expect(((await w.as(admin(), `/api/admin/checkouts/${other.id}/`)).body as unknown as Checkout).status).toBe(
      'refunded',
    );
  });

  it('refuses, in the database, to change or delete a money record in place', async () => {
    const paid = await w.checkedOut(staffA.id, sale(hanako.id, [{ method: 'card', amount: 7680 }]));
    await expect(w.db.update(checkouts).set({ total: 0 }).where(eq(checkouts.id, paid.id))).rejects.toThrow();
    await expect(w.db.delete(checkouts).where(eq(checkouts.id, paid.id))).rejects.toThrow();
    const [row] = await w.db.select().from(checkouts).where(eq(checkouts.id, paid.id));
    expect(row!.total).toBe(7680);
  });

  it('keeps ordinary staff to their own reservations, customers and takings', async () => {
    const aBooking = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: '2030-01-10T07:00:00',
    });
    const aCheckout = await w.checkedOut(staffA.id, sale(hanako.id, [{ method: 'card', amount: 7680 }]));
    const bBody = { lines: [line('ケア', 3300)], payments: [{ method: 'card' as const, amount: 3300 }] };
    expect(
      (await w.as(staffB.id, `/api/admin/reservations/${aBooking.reservation_number}/checkout-draft/`)).status,
    ).toBe(404);
    expect((await w.checkout(staffB.id, { ...bBody, reservation_number: aBooking.reservation_number })).status).toBe(
      404,
    );
    expect((await w.checkout(staffB.id, { ...bBody, customer_id: hanako.id })).status).toBe(404);
    const own = await w.checkedOut(staffB.id, { ...bBody, customer_id: yui.id, staff_id: staffA.id });
    // An ordinary staff member rings up their own takings whatever staff_id says.
    expect(own.staff_id).toBe(staffB.id);
    expect((await w.as(staffB.id, `/api/admin/checkouts/${aCheckout.id}/`)).status).toBe(404);
    expect((await w.as(staffB.id, `/api/admin/checkouts/${aCheckout.id}/receipt/`)).status).toBe(404);
    const list = (await w.as(staffB.id, '/api/admin/checkouts/')).body as unknown as Checkout[];
    expect(list.map((checkout) => checkout.id)).toEqual([own.id]);
    const all = (await w.as(admin(), '/api/admin/checkouts/?date=2030-01-10')).body as unknown as Checkout[];
    expect(all.map((checkout) => checkout.id)).toEqual(expect.arrayContaining([own.id, aCheckout.id]));
    for (const path of [
      '/api/admin/sales/?from=2030-01-10&to=2030-01-10',
      '/api/admin/register-closings/?from=2030-01-10&to=2030-01-10',
    ]) {
      expect((await w.as(staffB.id, path)).status, path).toBe(403);
    }
  });

  it('closes a day once: expected cash from the drawer, and the day takes no checkout and no void after it', async () => {
    await w.as(admin(), '/api/admin/settings/', { method: 'PATCH', json: { opening_float: 20000 } });
    const before = (await w.as(admin(), '/api/admin/checkouts/?date=2030-01-10')).body as unknown as Checkout[];
    const drawer = before.reduce((sum, c) => sum + c.cash_received - c.change, 0);
    const refundedCash = before.flatMap((c) => c.corrections).reduce((sum, c) => sum + c.cash_refunded, 0);
    // Cash handed over beyond the total: 10000 for 7680, change 2320.
    const cashSale = await w.checkedOut(staffA.id, { ...sale(hanako.id, [{ method: 'cash', amount: 10000 }]) });
    expect(cashSale.change).toBe(2320);

    // Checkouts racing the closing: each is either counted by it or refused with day_closed.
    const token = await w.tokenOf(staffA.id);
    const racing = Array.from({ length: 6 }, () =>
      w.t.api('/api/admin/checkouts/', {
        method: 'POST',
        token,
        json: sale(hanako.id, [{ method: 'cash', amount: 7680 }]),
      }),
    );
    const closingCall = w.as(admin(), '/api/admin/register-closings/', {
      method: 'POST',
      json: { date: '2030-01-10', counted_cash: 50000, memo: '千円札1枚不足' },
    });
    const [closing, ...raced] = await Promise.all([closingCall, ...racing]);
    expect(closing!.status).toBe(201);
    const closed = closing!.body as unknown as Closing;
    const counted = raced.filter((r) => r.status === 201).length;
    expect(raced.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'day_closed'))).toBe(true);
    const cashIn = drawer + 7680 + counted * 7680;
    expect(closed).toMatchObject({ date: '2030-01-10', opening_float: 20000, memo: '千円札1枚不足' });
    expect(closed.expected_cash).toBe(20000 + cashIn - refundedCash);
    expect(closed.cash_received - closed.change_given).toBe(cashIn);
    expect(closed.difference).toBe(50000 - closed.expected_cash);

    const late = await w.checkout(staffA.id, sale(hanako.id, [{ method: 'card', amount: 7680 }]));
    expect([late.status, late.body.code]).toEqual([409, 'day_closed']);
    const lateVoid = await w.as(admin(), `/api/admin/checkouts/${cashSale.id}/void/`, {
      method: 'POST',
      json: { reason: '取消' },
    });
    expect([lateVoid.status, lateVoid.body.code]).toEqual([409, 'day_closed']);
    const lateRefund = await w.as(admin(), `/api/admin/checkouts/${cashSale.id}/refund/`, {
      method: 'POST',
      json: { reason: '返金' },
    });
    expect(lateRefund.status).toBe(409);
    const again = await w.as(admin(), '/api/admin/register-closings/', {
      method: 'POST',
      json: { date: '2030-01-10', counted_cash: 0 },
    });
    expect([again.status, again.body.code]).toEqual([409, 'already_closed']);
    const future = await w.as(admin(), '/api/admin/register-closings/', {
      method: 'POST',
      json: { date: '2030-01-11', counted_cash: 0 },
    });
    expect(future.status).toBe(400);

    // The next day is open: the closed day's checkout is corrected there, by a refund.
    w.advanceDays(1);
    const refund = await w.as(admin(), `/api/admin/checkouts/${cashSale.id}/refund/`, {
      method: 'POST',
      json: { reason: '翌日の返金' },
    });
    expect(refund.status).toBe(201);
    expect((refund.body as unknown as Correction).business_date).toBe('2030-01-11');
    expect((await w.checkout(staffA.id, sale(hanako.id, [{ method: 'card', amount: 7680 }]))).status).toBe(201);
    const listed = await w.as(admin(), '/api/admin/register-closings/?from=2030-01-01&to=2030-01-31');
    expect(listed.body).toEqual([closed]);
    w.advanceDays(-1);
  });
});
