import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import { computeRefund, type RefundLineRequest, type RefundRefusal } from '#src/shared/money/refund';
import type { PaymentMethod } from '#src/shared/money/types';
import type { Correction } from '#src/shared/schemas/register';
import type { AppContext } from '../../context';
import { SQLSTATE, sqlState, type Executor } from '../../db/client';
import { badRequest, conflict, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './checkouts.repository';
import { presentCorrection } from './present';
import { businessDateOf, openRegisterDay } from './register-day';

const REFUND_REFUSALS: Record<RefundRefusal, string> = {
  unknown_line: REGISTER_MESSAGES.refundUnknownLine,
  refund_too_much: REGISTER_MESSAGES.refundTooMuch,
  nothing_to_refund: REGISTER_MESSAGES.refundNothingLeft,
};

/** How money goes back by default: cash when the customer paid any cash, else the way of their largest payment. */
function defaultMethod(checkout: repo.CheckoutRow): PaymentMethod {
  if (checkout.payments.some((payment) => payment.method === 'cash')) return 'cash';
  return [...checkout.payments].sort((a, b) => b.amount - a.amount)[0]?.method ?? 'cash';
}

/**
 * Voids and refunds (docs/architecture.md#register-会計), superuser actions. Both are records of their own; the
 * checkout is never changed. A void takes back the whole checkout on its own day, while that day is open; a refund
 * gives back some or all of what is left on the day it is given (so a closed day is corrected on an open one).
 * Each runs under the register's day lock and the checkout's row lock, so two corrections of one checkout are
 * decided one after the other.
 */
export function correctCheckoutUseCase(ctx: AppContext) {
  const timeZone = ctx.env.SALON_TZ;

  async function lockedCheckout(tx: Executor, id: number) {
    const checkout = await repo.lockCheckout(tx, ctx.salonId, id);
    if (!checkout) throw notFound(REGISTER_MESSAGES.checkoutNotFound);
    const corrections = await repo.correctionsOf(tx, [id]);
    if (corrections.some((correction) => correction.kind === 'void')) {
      throw conflict(REGISTER_MESSAGES.checkoutAlreadyVoided, 'already_voided');
    }
    return { checkout, corrections };
  }

  async function voidCheckout(staff: StaffPrincipal, id: number, reason: string): Promise<Correction> {
    try {
      const existing = await repo.findCheckout(ctx.db, { salonId: ctx.salonId, id });
      if (!existing) throw notFound(REGISTER_MESSAGES.checkoutNotFound);
      const row = await ctx.db.transaction(async (tx) => {
        // The void belongs to the checkout's own day: that day must still be open. The day lock before the row
        // lock, in the order a refund takes them.
        await openRegisterDay(tx, ctx.salonId, existing.business_date);
        const { checkout, corrections } = await lockedCheckout(tx, id);
        if (corrections.length > 0) throw conflict(REGISTER_MESSAGES.checkoutVoidAfterRefund, 'refunded');
        const cash = checkout.payments.filter((p) => p.method === 'cash').reduce((sum, p) => sum + p.amount, 0);
        return repo.insertCorrection(tx, {
          salon_id: ctx.salonId,
          checkout_id: checkout.id,
          kind: 'void',
          business_date: checkout.business_date,
          amount: checkout.total,
          tax_by_rate: checkout.tax_by_rate,
          lines: checkout.lines.map((line, line_index) => ({
            line_index,
            quantity: line.quantity,
            kind: line.kind,
            ref_id: line.ref_id ?? null,
            name: line.name,
            unit_price: line.unit_price,
            tax_rate: line.tax_rate,
            amount: line.unit_price * line.quantity,
          })),
          method: defaultMethod(checkout),
          cash_refunded: cash,
          reason,
          staff_id: staff.id,
          created_at: ctx.now(),
        });
      });
      return presentCorrection(row, timeZone);
    } catch (error) {
      // Two voids at once: the partial unique index lets one in.
      if (sqlState(error) === SQLSTATE.uniqueViolation)
        throw conflict(REGISTER_MESSAGES.checkoutAlreadyVoided, 'already_voided');
      throw error;
    }
  }

  async function refundCheckout(
    staff: StaffPrincipal,
    id: number,
    body: { reason: string; lines?: RefundLineRequest[]; method?: PaymentMethod },
  ): Promise<Correction> {
    const today = businessDateOf(ctx.now(), timeZone);
    const row = await ctx.db.transaction(async (tx) => {
      await openRegisterDay(tx, ctx.salonId, today);
      const { checkout, corrections } = await lockedCheckout(tx, id);
      const refund = computeRefund(checkout, corrections, body.lines, checkout.tax_rounding);
      if ('refused' in refund) {
        const message = REFUND_REFUSALS[refund.refused];
        if (refund.refused === 'nothing_to_refund') throw conflict(message, 'nothing_to_refund');
        throw badRequest(message, { lines: [message] }, refund.refused);
      }
      const method = body.method ?? defaultMethod(checkout);
      return repo.insertCorrection(tx, {
        salon_id: ctx.salonId,
        checkout_id: checkout.id,
        kind: 'refund',
        business_date: today,
        amount: refund.amount,
        tax_by_rate: refund.tax_by_rate,
        lines: refund.lines,
        method,
        cash_refunded: method === 'cash' ? refund.amount : 0,
        reason: body.reason,
        staff_id: staff.id,
        created_at: ctx.now(),
      });
    });
    return presentCorrection(row, timeZone);
  }

  return { voidCheckout, refundCheckout };
}
