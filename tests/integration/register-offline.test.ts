/**
 * A checkout recorded on a device without a connection and sent later (docs/architecture.md#register-会計): it
 * keeps the device's receipt number and belongs to the day the device recorded it, a day closed meanwhile refuses
 * it (a conflict the outbox shows), and its Idempotency-Key makes a resend the same checkout.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkouts } from '../../server/db/schema';
import type { Checkout } from '../../src/shared/schemas/register';
import { testEngine } from '../helpers/database';
import type { CustomerRow, StaffRow } from '../helpers/factories';
import { line, startRegisterWorld, type RegisterWorld } from '../helpers/register-fixtures';

describe(`offline checkouts on ${testEngine}`, () => {
  let w: RegisterWorld;
  let staff: StaffRow;
  let hanako: CustomerRow;
  const sale = (extra: Record<string, unknown>) => ({
    customer_id: hanako.id,
    lines: [line('パーツ', 330)],
    payments: [{ method: 'cash' as const, amount: 330 }],
    ...extra,
  });

  beforeAll(async () => {
    // The world's now: 2030-01-10 09:00 in Tokyo.
    w = await startRegisterWorld();
    staff = await w.staff('register-offline', '佐藤 O');
    hanako = await w.customer('山田 花子', staff.id);
  });
  afterAll(() => w?.close());

  it('files a checkout under the day and time the device recorded it, with its number, once per key', async () => {
    const body = sale({ receipt_number: 'DAB12CD-20300109-1', checked_out_at: '2030-01-09T18:30:00' });
    const headers = { 'idempotency-key': 'offline-checkout-1' };
    const first = await w.checkout(staff.id, body, headers);
    expect(first.status).toBe(201);
    const checkout = first.body as unknown as Checkout;
    expect(checkout).toMatchObject({
      receipt_number: 'DAB12CD-20300109-1',
      receipt_number_from_client: true,
      business_date: '2030-01-09',
      checked_out_at: '2030-01-09T18:30:00',
    });
    const again = await w.checkout(staff.id, body, headers);
    expect([again.status, again.body.id]).toEqual([201, checkout.id]);
    const rows = await w.db.select().from(checkouts).where(eq(checkouts.receipt_number, 'DAB12CD-20300109-1'));
    expect(rows).toHaveLength(1);
    // Sent again by a person under a new key (もう一度送信): the same device number and time are the same checkout.
    const resent = await w.checkout(staff.id, body, { 'idempotency-key': 'offline-checkout-1-retry' });
    expect([resent.status, resent.body.id]).toEqual([201, checkout.id]);
    const dayList = await w.as(staff.id, '/api/admin/checkouts/?date=2030-01-09');
    expect((dayList.body as unknown as Checkout[]).map((row) => row.id)).toContain(checkout.id);
  });

  it('refuses a checkout of a day closed meanwhile (409 day_closed), recording nothing', async () => {
    const closed = await w.as(w.admin.id, '/api/admin/register-closings/', {
      method: 'POST',
      json: { date: '2030-01-08', counted_cash: 0 },
    });
    expect(closed.status).toBe(201);
    const late = await w.checkout(
      staff.id,
      sale({ receipt_number: 'DAB12CD-20300108-1', checked_out_at: '2030-01-08T17:00:00' }),
    );
    expect([late.status, late.body.code]).toEqual([409, 'day_closed']);
    const rows = await w.db.select().from(checkouts).where(eq(checkouts.receipt_number, 'DAB12CD-20300108-1'));
    expect(rows).toEqual([]);
  });

  it('refuses a device time over 7 days old and takes one ahead of the server as now', async () => {
    const old = await w.checkout(staff.id, sale({ checked_out_at: '2030-01-02T08:59:00' }));
    expect([old.status, old.body.code]).toEqual([400, 'checked_out_at_out_of_range']);
    const ahead = await w.checkedOut(staff.id, sale({ checked_out_at: '2030-01-10T09:30:00' }));
    expect([ahead.business_date, ahead.checked_out_at]).toEqual(['2030-01-10', '2030-01-10T09:00:00']);
  });
});
