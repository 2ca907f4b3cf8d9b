/**
 * The register (docs/architecture.md#register-会計) through the API: settings, products, the draft of a booking,
 * the money rules of a checkout, receipt numbers, idempotent replay and the printable receipt.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts } from '../../server/db/schema';
import type { Checkout } from '../../src/shared/schemas/register';
import { testEngine } from '../helpers/database';
import type { CustomerRow, StaffRow } from '../helpers/factories';
import { line, startRegisterWorld, type RegisterWorld } from '../helpers/register-fixtures';

describe(`register on ${testEngine}`, () => {
  let w: RegisterWorld;
  let staffA: StaffRow;
  let hanako: CustomerRow;
  let gel: { id: number; name: string; price: number };
  let teaId: number;
  let hour = 0;
  const admin = () => w.admin.id;
  /** A booking of Hanako with staff A today (2030-01-10), started before the fixed now, each at its own hour. */
  const todaysBooking = () =>
    w.reservation({ staffId: staffA.id, customer: hanako, service: gel, start: `2030-01-10T0${hour++}:00:00` });

  beforeAll(async () => {
    w = await startRegisterWorld();
    staffA = await w.staff('register-a', '佐藤 A');
    hanako = await w.customer('山田 花子', staffA.id);
    gel = await w.service('ジェルネイル', 6600);
    const tea = await w.as(admin(), '/api/admin/products/', {
      method: 'POST',
      json: { name: 'ハーブティー', price: 1080, tax_rate: 8 },
    });
    teaId = tea.body.id as number;
  });
  afterAll(() => w?.close());

  it('keeps the three register settings, changed by the superuser only and checked', async () => {
    const patch = { invoice_registration_number: 't1234567890123', tax_rounding: 'round', opening_float: 30000 };
    const refused = await w.as(staffA.id, '/api/admin/settings/', { method: 'PATCH', json: patch });
    expect(refused.status).toBe(403);
    const changed = await w.as(admin(), '/api/admin/settings/', { method: 'PATCH', json: patch });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      invoice_registration_number: 'T1234567890123',
      tax_rounding: 'round',
      opening_float: 30000,
    });
    for (const bad of [
      { invoice_registration_number: 'T123' },
      { tax_rounding: 'bankers' },
      { opening_float: -1 },
      { opening_float: 1.5 },
    ]) {
      const result = await w.as(admin(), '/api/admin/settings/', { method: 'PATCH', json: bad });
      expect(result.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(result.body.fields as object)).toEqual(Object.keys(bad));
    }
    await w.as(admin(), '/api/admin/settings/', { method: 'PATCH', json: { tax_rounding: 'floor' } });
  });

  it('manages products: staff read, the superuser writes, a delete retires', async () => {
    const created = await w.as(admin(), '/api/admin/products/', {
      method: 'POST',
      json: { name: 'キューティクルオイル', price: 2200, tax_rate: 10 },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(
      (await w.as(admin(), '/api/admin/products/', { method: 'POST', json: { name: 'x', price: 1, tax_rate: 5 } }))
        .status,
    ).toBe(400);
    const patched = await w.as(admin(), `/api/admin/products/${id}/`, { method: 'PATCH', json: { price: 2420 } });
    expect(patched.body).toEqual({ id, name: 'キューティクルオイル', price: 2420, tax_rate: 10 });
    expect((await w.as(staffA.id, '/api/admin/products/')).body).toContainEqual(patched.body);
    expect((await w.as(admin(), `/api/admin/products/${id}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await w.as(staffA.id, '/api/admin/products/')).body).not.toContainEqual(patched.body);
    expect((await w.as(admin(), `/api/admin/products/${id}/`, { method: 'DELETE' })).status).toBe(404);
  });

  it('drafts a booking at its booked prices: the menu, each option and the 指名料, all at 10%', async () => {
    const booking = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: '2030-01-12T10:00:00',
      options: [{ id: 7, name: 'ストーン', price: 550 }],
      nominationFee: 1100,
    });
    const draft = await w.as(staffA.id, `/api/admin/reservations/${booking.reservation_number}/checkout-draft/`);
    expect(draft.status).toBe(200);
    expect(draft.body).toEqual({
      reservation_number: booking.reservation_number,
      customer_id: hanako.id,
      staff_id: staffA.id,
      lines: [
        { kind: 'service', ref_id: gel.id, name: 'ジェルネイル', unit_price: 6600, quantity: 1, tax_rate: 10 },
        { kind: 'option', ref_id: 7, name: 'ストーン', unit_price: 550, quantity: 1, tax_rate: 10 },
        { kind: 'nomination', ref_id: staffA.id, name: '指名料', unit_price: 1100, quantity: 1, tax_rate: 10 },
      ],
    });
  });

  it('checks a booking out: a discount shared over two rates, tax per rate, change, and the booking completed', async () => {
    const booking = await todaysBooking();
    const result = await w.checkout(staffA.id, {
      reservation_number: booking.reservation_number,
      lines: [
        line('ジェルネイル', 6600, { kind: 'service', ref_id: gel.id }),
        line('ハーブティー', 1080, { kind: 'product', ref_id: teaId, quantity: 2, tax_rate: 8 }),
      ],
      discounts: [{ name: '初回割引', amount: 1000 }],
      payments: [
        { method: 'card', amount: 5000 },
        { method: 'cash', amount: 3000 },
      ],
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      subtotal: 8760,
      discount_total: 1000,
      total: 7760,
      tax_by_rate: [
        { rate: 10, taxable_total: 5846, tax: 531 },
        { rate: 8, taxable_total: 1914, tax: 141 },
      ],
      payments: [
        { method: 'card', amount: 5000 },
        { method: 'cash', amount: 2760 },
      ],
      cash_received: 3000,
      change: 240,
      status: 'completed',
      checked_out_at: '2030-01-10T09:00:00',
      customer_id: hanako.id,
      staff_id: staffA.id,
      reservation_number: booking.reservation_number,
    });
    expect(result.body.receipt_number).toMatch(/^20300110-\d{6}$/);
    expect(await w.statusOf(booking.id)).toBe('completed');
    // Read back as it was recorded.
    const read = await w.as(staffA.id, `/api/admin/checkouts/${result.body.id}/`);
    expect(read.body).toEqual(result.body);
  });

  it('rounds the tax per rate as the salon chose', async () => {
    const expected = { floor: 90, round: 91, ceil: 91 } as const;
    for (const [rounding, tax] of Object.entries(expected)) {
      await w.setSalon({ tax_rounding: rounding as 'floor' });
      const receipt = await w.checkedOut(staffA.id, {
        customer_id: hanako.id,
        lines: [line('カット', 1000)],
        payments: [{ method: 'cash', amount: 1000 }],
      });
      expect(receipt.tax_by_rate, rounding).toEqual([{ rate: 10, taxable_total: 1000, tax }]);
    }
    await w.setSalon({ tax_rounding: 'floor' });
  });

  it('refuses payments that do not cover the total exactly (cash aside), recording nothing', async () => {
    const before = await w.db.select({ id: checkouts.id }).from(checkouts);
    const base = { customer_id: hanako.id, lines: [line('ケア', 3300), line('オイル', 1080, { tax_rate: 8 })] };
    const refusals: Array<[unknown, string]> = [
      [[{ method: 'card', amount: 4000 }], 'payments_short'],
      [[{ method: 'card', amount: 5000 }], 'non_cash_over_total'],
      [
        [
          { method: 'card', amount: 4380 },
          { method: 'cash', amount: 10 },
        ],
        'payments_over',
      ],
      [[], 'payments_short'],
    ];
    for (const [payments, code] of refusals) {
      const result = await w.checkout(staffA.id, { ...base, payments } as never);
      expect(result.status, code).toBe(400);
      expect(result.body.code).toBe(code);
    }
    const cashShort = await w.checkout(staffA.id, {
      ...base,
      payments: [{ method: 'cash', amount: 4380 }],
      cash_received: 4000,
    });
    expect(cashShort.body.code).toBe('cash_received_short');
    const tooMuchOff = await w.checkout(staffA.id, {
      ...base,
      discounts: [{ name: '割引', amount: 5000 }],
      payments: [],
    });
    expect(tooMuchOff.body.code).toBe('discount_too_large');
    expect(await w.db.select({ id: checkouts.id }).from(checkouts)).toEqual(before);
    // Cash may exceed what is due: the rest is change, given with お預かり.
    const paid = await w.checkedOut(staffA.id, {
      ...base,
      payments: [{ method: 'cash', amount: 4380 }],
      cash_received: 5000,
    });
    expect([paid.total, paid.cash_received, paid.change]).toEqual([4380, 5000, 620]);
  });

  it('keeps a device receipt number when well-formed and unused, and assigns its own otherwise', async () => {
    const body = {
      customer_id: hanako.id,
      lines: [line('ケア', 1100)],
      payments: [{ method: 'qr' as const, amount: 1100 }],
    };
    const kept = await w.checkedOut(staffA.id, { ...body, receipt_number: 'ipad1-20300110-7' });
    expect(kept.receipt_number).toBe('IPAD1-20300110-7');
    expect(kept.receipt_number_from_client).toBe(true);
    for (const requested of ['IPAD1-20300110-7', '20300110-000001', 'x', '<script>']) {
      const assigned = await w.checkedOut(staffA.id, { ...body, receipt_number: requested });
      expect(assigned.receipt_number, requested).toMatch(/^20300110-\d{6}$/);
      expect(assigned.receipt_number_from_client).toBe(false);
    }
  });

  it('refuses a booking whose day has not come, and a cancelled one', async () => {
    const tomorrow = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: '2030-01-11T10:00:00',
    });
    const cancelled = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: '2030-01-09T10:00:00',
      status: 'cancelled',
    });
    const body = { lines: [line('ジェルネイル', 6600)], payments: [{ method: 'card' as const, amount: 6600 }] };
    const early = await w.checkout(staffA.id, { ...body, reservation_number: tomorrow.reservation_number });
    expect([early.status, early.body.code]).toEqual([409, 'not_yet_due']);
    const gone = await w.checkout(staffA.id, { ...body, reservation_number: cancelled.reservation_number });
    expect([gone.status, gone.body.code]).toEqual([409, 'not_payable']);
    expect(await w.statusOf(tomorrow.id)).toBe('confirmed');
  });

  it('answers a repeated Idempotency-Key with the first checkout, and records one', async () => {
    const booking = await todaysBooking();
    const body = {
      reservation_number: booking.reservation_number,
      lines: [line('ジェルネイル', 6600, { kind: 'service' })],
      payments: [{ method: 'cash' as const, amount: 10000 }],
    };
    const headers = { 'idempotency-key': `checkout-${booking.id}` };
    const first = await w.checkout(staffA.id, body, headers);
    const again = await w.checkout(staffA.id, body, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // The stored answer lost (the process died before keeping it): the checkout's own key finds it.
    await w.db.execute(sql`delete from idempotency_keys`);
    const afterLoss = await w.checkout(staffA.id, body, headers);
    expect([afterLoss.status, afterLoss.body.id]).toEqual([201, first.body.id]);
    const rows = await w.db.select().from(checkouts).where(eq(checkouts.reservation_id, booking.id));
    expect(rows).toHaveLength(1);
    // Without the key, the same booking again is a 409.
    expect((await w.checkout(staffA.id, body)).status).toBe(409);
  });

  it('prints a 適格簡易請求書: seller and 登録番号, date, ※ lines with the legend, totals and tax per rate', async () => {
    await w.setSalon({ name: 'ネイル <桜>', invoice_registration_number: 'T1234567890123' });
    const receipt: Checkout = await w.checkedOut(staffA.id, {
      customer_id: hanako.id,
      lines: [line('ジェル & ケア', 6600), line('ハーブティー', 1080, { tax_rate: 8, quantity: 2 })],
      discounts: [{ name: '初回割引', amount: 1000 }],
      payments: [{ method: 'cash', amount: 10000 }],
    });
    const page = await w.as(
      staffA.id,
      `/api/admin/checkouts/${receipt.id}/receipt/?proviso=${encodeURIComponent('ネイル代<b>')}&name=1`,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = page.text;
    expect(html).toContain('ネイル &#60;桜&#62;');
    expect(html).toContain('登録番号 T1234567890123');
    expect(html).toContain('2030年1月10日(木) 09:00');
    expect(html).toContain(receipt.receipt_number);
    expect(html).toContain('ジェル &#38; ケア');
    expect(html).toContain('ハーブティー※');
    expect(html).toContain('※は軽減税率（8%）対象です。');
    expect(html).toContain('10%対象</td><td class="amount">¥5,846');
    expect(html).toContain('（内消費税等 10%）</td><td class="amount">¥531');
    expect(html).toContain('8%対象※</td><td class="amount">¥1,914');
    expect(html).toContain('（内消費税等 8%）</td><td class="amount">¥141');
    expect(html).toContain('山田 花子 様');
    expect(html).toContain('但し ネイル代&#60;b&#62; として');
    expect(html).toContain('@page{size:80mm auto');
    expect(html).not.toMatch(/<script/i);
    const a4 = await w.as(staffA.id, `/api/admin/checkouts/${receipt.id}/receipt/?paper=a4`);
    expect(a4.text).toContain('@page{size:A4');
    expect(a4.text).not.toContain('山田 花子 様');
    expect(a4.text).not.toContain('但し');
  });
});
