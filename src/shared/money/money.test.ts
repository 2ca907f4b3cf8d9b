import { describe, expect, it } from 'vitest';
import { settlePayments } from './payments';
import { allocateDiscount, computeReceipt } from './receipt';
import { computeRefund } from './refund';
import { taxContained } from './tax';
import type { Discount, Payment, ReceiptLine, TaxRounding } from './types';

const service = (unit_price: number): ReceiptLine => ({
  kind: 'service',
  name: 'ジェルネイル',
  unit_price,
  quantity: 1,
  tax_rate: 10,
});
const food = (unit_price: number, quantity = 1): ReceiptLine => ({
  kind: 'product',
  name: 'ハーブティー',
  unit_price,
  quantity,
  tax_rate: 8,
});

describe('taxContained', () => {
  it.each([
    // total, rate, floor, round, ceil
    [1000, 10, 90, 91, 91],
    [1006, 10, 91, 91, 92],
    [1001, 10, 91, 91, 91],
    [1050, 8, 77, 78, 78],
    [1080, 8, 80, 80, 80],
    [0, 10, 0, 0, 0],
  ] as const)('%i yen at %i%%: floor %i, round %i, ceil %i', (total, rate, floor, round, ceil) => {
    expect(taxContained(total, rate, 'floor')).toBe(floor);
    expect(taxContained(total, rate, 'round')).toBe(round);
    expect(taxContained(total, rate, 'ceil')).toBe(ceil);
  });
});

describe('allocateDiscount', () => {
  it.each([
    { gross: [6600, 2160], discount: 1000, shares: [754, 246] },
    { gross: [6600, 2160], discount: 876, shares: [660, 216] },
    // Equal totals: the leftover yen goes to the standard rate.
    { gross: [1000, 1000], discount: 1, shares: [1, 0] },
    // The reduced rate's share is the larger one: it takes the leftover.
    { gross: [100, 900], discount: 7, shares: [0, 7] },
    { gross: [5000, 0], discount: 5000, shares: [5000, 0] },
  ])('$discount yen over $gross gives $shares', ({ gross, discount, shares }) => {
    const result = allocateDiscount(
      new Map([
        [10, gross[0]!],
        [8, gross[1]!],
      ]),
      discount,
    );
    expect([result.get(10), result.get(8)]).toEqual(shares);
  });
});

describe('computeReceipt', () => {
  const cases: Array<{
    name: string;
    lines: ReceiptLine[];
    discounts?: Discount[];
    rounding: TaxRounding;
    total: number;
    discount_total: number;
    taxes: Array<[number, number, number]>;
  }> = [
    {
      name: 'one rate, no discount',
      lines: [service(5500)],
      rounding: 'floor',
      total: 5500,
      discount_total: 0,
      taxes: [[10, 5500, 500]],
    },
    {
      name: 'a yen discount over two rates, rounded down',
      lines: [service(6600), food(1080, 2)],
      discounts: [{ name: '初回割引', amount: 1000 }],
      rounding: 'floor',
      total: 7760,
      discount_total: 1000,
      taxes: [
        [10, 5846, 531],
        [8, 1914, 141],
      ],
    },
    {
      name: 'the same, rounded half up',
      lines: [service(6600), food(1080, 2)],
      discounts: [{ name: '初回割引', amount: 1000 }],
      rounding: 'round',
      total: 7760,
      discount_total: 1000,
      taxes: [
        [10, 5846, 531],
        [8, 1914, 142],
      ],
    },
    {
      name: 'the same, rounded up',
      lines: [service(6600), food(1080, 2)],
      discounts: [{ name: '初回割引', amount: 1000 }],
      rounding: 'ceil',
      total: 7760,
      discount_total: 1000,
      taxes: [
        [10, 5846, 532],
        [8, 1914, 142],
      ],
    },
    {
      name: 'a percent discount over two rates',
      lines: [service(6600), food(1080, 2)],
      discounts: [{ name: '会員割引', percent: 10 }],
      rounding: 'floor',
      total: 7884,
      discount_total: 876,
      taxes: [
        [10, 5940, 540],
        [8, 1944, 144],
      ],
    },
    {
      name: 'a percent discount rounds down to yen, then a yen discount',
      lines: [service(3333)],
      discounts: [
        { name: '7%オフ', percent: 7 },
        { name: 'クーポン', amount: 100 },
      ],
      rounding: 'floor',
      total: 3000,
      discount_total: 333,
      taxes: [[10, 3000, 272]],
    },
  ];
  it.each(cases)('$name', ({ lines, discounts, rounding, total, discount_total, taxes }) => {
    const receipt = computeReceipt({ lines, discounts, rounding });
    if ('refused' in receipt) throw new Error(receipt.refused);
    expect(receipt.total).toBe(total);
    expect(receipt.discount_total).toBe(discount_total);
    expect(receipt.subtotal - receipt.discount_total).toBe(receipt.total);
    expect(receipt.tax_by_rate.map((entry) => [entry.rate, entry.taxable_total, entry.tax])).toEqual(taxes);
    expect(receipt.tax_by_rate.reduce((sum, entry) => sum + entry.taxable_total, 0)).toBe(total);
  });

  it('refuses a receipt without lines, one too large, and a discount over the subtotal', () => {
    expect(computeReceipt({ lines: [], rounding: 'floor' })).toEqual({ refused: 'no_lines' });
    expect(
      computeReceipt({ lines: [service(1000)], discounts: [{ name: '割引', amount: 1001 }], rounding: 'floor' }),
    ).toEqual({ refused: 'discount_too_large' });
    expect(computeReceipt({ lines: [{ ...service(10_000_000), quantity: 11 }], rounding: 'floor' })).toEqual({
      refused: 'total_too_large',
    });
  });
});

