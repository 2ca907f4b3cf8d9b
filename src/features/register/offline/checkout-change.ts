import { useOutbox, usePendingChange } from '#src/lib/outbox-hooks';
import { defineChange } from '#src/lib/outbox-changes';
import { isWaiting, needsDecision } from '#src/lib/outbox-state';
import { paths } from '#src/lib/paths';
import { formatDateTimeJa, formatYen } from '#src/shared/format';
import type { Settlement } from '#src/shared/money/payments';
import type { ReceiptTotals } from '#src/shared/money/receipt';
import type { Discount, Payment, ReceiptLine } from '#src/shared/money/types';
import type { Checkout } from '#src/shared/schemas/register';

/**
 * A checkout, queueable (docs/architecture.md#register-会計): sent at once when possible, else kept in the outbox
 * with its receipt number drawn on this device and sent once when the connection is back (its Idempotency-Key).
 * The entry keeps the checkout as this device computed it (the shared money functions the server checks with):
 * the screen shows it 未送信 and prints its receipt before the server has it.
 */
export interface CheckoutRequest {
  reservation_number?: string;
  customer_id?: number;
  staff_id?: number;
  receipt_number: string;
  /** Salon-local, by this device's clock: the day the checkout belongs to even when it is sent later. */
  checked_out_at: string;
  lines: ReceiptLine[];
  discounts: Discount[];
  payments: Payment[];
  cash_received?: number;
}

interface CheckoutChange {
  request: CheckoutRequest;
  local: Checkout;
}

const CHECKOUTS_ROUTE = { method: 'GET', path: '/api/admin/checkouts/' } as const;

export const checkoutChange = defineChange<CheckoutChange>({
  kind: 'register-checkout',
  route: { method: 'POST', path: CHECKOUTS_ROUTE.path },
  // The day's checkouts: whether the server has this receipt number, for the person deciding a refusal.
  stateRoute: CHECKOUTS_ROUTE,
  params: () => ({}),
  // Each checkout on its own: a refused one holds back no other.
  target: ({ local }) => checkoutTarget(local.receipt_number),
  body: ({ request }) => request,
  keep: ({ request, local }) => ({ request, local }),
  describe: (entry) => {
    const local = entry.local as Checkout;
    const recorded = Array.isArray(entry.serverState)
      ? (entry.serverState as Checkout[]).find((checkout) => checkout.receipt_number === local.receipt_number)
      : undefined;
    return {
      title: `会計 ${local.customer_name ? `${local.customer_name} 様` : ''}`.trim(),
      reference: local.receipt_number,
      link: local.reservation_number ? paths.adminReservation(local.reservation_number) : '/admin/register',
      mineLabel: 'この端末での会計',
      theirsLabel: 'サーバーの状態',
      mine: `${formatYen(local.total)}（${formatDateTimeJa(local.checked_out_at)}）`,
      theirs: recorded ? `記録済み ${formatYen(recorded.total)}` : 'サーバーに記録はありません',
    };
  },
});

const checkoutTarget = (receiptNumber: string) => `checkout:${receiptNumber}`;

/** The checkout as this device computed it, in the server's answer's shape (id 0: the server has none yet). */
export function localCheckout(input: {
  request: CheckoutChange['request'];
  totals: ReceiptTotals;
  settlement: Settlement;
  customerName: string;
  staffId: number;
}): Checkout {
  const { request, totals, settlement } = input;
  return {
    id: 0,
    receipt_number: request.receipt_number,
    receipt_number_from_client: true,
    checked_out_at: request.checked_out_at,
    business_date: request.checked_out_at.slice(0, 10),
    reservation_number: request.reservation_number ?? null,
    customer_id: request.customer_id ?? null,
    customer_name: input.customerName,
    staff_id: input.staffId,
    staff_name: '',
    created_by_staff_id: input.staffId,
    lines: request.lines.map((line) => ({ ...line, ref_id: line.ref_id ?? null })),
    discounts: totals.discounts,
    subtotal: totals.subtotal,
    discount_total: totals.discount_total,
    total: totals.total,
    tax_by_rate: totals.tax_by_rate,
    payments: settlement.payments,
    cash_received: settlement.cash_received,
    change: settlement.change,
    status: 'completed',
    corrections: [],
  };
}

interface QueuedCheckout {
  checkout: Checkout;
  /** The server refused it: a person decides (the shell's list of refused changes). */
  refused: boolean;
}

/** The checkouts waiting in the outbox (未送信) or refused, oldest first. */
export function useQueuedCheckouts(): QueuedCheckout[] {
  const { entries } = useOutbox();
  return entries
    .filter((entry) => entry.kind === checkoutChange.kind && (isWaiting(entry) || needsDecision(entry)))
    .map((entry) => ({ checkout: entry.local as Checkout, refused: needsDecision(entry) }));
}

/** Whether this checkout (by its receipt number) still waits to be sent. */
export function useCheckoutWaiting(receiptNumber: string): boolean {
  return usePendingChange(checkoutTarget(receiptNumber), () => true).waiting;
}
