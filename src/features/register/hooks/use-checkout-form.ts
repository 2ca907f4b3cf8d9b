import { useMemo, useReducer } from 'react';
import { settlePayments, type SettlementRefusal } from '#src/shared/money/payments';
import { computeReceipt, type ReceiptRefusal } from '#src/shared/money/receipt';
import type { Discount, Payment, PaymentMethod, ReceiptLine, TaxRounding } from '#src/shared/money/types';

/**
 * The checkout screen's editing state and its totals. The totals are the shared pure functions of
 * src/shared/money, the same the server checks the checkout with, so what the staff see is what it records.
 */

export interface FormLine extends ReceiptLine {
  key: number;
}
export interface FormDiscount {
  key: number;
  name: string;
  kind: 'yen' | 'percent';
  value: number;
}
/** A non-cash payment: cash is what is left of the total, handed over as お預かり (cashReceived). */
export interface FormPayment {
  key: number;
  method: Exclude<PaymentMethod, 'cash'>;
  amount: number;
}

interface CheckoutFormState {
  nextKey: number;
  lines: FormLine[];
  discounts: FormDiscount[];
  payments: FormPayment[];
  cashReceived: number | null;
}

export type CheckoutFormAction =
  | { type: 'reset'; lines: readonly ReceiptLine[] }
  | { type: 'addLine'; line: ReceiptLine }
  | { type: 'removeLine'; key: number }
  | { type: 'setQuantity'; key: number; quantity: number }
  | { type: 'addDiscount'; discount: Omit<FormDiscount, 'key'> }
  | { type: 'removeDiscount'; key: number }
  | { type: 'addPayment'; method: FormPayment['method']; amount: number }
  | { type: 'setPaymentAmount'; key: number; amount: number }
  | { type: 'removePayment'; key: number }
  | { type: 'setCashReceived'; amount: number | null };

const emptyCheckoutForm: CheckoutFormState = {
  nextKey: 1,
  lines: [],
  discounts: [],
  payments: [],
  cashReceived: null,
};

function checkoutFormReducer(state: CheckoutFormState, action: CheckoutFormAction): CheckoutFormState {
  const key = state.nextKey;
  switch (action.type) {
    case 'reset':
      return {
        ...emptyCheckoutForm,
        nextKey: action.lines.length + 1,
        lines: action.lines.map((line, index) => ({ ...line, key: index + 1 })),
      };
    case 'addLine':
      return { ...state, nextKey: key + 1, lines: [...state.lines, { ...action.line, key }] };
    case 'removeLine':
      return { ...state, lines: state.lines.filter((line) => line.key !== action.key) };
    case 'setQuantity':
      return {
        ...state,
        lines: state.lines.map((line) => (line.key === action.key ? { ...line, quantity: action.quantity } : line)),
      };
    case 'addDiscount':
      return { ...state, nextKey: key + 1, discounts: [...state.discounts, { ...action.discount, key }] };
    case 'removeDiscount':
      return { ...state, discounts: state.discounts.filter((discount) => discount.key !== action.key) };
    case 'addPayment':
      return {
        ...state,
        nextKey: key + 1,
        payments: [...state.payments, { key, method: action.method, amount: action.amount }],
      };
    case 'setPaymentAmount':
      return {
        ...state,
        payments: state.payments.map((payment) =>
          payment.key === action.key ? { ...payment, amount: action.amount } : payment,
        ),
      };
    case 'removePayment':
      return { ...state, payments: state.payments.filter((payment) => payment.key !== action.key) };
    case 'setCashReceived':
      return { ...state, cashReceived: action.amount };
  }
}

type CheckoutRefusal = ReceiptRefusal | SettlementRefusal | 'cash_received_missing';

/** Why 会計する is refused, in the staff's words. */
export const REFUSAL_TEXT: Record<CheckoutRefusal, string> = {
  no_lines: '明細がありません。',
  total_too_large: '合計が上限を超えています。',
  discount_too_large: '値引きが小計を超えています。',
  non_cash_over_total: '現金以外のお支払いが合計を超えています。',
  payments_short: 'お支払いが合計に足りません。',
  payments_over: 'お支払いが合計を超えています。',
  cash_received_short: 'お預かりが現金でのお支払いに足りません。',
  cash_received_missing: 'お預かり金額を入力してください。',
};

export function discountsOf(state: CheckoutFormState): Discount[] {
  return state.discounts.map((discount) =>
    discount.kind === 'percent'
      ? { name: discount.name, percent: discount.value }
      : { name: discount.name, amount: discount.value },
  );
}

export function linesOf(state: CheckoutFormState): ReceiptLine[] {
  return state.lines.map(({ key: _key, ...line }) => line);
}

/** Totals, what is left to pay in cash, the change, and the payments the checkout will record (or why not). */
function checkoutTotals(state: CheckoutFormState, rounding: TaxRounding) {
  const receipt = computeReceipt({ lines: linesOf(state), discounts: discountsOf(state), rounding });
  if ('refused' in receipt) return { receipt: null, refusal: receipt.refused } as const;
  const nonCash: Payment[] = state.payments.map(({ method, amount }) => ({ method, amount }));
  const nonCashTotal = nonCash.reduce((sum, payment) => sum + payment.amount, 0);
  const cashDue = Math.max(0, receipt.total - nonCashTotal);
  if (cashDue > 0 && state.cashReceived === null)
    return { receipt, cashDue, refusal: 'cash_received_missing' as CheckoutRefusal } as const;
  const cash: Payment[] = cashDue > 0 ? [{ method: 'cash', amount: state.cashReceived ?? 0 }] : [];
  const settlement = settlePayments(receipt.total, [...nonCash, ...cash]);
  if ('refused' in settlement) return { receipt, cashDue, refusal: settlement.refused } as const;
  return { receipt, cashDue, settlement, refusal: null } as const;
}

/** The form starts from the given lines (a booking's draft); `rounding` is the salon's tax rounding. */
export function useCheckoutForm(rounding: TaxRounding, initialLines: readonly ReceiptLine[]) {
  const [state, dispatch] = useReducer(checkoutFormReducer, initialLines, (lines) =>
    checkoutFormReducer(emptyCheckoutForm, { type: 'reset', lines }),
  );
  const totals = useMemo(() => checkoutTotals(state, rounding), [state, rounding]);
  return { state, dispatch, totals };
}
