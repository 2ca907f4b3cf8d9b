/**
 * Takings (売上) as the register counts them: what checkouts took, less what voids and refunds gave back, never the
 * booked prices. Pure functions over the records of a period, for the closing, the sales and the CSV.
 */
import { dayCash as drawerCash } from '#src/shared/money/drawer';
import type { PaymentMethod } from '#src/shared/money/types';
import type { CheckoutRow, CorrectionWithCheckout } from './checkouts.repository';

/** A day's drawer from its records (the rule is src/shared/money/drawer.ts). */
export function dayCash(
  openingFloat: number,
  checkouts: readonly Pick<CheckoutRow, 'cash_received' | 'change' | 'payments'>[],
  corrections: readonly CorrectionWithCheckout[],
) {
  const givenBack = corrections.map((correction) => ({
    given_back: givenBackByMethod(correction),
    cash_refunded: correction.cash_refunded,
  }));
  return drawerCash(openingFloat, checkouts, givenBack);
}

/** How a correction gave money back: a void each payment the way it was made, a refund all its own way. */
export function givenBackByMethod(
  correction: Pick<CorrectionWithCheckout, 'kind' | 'amount' | 'method' | 'checkout_payments'>,
): Array<{ method: PaymentMethod; amount: number }> {
  return correction.kind === 'void'
    ? correction.checkout_payments.map((payment) => ({ method: payment.method, amount: payment.amount }))
    : [{ method: correction.method, amount: correction.amount }];
}
