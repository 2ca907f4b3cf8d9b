import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import { settlePayments, type SettlementRefusal } from '#src/shared/money/payments';
import { computeReceipt, type ReceiptRefusal } from '#src/shared/money/receipt';
import type { Checkout } from '#src/shared/schemas/register';
import { localDateTimeToInstant } from '#src/shared/time';
import type { z } from 'zod';
import type { createCheckoutRequestSchema } from '#src/shared/schemas/register';
import type { AppContext } from '../../context';
import { SQLSTATE, sqlState } from '../../db/client';
import { ApiHttpError, badRequest, conflict } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './checkouts.repository';
import { checkLines, findReservationInScope, refuseUnpayable, resolveParties } from './checkout-parties';
import { presentCheckout } from './present';
import { chooseReceiptNumber } from './receipt-number';
import { businessDateOf, openRegisterDay, violates } from './register-day';

type CheckoutRequest = z.output<typeof createCheckoutRequestSchema>;

const DEVICE_TIME_PAST_MS = 7 * 24 * 60 * 60_000;

const REFUSALS: Record<ReceiptRefusal | SettlementRefusal, { message: string; field: string }> = {
  no_lines: { message: REGISTER_MESSAGES.checkoutLinesRequired, field: 'lines' },
  total_too_large: { message: REGISTER_MESSAGES.checkoutTotalTooLarge, field: 'lines' },
  discount_too_large: { message: REGISTER_MESSAGES.checkoutDiscountTooLarge, field: 'discounts' },
  non_cash_over_total: { message: REGISTER_MESSAGES.checkoutNonCashOverTotal, field: 'payments' },
  payments_short: { message: REGISTER_MESSAGES.checkoutPaymentsShort, field: 'payments' },
  payments_over: { message: REGISTER_MESSAGES.checkoutPaymentsOver, field: 'payments' },
  cash_received_short: { message: REGISTER_MESSAGES.checkoutCashReceivedShort, field: 'cash_received' },
};

function refused(reason: ReceiptRefusal | SettlementRefusal): ApiHttpError {
  const { message, field } = REFUSALS[reason];
  return badRequest(message, { [field]: [message] }, reason);
}

/**
 * POST /api/admin/checkouts/ (docs/architecture.md#register-会計): checks the money with the shared functions
 * (src/shared/money), records the checkout in one transaction under the register's day lock, then completes the
 * reservation through the reservations service (the same path as 完了, so its live update goes out).
 */
