/**
 * Takings (売上) as the register counts them: what checkouts took, less what voids and refunds gave back, never the
 * booked prices. Pure functions over the records of a period, for the closing, the sales and the CSV.
 */
import { PAYMENT_METHODS, type PaymentMethod } from '#src/shared/money/types';
import type { CheckoutRow, CorrectionWithCheckout } from './checkouts.repository';

type TotalsByMethod = Record<PaymentMethod, number>;

const noTotals = (): TotalsByMethod => Object.fromEntries(PAYMENT_METHODS.map((m) => [m, 0])) as TotalsByMethod;

interface DayCash {
  cash_received: number;
  change_given: number;
  cash_refunded: number;
  expected_cash: number;
  totals_by_method: TotalsByMethod;
}

/**
 * A day's drawer: expected cash = opening float + cash taken − change − cash given back (voids and refunds); per
 * method, what was paid that way less what went back that way.
 */
export function dayCash(
  openingFloat: number,
  checkouts: readonly Pick<CheckoutRow, 'cash_received' | 'change' | 'payments'>[],
  corrections: readonly CorrectionWithCheckout[],
): DayCash {
  const totals = noTotals();
  for (const checkout of checkouts) for (const payment of checkout.payments) totals[payment.method] += payment.amount;
  for (const correction of corrections) {
    for (const back of givenBackByMethod(correction)) totals[back.method] -= back.amount;
  }
  const cashReceived = checkouts.reduce((sum, checkout) => sum + checkout.cash_received, 0);
  const changeGiven = checkouts.reduce((sum, checkout) => sum + checkout.change, 0);
  const cashRefunded = corrections.reduce((sum, correction) => sum + correction.cash_refunded, 0);
  return {
    cash_received: cashReceived,
    change_given: changeGiven,
    cash_refunded: cashRefunded,
    expected_cash: openingFloat + cashReceived - changeGiven - cashRefunded,
    totals_by_method: totals,
  };
}

/** How a correction gave money back: a void each payment the way it was made, a refund all its own way. */
export function givenBackByMethod(
  correction: Pick<CorrectionWithCheckout, 'kind' | 'amount' | 'method' | 'checkout_payments'>,
): Array<{ method: PaymentMethod; amount: number }> {
  return correction.kind === 'void'
    ? correction.checkout_payments.map((payment) => ({ method: payment.method, amount: payment.amount }))
    : [{ method: correction.method, amount: correction.amount }];
}
