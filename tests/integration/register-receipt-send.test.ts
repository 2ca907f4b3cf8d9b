/**
 * Sending a checkout's receipt to its customer (POST /api/admin/checkouts/{id}/send-receipt/,
 * server/features/register/send-receipt.ts): one outbox row by e-mail or LINE with the receipt's invoice fields, a
 * LINE row counted in the month's push budget like every push (server/outbox/line-budget.ts), 409 without an
 * address or a customer, and the checkout's read scope. The worker is left stopped: the rows stay to be read.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customers, linePushCounts, notificationsOutbox } from '../../server/db/schema';
import { divertOverBudget, lineUsage, reservePushes } from '../../server/outbox/line-budget';
import type { EmailPayload, LinePayload } from '../../server/outbox/payloads';
import { REGISTER_MESSAGES } from '../../src/shared/register-messages';
import type { Checkout } from '../../src/shared/schemas/register';
import { testEngine } from '../helpers/database';
import type { CustomerRow, StaffRow } from '../helpers/factories';
import { line, startRegisterWorld, type RegisterWorld } from '../helpers/register-fixtures';

const HANAKO_LINE = 'U' + 'a'.repeat(32);

describe(`sending a receipt on ${testEngine}`, () => {
  let w: RegisterWorld;
  let staffA: StaffRow;
  let staffB: StaffRow;
  let hanako: CustomerRow;
  let gel: { id: number; name: string; price: number };
  let hour = 0;
  const admin = () => w.admin.id;

  /** A checkout of Hanako's booking today with staff A: a service at 10% and a tea at 8%, paid in cash. */
  async function hanakosCheckout(): Promise<Checkout> {
    const booking = await w.reservation({
      staffId: staffA.id,
      customer: hanako,
      service: gel,
      start: `2030-01-10T0${hour++}:00:00`,
    });
    return w.checkedOut(staffA.id, {
      reservation_number: booking.reservation_number,
      lines: [
        line('ジェルネイル', 6600, { kind: 'service', ref_id: gel.id }),
        line('ハーブティー', 1080, { kind: 'custom', tax_rate: 8 }),
      ],
      payments: [{ method: 'cash', amount: 7680 }],
      cash_received: 10000,
    });
  }

  const send = (staffId: number, id: number | string, channel: string) =>
    w.as(staffId, `/api/admin/checkouts/${id}/send-receipt/`, { method: 'POST', json: { channel } });

  const queued = () => w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.kind, 'receipt'));

  beforeAll(async () => {
    w = await startRegisterWorld({ notifications: { autoStart: false } });
    staffA = await w.staff('receipt-a', '佐藤 A');
    staffB = await w.staff('receipt-b', '鈴木 B');
    hanako = await w.customer('山田 花子', staffA.id);
    gel = await w.service('ジェルネイル', 6600);
    await w.setSalon({ name: 'ネイルサロン花', invoice_registration_number: 'T1234567890123' });
  });
  afterAll(() => w?.close());
  beforeEach(async () => {
    await w.db.delete(notificationsOutbox);
    await w.db.delete(linePushCounts);
    await w.db
      .update(customers)
      .set({ email: 'hanako@example.jp', line_user_id: HANAKO_LINE })
      .where(eq(customers.id, hanako.id));
  });

  it('queues one e-mail with the receipt: salon, 登録番号, date, ※ lines, tax per rate, change, number', async () => {
    const checkout = await hanakosCheckout();
    const result = await send(staffA.id, checkout.id, 'email');
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ channel: 'email', to: 'hanako@example.jp' });
    const rows = await queued();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: 'email', recipient: 'hanako@example.jp', status: 'pending' });
    const payload = rows[0]!.payload as EmailPayload;
    expect(payload.subject).toBe(`【ネイルサロン花】領収書（No. ${checkout.receipt_number}）`);
    for (const text of [
      '領収書',
      'ネイルサロン花',
      '登録番号 T1234567890123',
      '2030年1月10日',
      'ジェルネイル　¥6,600',
      'ハーブティー※　¥1,080',
      '合計　¥7,680',
      '10%対象　¥6,600',
      '（内消費税等 10%）　¥600',
      '8%対象※　¥1,080',
      '（内消費税等 8%）　¥80',
      'お預かり（現金）　¥10,000',
      'お釣り　¥2,320',
      `No. ${checkout.receipt_number}`,
      '※は軽減税率（8%）対象です。',
    ]) {
      expect(payload.text).toContain(text);
    }
  });

  it('queues one LINE text, counted in the month’s push budget and sent by e-mail once it is spent', async () => {
    const checkout = await hanakosCheckout();
    const result = await send(staffA.id, checkout.id, 'line');
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ channel: 'line', to: '山田 花子' });
    const [row] = await queued();
    expect(row).toMatchObject({ channel: 'line', recipient: HANAKO_LINE });
    const payload = row!.payload as LinePayload;
    expect(payload.messages).toEqual([{ type: 'text', text: expect.stringContaining('登録番号 T1234567890123') }]);

    await w.setSalon({ line_monthly_push_limit: 1 });
    const claimed = { ...row!, attempts: 0 };
    expect(await reservePushes(w.db, claimed, '2030-01')).toBe(true);
    expect(await lineUsage(w.db, w.t.salonId, '2030-01')).toMatchObject({ pushes_sent: 1, limit: 1 });

    // The month's one push is spent: the next receipt by LINE goes by e-mail, with the receipt's own subject.
    await send(staffA.id, checkout.id, 'line');
    const [second] = (await queued()).filter((queuedRow) => queuedRow.id !== row!.id);
    await w.db.update(notificationsOutbox).set({ status: 'sending' }).where(eq(notificationsOutbox.id, second!.id));
    expect(await reservePushes(w.db, { ...second!, attempts: 0 }, '2030-01')).toBe(false);
    expect(await divertOverBudget(w.db, { ...second!, status: 'sending', attempts: 0 })).toBe('email');
    const [email] = await w.db
      .select()
      .from(notificationsOutbox)
      .where(and(eq(notificationsOutbox.kind, 'receipt'), eq(notificationsOutbox.channel, 'email')));
    expect(email).toMatchObject({ recipient: 'hanako@example.jp' });
    expect((email!.payload as EmailPayload).subject).toContain('領収書');
    await w.setSalon({ line_monthly_push_limit: 0 });
  });

  it('refuses with 409 when the customer has no address on that channel, and queues nothing', async () => {
    const checkout = await hanakosCheckout();
    await w.db.update(customers).set({ email: '', line_user_id: null }).where(eq(customers.id, hanako.id));
    const byEmail = await send(staffA.id, checkout.id, 'email');
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.detail).toBe(REGISTER_MESSAGES.receiptNoEmail);
    const byLine = await send(staffA.id, checkout.id, 'line');
    expect(byLine.status).toBe(409);
    expect(byLine.body.detail).toBe(REGISTER_MESSAGES.receiptNoLine);
    expect(await queued()).toEqual([]);
  });

  it('refuses with 409 a checkout without a customer (物販)', async () => {
    const sale = await w.checkedOut(admin(), {
      lines: [line('ハーブティー', 1080, { kind: 'custom', tax_rate: 8 })],
      payments: [{ method: 'card', amount: 1080 }],
    });
    const result = await send(admin(), sale.id, 'email');
    expect(result.status).toBe(409);
    expect(result.body.detail).toBe(REGISTER_MESSAGES.receiptNoCustomer);
    expect(await queued()).toEqual([]);
  });

  it('sends only what the caller may read: 404 for another nailist’s checkout and for an unknown id', async () => {
    const checkout = await hanakosCheckout();
    expect((await send(staffB.id, checkout.id, 'email')).status).toBe(404);
    expect((await send(admin(), checkout.id, 'email')).status).toBe(202);
    const unknown = await send(admin(), 999999, 'email');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(REGISTER_MESSAGES.checkoutNotFound);
    expect((await send(admin(), checkout.id, 'fax')).status).toBe(400);
    expect(await queued()).toHaveLength(1);
  });
});