export function createCheckoutUseCase(ctx: AppContext) {
  const timeZone = ctx.env.SALON_TZ;

  /**
   * When the checkout happened: now, or when a device recorded it offline (its day decides the register day, so a
   * day closed meanwhile refuses it). A device's time is taken back to 7 days; one ahead of the server's is now.
   */
  function recordedAt(local: string | undefined): Date {
    const now = ctx.now();
    if (local === undefined) return now;
    const at = localDateTimeToInstant(local, timeZone);
    if (now.getTime() - at.getTime() > DEVICE_TIME_PAST_MS) {
      const message = REGISTER_MESSAGES.checkoutTimeOutOfRange;
      throw badRequest(message, { checked_out_at: [message] }, 'checked_out_at_out_of_range');
    }
    return at > now ? now : at;
  }

  async function insert(staff: StaffPrincipal, body: CheckoutRequest, idempotencyKey: string | undefined) {
    const checkedOutAt = recordedAt(body.checked_out_at);
    const today = businessDateOf(checkedOutAt, timeZone);
    const reservation =
      body.reservation_number === undefined
        ? undefined
        : await findReservationInScope(ctx.db, ctx.salonId, body.reservation_number, staff);
    if (reservation) refuseUnpayable(reservation, today, timeZone);
    const parties = await resolveParties(ctx.db, {
      salonId: ctx.salonId,
      staff,
      reservation,
      customerId: body.customer_id,
      staffId: body.staff_id,
    });
    await checkLines(ctx.db, ctx.salonId, body.lines);

    const attempt = (preferServer: boolean) =>
      ctx.db.transaction(async (tx) => {
        const salon = await openRegisterDay(tx, ctx.salonId, today);
        const receipt = computeReceipt({ lines: body.lines, discounts: body.discounts, rounding: salon.tax_rounding });
        if ('refused' in receipt) throw refused(receipt.refused);
        const settled = settlePayments(receipt.total, body.payments, body.cash_received);
        if ('refused' in settled) throw refused(settled.refused);
        const receiptNumber = await chooseReceiptNumber(tx, {
          salonId: ctx.salonId,
          businessDate: today,
          requested: body.receipt_number,
          preferServer,
        });
        return repo.insertCheckout(tx, {
          salon_id: ctx.salonId,
          receipt_number: receiptNumber,
          business_date: today,
          checked_out_at: checkedOutAt,
          reservation_id: reservation?.id ?? null,
          customer_id: parties.customerId,
          customer_name: parties.customerName,
          staff_id: parties.staffId,
          created_by_staff_id: staff.id,
          lines: body.lines.map((line) => ({ ...line, ref_id: line.ref_id ?? null })),
          discounts: receipt.discounts,
          subtotal: receipt.subtotal,
          discount_total: receipt.discount_total,
          total: receipt.total,
          tax_by_rate: receipt.tax_by_rate,
          payments: settled.payments,
          cash_received: settled.cash_received,
          change: settled.change,
          tax_rounding: salon.tax_rounding,
          idempotency_key: idempotencyKey ?? null,
        });
      });

    let row: repo.CheckoutRow;
    try {
      row = await attempt(false);
    } catch (error) {
      if (sqlState(error) !== SQLSTATE.uniqueViolation) throw error;
      if (violates(error, 'checkouts_reservation_key'))
        throw conflict(REGISTER_MESSAGES.checkoutAlreadyDone, 'already_checked_out');
      // The device's number was taken at the same moment: the server assigns one.
      if (!violates(error, 'checkouts_receipt_number_key')) throw error;
      row = await attempt(true);
    }
    if (reservation) await completeReservation(staff, reservation.reservation_number);
    return row;
  }

  /**
   * 完了 through the reservations service, after the checkout's commit. A reservation already completed, or one
   * checked out on its day before its start (the service completes only what has started), keeps its status.
   */
  async function completeReservation(staff: StaffPrincipal, reservationNumber: string) {
    try {
      await ctx.reservations.transitionAsStaff(staff, reservationNumber, 'complete');
    } catch (error) {
      // The money is recorded either way; a reservation moved meanwhile is completed by hand.
      if (!(error instanceof ApiHttpError) || error.statusCode >= 500) throw error;
    }
  }

  async function answer(id: number): Promise<Checkout> {
    const full = await repo.findCheckout(ctx.db, { salonId: ctx.salonId, id });
    return presentCheckout(full!, [], timeZone);
  }

  /**
   * With an Idempotency-Key, a repeat whose first run committed but whose answer was not kept (the process died)
   * is refused by the checkout's own guards (the reservation is checked out, the key's unique index): it then gets
   * the checkout that run made, as bookings do (reservations.service.ts unlessMadeEarlier).
   */
  /**
   * A device's checkout sent again under a new Idempotency-Key (a person pressed もう一度送信 after a refusal whose
   * first send had in fact been recorded): the same device number, staff member and device time name the same
   * checkout, which is answered instead of recording the sale twice under a server number.
   */
  async function resentFromDevice(staff: StaffPrincipal, body: CheckoutRequest): Promise<Checkout | undefined> {
    const number = body.receipt_number?.trim().toUpperCase();
    if (!number || body.checked_out_at === undefined) return undefined;
    const earlier = await repo.findCheckoutByReceiptNumber(ctx.db, ctx.salonId, number);
    if (!earlier || earlier.created_by_staff_id !== staff.id) return undefined;
    if (earlier.checked_out_at.getTime() !== recordedAt(body.checked_out_at).getTime()) return undefined;
    return presentCheckout(earlier, await repo.correctionsOf(ctx.db, [earlier.id]), timeZone);
  }

  return async function createCheckout(
    staff: StaffPrincipal,
    body: CheckoutRequest,
    idempotencyKey: string | undefined,
  ): Promise<Checkout> {
    const resent = await resentFromDevice(staff, body);
    if (resent) return resent;
    try {
      return await answer((await insert(staff, body, idempotencyKey)).id);
    } catch (error) {
      const refusal = error instanceof ApiHttpError && error.statusCode < 500;
      const duplicateKey = sqlState(error) === SQLSTATE.uniqueViolation && violates(error, 'checkouts_idempotency_key');
      if (!idempotencyKey || !(refusal || duplicateKey)) throw error;
      const earlier = await repo.findCheckoutByIdempotencyKey(ctx.db, ctx.salonId, idempotencyKey);
      if (!earlier) throw error;
      return presentCheckout(earlier, await repo.correctionsOf(ctx.db, [earlier.id]), timeZone);
    }
  };
}
