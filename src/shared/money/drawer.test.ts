import { describe, expect, it } from 'vitest';
import { dayCash } from './drawer';

describe('dayCash: a day’s drawer', () => {
  it('expects the float plus cash taken, less change and cash given back; totals per method net of what went back', () => {
    const checkouts = [
      { payments: [{ method: 'cash' as const, amount: 7700 }], cash_received: 10000, change: 2300 },
      {
        payments: [
          { method: 'card' as const, amount: 5000 },
          { method: 'cash' as const, amount: 1600 },
        ],
        cash_received: 2000,
        change: 400,
      },
    ];
    const corrections = [
      // A void of the split checkout: each payment goes back the way it came.
      {
        given_back: [
          { method: 'card' as const, amount: 5000 },
          { method: 'cash' as const, amount: 1600 },
        ],
        cash_refunded: 1600,
      },
    ];
    const cash = dayCash(30000, checkouts, corrections);
    expect(cash).toMatchObject({ cash_received: 12000, change_given: 2700, cash_refunded: 1600 });
    expect(cash.expected_cash).toBe(30000 + 12000 - 2700 - 1600);
    expect(cash.totals_by_method).toEqual({ cash: 7700, card: 0, qr: 0, emoney: 0, other: 0 });
  });

  it('is the float alone on a day without takings', () => {
    expect(dayCash(5000, [], []).expected_cash).toBe(5000);
  });
});