describe('settlePayments', () => {
  const cash = (amount: number): Payment => ({ method: 'cash', amount });
  const card = (amount: number): Payment => ({ method: 'card', amount });
  it.each([
    { name: 'card for all of it', payments: [card(7760)], received: undefined, change: 0, cash_received: 0 },
    {
      name: 'split: card and cash, change from the cash handed over',
      payments: [card(5000), cash(3000)],
      received: undefined,
      change: 240,
      cash_received: 3000,
    },
    {
      name: 'cash due with お預かり given apart',
      payments: [cash(7760)],
      received: 10000,
      change: 2240,
      cash_received: 10000,
    },
    { name: 'exact cash', payments: [cash(7760)], received: undefined, change: 0, cash_received: 7760 },
  ])('$name', ({ payments, received, change, cash_received }) => {
    const settled = settlePayments(7760, payments, received);
    if ('refused' in settled) throw new Error(settled.refused);
    expect(settled.change).toBe(change);
    expect(settled.cash_received).toBe(cash_received);
    expect(settled.payments.reduce((sum, payment) => sum + payment.amount, 0)).toBe(7760);
  });

  it.each([
    { payments: [card(8000)], received: undefined, refused: 'non_cash_over_total' },
    { payments: [card(5000), cash(2000)], received: undefined, refused: 'payments_short' },
    { payments: [card(7760), cash(100)], received: undefined, refused: 'payments_over' },
    { payments: [cash(7760)], received: 5000, refused: 'cash_received_short' },
    { payments: [], received: undefined, refused: 'payments_short' },
  ])('refuses $payments (received $received): $refused', ({ payments, received, refused }) => {
    expect(settlePayments(7760, payments as Payment[], received)).toEqual({ refused });
  });
});

describe('computeRefund', () => {
  const original = { lines: [service(6600), food(1080, 2)], discounts: [{ name: '初回割引', amount: 1000 }] };
  const receipt = computeReceipt({ ...original, rounding: 'floor' });
  if ('refused' in receipt) throw new Error(receipt.refused);
  const paid = { lines: original.lines, tax_by_rate: receipt.tax_by_rate };

  it('gives back a line less its share of the discount, then exactly what is left', () => {
    const first = computeRefund(paid, [], [{ line_index: 1, quantity: 1 }], 'floor');
    if ('refused' in first) throw new Error(first.refused);
    expect(first.amount).toBe(957);
    expect(first.tax_by_rate).toEqual([{ rate: 8, taxable_total: 957, tax: 70 }]);
    expect(first.lines).toEqual([
      {
        line_index: 1,
        quantity: 1,
        kind: 'product',
        ref_id: null,
        name: 'ハーブティー',
        unit_price: 1080,
        tax_rate: 8,
        amount: 1080,
      },
    ]);

    const rest = computeRefund(paid, [first], undefined, 'floor');
    if ('refused' in rest) throw new Error(rest.refused);
    expect(rest.tax_by_rate).toEqual([
      { rate: 10, taxable_total: 5846, tax: 531 },
      { rate: 8, taxable_total: 957, tax: 71 },
    ]);
    expect(first.amount + rest.amount).toBe(receipt.total);
    expect(computeRefund(paid, [first, rest], undefined, 'floor')).toEqual({ refused: 'nothing_to_refund' });
  });

  it('refuses lines that do not exist or more than is left', () => {
    expect(computeRefund(paid, [], [{ line_index: 5, quantity: 1 }], 'floor')).toEqual({ refused: 'unknown_line' });
    expect(computeRefund(paid, [], [{ line_index: 1, quantity: 3 }], 'floor')).toEqual({ refused: 'refund_too_much' });
  });
});
