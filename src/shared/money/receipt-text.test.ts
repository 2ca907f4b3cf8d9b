import { describe, expect, it } from 'vitest';
import type { Checkout } from '../schemas/register';
import { receiptText } from './receipt-text';

const SALON = {
  name: 'ネイルサロン花',
  invoice_registration_number: '',
  address: '東京都渋谷区1-2-3',
  phone_number: '',
};

/** Two gels and a 1,000 discount, paid by card: no cash, no reduced rate. */
const CHECKOUT = {
  receipt_number: '20300110-000007',
  checked_out_at: '2030-01-10T15:30:00',
  customer_name: null,
  status: 'voided',
  lines: [{ kind: 'service', ref_id: 1, name: 'ジェルネイル', unit_price: 6600, quantity: 2, tax_rate: 10 }],
  discounts: [{ name: '初回割', amount: 1000 }],
  subtotal: 13200,
  total: 12200,
  tax_by_rate: [{ rate: 10, taxable_total: 12200, tax: 1109 }],
  payments: [{ method: 'card', amount: 12200 }],
  cash_received: 0,
  change: 0,
} as unknown as Checkout;

describe('receipt as text', () => {
  it('writes the lines, discount, total, tax and payments one per line, and says a voided checkout is voided', () => {
    const text = receiptText(CHECKOUT, SALON).split('\n');
    expect(text).toEqual(
      expect.arrayContaining([
        '（この会計は取り消されました）',
        'ネイルサロン花',
        '東京都渋谷区1-2-3',
        '2030年1月10日(木) 15:30',
        'No. 20300110-000007',
        'ジェルネイル（¥6,600 × 2）\u3000¥13,200',
        '初回割\u3000-¥1,000',
        '合計\u3000¥12,200',
        '（内消費税等 10%）\u3000¥1,109',
        'クレジットカード\u3000¥12,200',
      ]),
    );
  });

  it('leaves out what is not there: no 登録番号, no change, no reduced-rate legend', () => {
    const text = receiptText(CHECKOUT, SALON);
    expect(text).not.toContain('登録番号');
    expect(text).not.toContain('お釣り');
    expect(text).not.toContain('軽減税率');
  });
});
