import type { Payment } from './types';

export interface Settlement {
  /** What the receipt keeps: the non-cash payments as given and one cash payment of the cash due (if any). */
  payments: Payment[];
  /** Cash handed over (at least the cash due). */
  cash_received: number;
  /** Cash handed back: only cash gives change. */
  change: number;
}

export type SettlementRefusal = 'non_cash_over_total' | 'payments_short' | 'payments_over' | 'cash_received_short';

/**
 * Checks that the payments cover the total exactly, cash aside: cash may exceed what is left to pay, and the
 * excess is change. `cashReceived` (お預かり) is the cash handed over when the cash payment lines say only what is
 * due; without it the cash lines are what was handed over.
 */
export function settlePayments(
  total: number,
  payments: readonly Payment[],
  cashReceived?: number,
): Settlement | { refused: SettlementRefusal } {
  const nonCash = payments.filter((payment) => payment.method !== 'cash');
  const nonCashTotal = nonCash.reduce((sum, payment) => sum + payment.amount, 0);
  const cashPaid = payments.filter((payment) => payment.method === 'cash').reduce((sum, p) => sum + p.amount, 0);
  if (nonCashTotal > total) return { refused: 'non_cash_over_total' };
  const cashDue = total - nonCashTotal;
  if (cashPaid < cashDue) return { refused: 'payments_short' };
  // Cash handed over when nothing was left to pay in cash would be a payment of nothing.
  if (cashDue === 0 && cashPaid > 0) return { refused: 'payments_over' };
  const handedOver = cashReceived ?? cashPaid;
  if (handedOver < cashPaid) return { refused: 'cash_received_short' };
  return {
    payments: [
      ...nonCash.map((payment) => ({ method: payment.method, amount: payment.amount })),
      ...(cashDue > 0 ? [{ method: 'cash' as const, amount: cashDue }] : []),
    ],
    cash_received: cashDue > 0 ? handedOver : 0,
    change: cashDue > 0 ? handedOver - cashDue : 0,
  };
}
