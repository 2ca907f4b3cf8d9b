import { canSeeAllBookings } from '#src/shared/roles';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '#src/shared/messages';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import type { ReceiptLine } from '#src/shared/money/types';
import { localDateOf } from '#src/shared/time';
import type { Executor } from '../../db/client';
import { products, reservations, staffUsers } from '../../db/schema';
import { findCustomerForStaff, reachesBookingOf, type ScopedStaff } from '../../db/scope';
import { bookingLines } from '#src/shared/money/booking-lines';
import { badRequest, conflict, notFound } from '../../http-errors';

type ReservationForCheckout = typeof reservations.$inferSelect;

/** A reservation the caller may check out: any for a superuser, their own for ordinary staff (else 404). */
export async function findReservationInScope(
  db: Executor,
  salonId: number,
  reservationNumber: string,
  staff: ScopedStaff,
): Promise<ReservationForCheckout> {
  const [row] = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reservationNumber)
    ? await db
        .select()
        .from(reservations)
        .where(and(eq(reservations.salon_id, salonId), eq(reservations.reservation_number, reservationNumber)))
        .limit(1)
    : [];
  if (!row || !reachesBookingOf(staff, row.staff_id)) throw notFound(MESSAGES.reservationNotFound);
  return row;
}

/** The lines of a booking at its booked prices (src/shared/money/booking-lines.ts). */
export function draftLines(row: ReservationForCheckout): ReceiptLine[] {
  return bookingLines({
    serviceId: row.service_id,
    serviceName: row.service_name,
    price: row.price,
    options: row.options,
    isNominated: row.is_nominated,
    nominationFee: row.nomination_fee,
    staffId: row.staff_id,
  });
}

/**
 * Whether the reservation can be checked out today: not cancelled or a no-show (409), and its salon-local day has
 * come (409 `not_yet_due`). Once only: the unique index on checkouts.reservation_id decides that.
 */
export function refuseUnpayable(row: ReservationForCheckout, today: string, timeZone: string) {
  if (row.status === 'cancelled' || row.status === 'no_show') {
    throw conflict(REGISTER_MESSAGES.checkoutReservationNotPayable, 'not_payable');
  }
  if (localDateOf(row.start_time, timeZone) > today) throw conflict(REGISTER_MESSAGES.checkoutNotYetDue, 'not_yet_due');
}

/** Who the checkout is for and whose takings it is: the reservation's, a customer in scope, or nobody (物販). */
export async function resolveParties(
  db: Executor,
  input: {
    salonId: number;
    staff: ScopedStaff;
    reservation?: ReservationForCheckout;
    customerId?: number;
    staffId?: number;
  },
): Promise<{ customerId: number | null; customerName: string; staffId: number }> {
  const { staff, reservation } = input;
  const customer =
    input.customerId === undefined ? undefined : await findCustomerForStaff(db, input.salonId, input.customerId, staff);
  if (input.customerId !== undefined && !customer) throw notFound(MESSAGES.customerNotFound);
  // A nailist rings up their own takings; the owner and the front desk may name the 担当.
  let staffId = reservation?.staff_id ?? staff.id;
  if (canSeeAllBookings(staff.role) && input.staffId !== undefined && input.staffId !== staffId) {
    const [named] = await db
      .select({ id: staffUsers.id })
      .from(staffUsers)
      .where(and(eq(staffUsers.id, input.staffId), eq(staffUsers.salon_id, input.salonId)))
      .limit(1);
    if (!named) throw badRequest(MESSAGES.staffNotFound, { staff_id: [MESSAGES.staffNotFound] });
    staffId = named.id;
  }
  return {
    customerId: reservation?.customer_id ?? customer?.id ?? null,
    customerName: reservation?.customer_name ?? customer?.name ?? '',
    staffId,
  };
}

/**
 * Checks the lines against the catalogue: the menu, its options and the 指名料 are at the standard rate; a product
 * line with a ref_id names a product of this salon and keeps its tax rate. Prices may differ from the catalogue
 * (the desk may adjust them): what was rung up is what the receipt says.
 */
export async function checkLines(db: Executor, salonId: number, lines: readonly ReceiptLine[]) {
  const wrongRate = lines.findIndex(
    (line) => line.kind !== 'product' && line.kind !== 'custom' && line.tax_rate !== 10,
  );
  if (wrongRate >= 0) {
    throw badRequest(REGISTER_MESSAGES.checkoutServiceTaxRate, {
      [`lines.${wrongRate}.tax_rate`]: [REGISTER_MESSAGES.checkoutServiceTaxRate],
    });
  }
  for (const [index, line] of lines.entries()) {
    if (line.kind !== 'product' || line.ref_id == null) continue;
    const [product] = await db
      .select({ tax_rate: products.tax_rate })
      .from(products)
      .where(and(eq(products.id, line.ref_id), eq(products.salon_id, salonId)))
      .limit(1);
    if (!product)
      throw badRequest(REGISTER_MESSAGES.productNotFound, {
        [`lines.${index}.ref_id`]: [REGISTER_MESSAGES.productNotFound],
      });
    if (product.tax_rate !== line.tax_rate) {
      throw badRequest(REGISTER_MESSAGES.checkoutProductTaxRate, {
        [`lines.${index}.tax_rate`]: [REGISTER_MESSAGES.checkoutProductTaxRate],
      });
    }
  }
}
