import { PAYMENT_METHODS, type PaymentMethod } from '#src/shared/money/types';
import type { Checkout, Correction } from '#src/shared/schemas/register';

/** The denominations a drawer is counted in (yen), notes then coins. */
export const DENOMINATIONS = [10000, 5000, 1000, 500, 100, 50, 10, 5, 1] as const;

export type DenominationCounts = Partial<Record<(typeof DENOMINATIONS)[number], number>>;

export function countedTotal(counts: DenominationCounts): number {
  return DENOMINATIONS.reduce((sum, value) => sum + value * (counts[value] ?? 0), 0);
}

export interface DayCash {
  cash_received: number;
  change_given: number;
  cash_refunded: number;
  expected_cash: number;
  totals_by_method: Record<PaymentMethod, number>;
}

/** How a correction gave money back: a void each payment the way it was made, a refund all its own way. */
function givenBack(checkout: Checkout, correction: Correction) {
  return correction.kind === 'void' ? checkout.payments : [{ method: correction.method, amount: correction.amount }];
}

/**
 * The drawer of a day as its checkouts and their corrections on that day say (the figures the closing records,
 * server/features/register/takings.ts): a refund given that day of an earlier day's checkout is not in the day's
 * list, so the server's closing is the final word.
 */
export function dayCash(openingFloat: number, date: string, checkouts: readonly Checkout[]): DayCash {
  const totals = Object.fromEntries(PAYMENT_METHODS.map((method) => [method, 0])) as Record<PaymentMethod, number>;
  let cashRefunded = 0;
  for (const checkout of checkouts) {
    for (const payment of checkout.payments) totals[payment.method] += payment.amount;
    for (const correction of checkout.corrections.filter((item) => item.business_date === date)) {
      for (const back of givenBack(checkout, correction)) totals[back.method] -= back.amount;
      cashRefunded += correction.cash_refunded;
    }
  }
  const cashReceived = checkouts.reduce((sum, checkout) => sum + checkout.cash_received, 0);
  const changeGiven = checkouts.reduce((sum, checkout) => sum + checkout.change, 0);
  return {
    cash_received: cashReceived,
    change_given: changeGiven,
    cash_refunded: cashRefunded,
    expected_cash: openingFloat + cashReceived - changeGiven - cashRefunded,
    totals_by_method: totals,
  };
}
