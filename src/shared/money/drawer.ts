/**
 * A day's drawer (レジ締め): expected cash = opening float + cash taken − change − cash given back (voids and refunds);
 * per method, what was paid that way less what went back that way. One rule for the server's closing
 * (server/features/register/takings.ts) and the closing screen's running figures
 * (src/features/register/hooks/day-cash.ts).
 */
import { PAYMENT_METHODS, type PaymentMethod } from './types';

type MethodAmount = { method: PaymentMethod; amount: number };

interface DrawerCheckout {
  payments: readonly MethodAmount[];
  cash_received: number;
  change: number;
}

interface DrawerCorrection {
  /** What went back, per method: a void each payment the way it was made, a refund all its own way. */
  given_back: readonly MethodAmount[];
  cash_refunded: number;
}

export interface DayCash {
  cash_received: number;
  change_given: number;
  cash_refunded: number;
  expected_cash: number;
  totals_by_method: Record<PaymentMethod, number>;
}

export function dayCash(
  openingFloat: number,
  checkouts: readonly DrawerCheckout[],
  corrections: readonly DrawerCorrection[],
): DayCash {
  const totals = Object.fromEntries(PAYMENT_METHODS.map((method) => [method, 0])) as Record<PaymentMethod, number>;
  for (const checkout of checkouts) for (const payment of checkout.payments) totals[payment.method] += payment.amount;
  for (const correction of corrections) for (const back of correction.given_back) totals[back.method] -= back.amount;
  const sum = <T>(rows: readonly T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);
  const cashReceived = sum(checkouts, (checkout) => checkout.cash_received);
  const changeGiven = sum(checkouts, (checkout) => checkout.change);
  const cashRefunded = sum(corrections, (correction) => correction.cash_refunded);
  return {
    cash_received: cashReceived,
    change_given: changeGiven,
    cash_refunded: cashRefunded,
    expected_cash: openingFloat + cashReceived - changeGiven - cashRefunded,
    totals_by_method: totals,
  };
}
