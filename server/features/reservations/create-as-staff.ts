/**
 * Staff book at the front desk (docs/architecture.md#staff-created-reservations): for a known customer or for one
 * typed in. Confirmed at once, assigned to the caller (a superuser may choose), at any start on the grid, outside
 * working time too. Its SQL is staff-booking.repository.ts; the insert goes through claim-time.ts like a
 * customer's booking.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { canSeeAllBookings } from '#src/shared/roles';
import type { Executor } from '../../db/client';
import type { customers } from '../../db/schema';
import { findCustomerForStaff } from '../../db/scope';
import { badRequest, conflict, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import { menuChoice, parseStart, snapshot } from './booking-request';
import { insertWithNotifications, unlessMadeEarlier } from './claim-time';
import { present } from './present';
import type { ReservationsContext } from './reservations.context';
import * as staffRepo from './staff-booking.repository';

type Customer = typeof customers.$inferSelect;

interface StaffBooking {
  service_id: number;
  start_time: string;
  staff_id?: number;
  option_ids?: number[];
  /** 指名: as a customer's booking, the named staff member's 指名料 is added (booking-request.ts snapshot). */
  is_nominated?: boolean;
}

/** Staff book for a known customer: confirmed at once, assigned to the caller (a superuser may choose). */
export async function createForCustomer(
  ctx: ReservationsContext,
  staff: StaffPrincipal,
  body: StaffBooking & { customer_id: number },
  idempotencyKey?: string,
) {
  return unlessMadeEarlier(ctx, idempotencyKey, 'staff', async () => {
    const customer = await findCustomerForStaff(ctx.db, ctx.salonId, body.customer_id, staff);
    if (!customer) throw notFound(MESSAGES.customerNotFound);
    return createAsStaff(ctx, staff, customer, body, idempotencyKey);
  });
}

/**
 * A front-desk booking with a customer typed in: reuses a customer the caller already sees, not linked to LINE,
 * with the same e-mail or phone (never renaming them), else creates one (findWalkInCustomerByContact says why).
 * Either way the answer carries only what the caller typed or could already read.
 */
export async function createWithNewCustomer(
  ctx: ReservationsContext,
  staff: StaffPrincipal,
  body: StaffBooking & { name: string; phone_number: string; email: string },
  idempotencyKey?: string,
) {
  const { salonId } = ctx;
  return unlessMadeEarlier(ctx, idempotencyKey, 'staff', () =>
    // Looked up and inserted in the booking's own transaction: a refused booking (an overlap) used to leave a
    // customer row behind, one more for every retry of a walk-in without e-mail or phone.
    createAsStaff(
      ctx,
      staff,
      async (tx, staffId) =>
        (await staffRepo.findWalkInCustomerByContact(tx, {
          salonId,
          staff,
          email: body.email,
          phone: body.phone_number,
        })) ??
        // The staff member who serves them looks after them, as with an online booking.
        (await staffRepo.insertWalkInCustomer(tx, {
          salonId,
          name: body.name,
          email: body.email,
          phone: body.phone_number,
          staffId,
        })),
      body,
      idempotencyKey,
    ),
  );
}

async function createAsStaff(
  ctx: ReservationsContext,
  staff: StaffPrincipal,
  customerOrCreate: Customer | ((tx: Executor, staffId: number) => Promise<Customer>),
  body: StaffBooking,
  idempotencyKey: string | undefined,
) {
  const choice = await menuChoice(ctx, body.service_id, body.option_ids ?? [], 'service_id');
  const { start } = await parseStart(ctx, body.start_time);
  const staffId = canSeeAllBookings(staff.role) && body.staff_id ? body.staff_id : staff.id;
  const nomination = await nominationOf(ctx, staffId, staff.id, body.is_nominated === true);
  // Confirmed at once: the customer gets the confirmation, not the acceptance that promises one later.
  const result = await insertWithNotifications(ctx, idempotencyKey, async (tx) => {
    const customer = typeof customerOrCreate === 'function' ? await customerOrCreate(tx, staffId) : customerOrCreate;
    return {
      row: {
        ...snapshot(ctx, choice, start, nomination),
        staff_id: staffId,
        customer_id: customer.id,
        status: 'confirmed',
        customer_name: customer.name,
        customer_furigana: customer.furigana,
        customer_email: customer.email,
        customer_phone: customer.phone_number,
        created_by: 'staff',
        created_by_staff_id: staff.id,
      },
    };
  });
  if (result === 'overlap') throw conflict(SERVER_MESSAGES.staffTimeTaken, 'slot_unavailable');
  return present(ctx, result, 'staff');
}

/**
 * The staff member booked for, checked, and the 指名 a desk booking carries: the rules of a customer's 指名 (book.ts),
 * a staff member customers cannot name is refused and the 指名料 is theirs. Without 指名 only another staff
 * member's account is checked (the caller's own is known to be active).
 */
async function nominationOf(ctx: ReservationsContext, staffId: number, callerId: number, nominated: boolean) {
  if (staffId === callerId && !nominated) return undefined;
  const row = await staffRepo.findStaff(ctx.db, ctx.salonId, staffId);
  if (!row) throw badRequest(MESSAGES.staffNotFound, { staff_id: [MESSAGES.staffNotFound] });
  if (!nominated) return undefined;
  if (!row.is_bookable) {
    throw badRequest(SERVER_MESSAGES.staffNotBookable, { staff_id: [SERVER_MESSAGES.staffNotBookable] });
  }
  return { fee: row.nomination_fee };
}
