import { describe, expect, it } from 'vitest';
import { salesRows } from './sales-report';

type Checkout = Parameters<typeof salesRows>[1][number];

const checkout = (businessDate: string, staffId: number, serviceId: number, total: number): Checkout => ({
  business_date: businessDate,
  staff_id: staffId,
  lines: [
    { kind: 'service', ref_id: serviceId, name: `メニュー${serviceId}`, quantity: 1, unit_price: total, tax_rate: 10 },
  ],
  discount_total: 0,
  payments: [{ method: 'cash', amount: total }],
  total,
});

describe('sales rows', () => {
  const checkouts = [
    checkout('2030-01-10', 10, 10, 3000),
    checkout('2030-01-02', 2, 2, 5000),
    checkout('2030-01-02', 2, 2, 5000),
  ];
  const names = new Map([
    [2, '佐藤'],
    [10, '鈴木'],
  ]);

  it('lists staff and menu lines by id as numbers (#2 before #10), days in order', () => {
    expect(salesRows('staff', checkouts, [], names).map((row) => [row.label, row.total])).toEqual([
      ['佐藤', 10_000],
      ['鈴木', 3000],
    ]);
    expect(salesRows('menu', checkouts, [], names).map((row) => row.key)).toEqual(['service:2', 'service:10']);
    expect(salesRows('day', checkouts, [], names).map((row) => row.key)).toEqual(['2030-01-02', '2030-01-10']);
  });
});
