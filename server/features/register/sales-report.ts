/**
 * GET /api/admin/sales/ rows: takings of a period (checkouts less voids and refunds, at what was paid), grouped by
 * day, month, 担当 (with the 指名 among them), menu line or payment method. Every grouping adds up to the same takings: by menu, line prices
 * are counted before discounts and the discounts are a row of their own (値引き); by method, payments count after
 * change.
 */
import { formatDateJa } from '#src/shared/format';
import type { SalesRow } from '#src/shared/schemas/register';
import { PAYMENT_METHOD_LABELS } from '#src/shared/schemas/register';
import type { CheckoutRow, CorrectionWithCheckout } from './checkouts.repository';
import { givenBackByMethod } from './takings';

type SalesGroup = 'day' | 'month' | 'staff' | 'menu' | 'method';

type Checkout = Pick<CheckoutRow, 'business_date' | 'staff_id' | 'lines' | 'discount_total' | 'payments' | 'total'>;

const KEY_ORDER = new Intl.Collator('en', { numeric: true });

class Rows {
  private readonly rows = new Map<string, SalesRow>();
  add(key: string, label: string, count: number, total: number, nominated?: number) {
    const row = this.rows.get(key) ?? { key, label, count: 0, total: 0 };
    row.count += count;
    row.total += total;
    if (nominated !== undefined) row.nominated = (row.nominated ?? 0) + nominated;
    this.rows.set(key, row);
  }
  /** Dates in order, and ids as numbers: staff #2 before #10, menu line service:2 before service:10. */
  sorted(): SalesRow[] {
    return [...this.rows.values()].sort((a, b) => KEY_ORDER.compare(a.key, b.key));
  }
}

const monthLabel = (month: string) => `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`;
const lineKey = (line: { kind: string; ref_id?: number | null; name: string }) =>
  `${line.kind}:${line.ref_id ?? line.name}`;
const nominatedIn = (lines: readonly { kind: string }[]) => lines.some((line) => line.kind === 'nomination');
const DISCOUNT_KEY = 'discount';
const DISCOUNT_LABEL = '値引き';

export function salesRows(
  group: SalesGroup,
  checkouts: readonly Checkout[],
  corrections: readonly CorrectionWithCheckout[],
  staffNames: ReadonlyMap<number, string>,
): SalesRow[] {
  const rows = new Rows();
  // A void takes the checkout out of the counts; a refund only gives money back.
  const voidCount = (correction: CorrectionWithCheckout) => (correction.kind === 'void' ? -1 : 0);
  const staffLabel = (id: number) => staffNames.get(id) ?? `#${id}`;
  for (const checkout of checkouts) {
    if (group === 'day') rows.add(checkout.business_date, formatDateJa(checkout.business_date), 1, checkout.total);
    if (group === 'month') {
      const month = checkout.business_date.slice(0, 7);
      rows.add(month, monthLabel(month), 1, checkout.total);
    }
    if (group === 'staff') {
      const id = checkout.staff_id;
      rows.add(String(id), staffLabel(id), 1, checkout.total, nominatedIn(checkout.lines) ? 1 : 0);
    }
    if (group === 'menu') {
      for (const line of checkout.lines)
        rows.add(lineKey(line), line.name, line.quantity, line.unit_price * line.quantity);
      if (checkout.discount_total > 0) rows.add(DISCOUNT_KEY, DISCOUNT_LABEL, 1, -checkout.discount_total);
    }
    if (group === 'method') {
      for (const payment of checkout.payments) {
        rows.add(payment.method, PAYMENT_METHOD_LABELS[payment.method], 1, payment.amount);
      }
    }
  }
  for (const correction of corrections) {
    const date = correction.business_date;
    if (group === 'day') rows.add(date, formatDateJa(date), voidCount(correction), -correction.amount);
    if (group === 'month')
      rows.add(date.slice(0, 7), monthLabel(date.slice(0, 7)), voidCount(correction), -correction.amount);
    if (group === 'staff') {
      const id = correction.checkout_staff_id;
      // A void takes its 指名 out with the visit (its lines are the whole receipt's).
      const nominated = correction.kind === 'void' && nominatedIn(correction.lines) ? -1 : 0;
      rows.add(String(id), staffLabel(id), voidCount(correction), -correction.amount, nominated);
    }
    if (group === 'menu') {
      for (const line of correction.lines) rows.add(lineKey(line), line.name, -line.quantity, -line.amount);
      const discountBack = correction.lines.reduce((sum, line) => sum + line.amount, 0) - correction.amount;
      if (discountBack !== 0) rows.add(DISCOUNT_KEY, DISCOUNT_LABEL, 0, discountBack);
    }
    if (group === 'method') {
      for (const back of givenBackByMethod(correction)) {
        rows.add(back.method, PAYMENT_METHOD_LABELS[back.method], voidCount(correction), -back.amount);
      }
    }
  }
  return rows.sorted();
}
