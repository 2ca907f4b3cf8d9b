import type { Checkout, Correction } from '#src/shared/schemas/register';
import { instantToLocalDateTime } from '#src/shared/time';
import type { CheckoutWithNames, CorrectionRow } from './checkouts.repository';

/** A server-assigned receipt number: `yyyyMMdd-nnnnnn` (a device's own carry its prefix, receipt-number.ts). */
const SERVER_RECEIPT_NUMBER = /^\d{8}-\d{6,}$/;

/** What the corrections made of a checkout: voided, refunded in full or in part, or as it was. */
function checkoutStatus(total: number, corrections: readonly CorrectionRow[]): Checkout['status'] {
  if (corrections.some((correction) => correction.kind === 'void')) return 'voided';
  const refunded = corrections.reduce((sum, correction) => sum + correction.amount, 0);
  if (corrections.length === 0) return 'completed';
  return refunded >= total ? 'refunded' : 'partially_refunded';
}

export function presentCorrection(row: CorrectionRow, timeZone: string): Correction {
  return {
    id: row.id,
    checkout_id: row.checkout_id,
    kind: row.kind,
    business_date: row.business_date,
    amount: row.amount,
    tax_by_rate: row.tax_by_rate,
    lines: row.lines,
    method: row.method,
    cash_refunded: row.cash_refunded,
    reason: row.reason,
    staff_id: row.staff_id,
    created_at: instantToLocalDateTime(row.created_at, timeZone),
  };
}

export function presentCheckout(
  row: CheckoutWithNames,
  corrections: readonly CorrectionRow[],
  timeZone: string,
): Checkout {
  const own = corrections.filter((correction) => correction.checkout_id === row.id);
  return {
    id: row.id,
    receipt_number: row.receipt_number,
    receipt_number_from_client: !SERVER_RECEIPT_NUMBER.test(row.receipt_number),
    checked_out_at: instantToLocalDateTime(row.checked_out_at, timeZone),
    business_date: row.business_date,
    reservation_number: row.reservation_number,
    customer_id: row.customer_id,
    customer_name: row.customer_name,
    staff_id: row.staff_id,
    staff_name: row.staff_name,
    created_by_staff_id: row.created_by_staff_id,
    lines: row.lines.map((line) => ({ ...line, ref_id: line.ref_id ?? null })),
    discounts: row.discounts,
    subtotal: row.subtotal,
    discount_total: row.discount_total,
    total: row.total,
    tax_by_rate: row.tax_by_rate,
    payments: row.payments,
    cash_received: row.cash_received,
    change: row.change,
    status: checkoutStatus(row.total, own),
    corrections: own.map((correction) => presentCorrection(correction, timeZone)),
  };
}
