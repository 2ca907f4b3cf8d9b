/**
 * A customer books (docs/architecture.md#customer-booking): POST /api/reservations/. The whole booking rule is in
 * this file: which staff member, the limits checked under the customer's lock, pending or confirmed, and the
 * retries when another booking wins the time. Its SQL is book.repository.ts; claim-time.ts turns the database's
 * answer to a race into a retry or a 409.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import type { Executor } from '../../db/client';
import type { salons } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../http-errors';
import { recentEmailAddresses, refuseEmailAddressOverLimit } from '../../plugins/booking-limits';
import { approvalRuleOf, onlineBookingStatus } from '../../scheduling/approval-rule';
import type { BookableStaffRow as BookableStaff } from '../../scheduling/working-time';
import * as bookRepo from './book.repository';
import { menuChoice, parseStart, snapshot } from './booking-request';
import { insertWithNotifications, MAX_BOOKING_ATTEMPTS, ScheduleChanged, unlessMadeEarlier } from './claim-time';
import { present } from './present';
import { salonSettings, type ReservationsContext } from './reservations.context';
import { chooseStaff, freeAt } from './staff-choice';

/** What a customer sends to book (POST /api/reservations/). */
interface CustomerBooking {
  salon: number;
  service: number;
  staff_id?: number;
  option_ids?: number[];
  start_time: string;
  customer_name: string;
  customer_furigana: string;
  customer_email: string;
  customer_phone: string;
}

/**
 * A customer books (docs/architecture.md#booking-rules): the start must be bookable for the service with its
 * options; the staff member is the one named (指名, with their 指名料), else the customer's own if free, else the
 * free one with the fewest bookings that day. Created pending (or confirmed: onlineBookingStatus), with its
 * messages queued.
 */
export async function bookAsCustomer(
  ctx: ReservationsContext,
  customerId: number,
  body: CustomerBooking,
  idempotencyKey?: string,
): Promise<Reservation> {
  return unlessMadeEarlier(ctx, idempotencyKey, 'customer', () => book(ctx, customerId, body, idempotencyKey));
}

/** bookAsCustomer's booking itself (the reservation it made earlier aside). */
async function book(
  ctx: ReservationsContext,
  customerId: number,
  body: CustomerBooking,
  idempotencyKey: string | undefined,
) {
  if (body.salon !== ctx.salonId) throw badRequest(MESSAGES.salonNotFound, { salon: [MESSAGES.salonNotFound] });
  const choice = await menuChoice(ctx, body.service, body.option_ids ?? [], 'service');
  const { start, date, time } = await parseStart(ctx, body.start_time);
  const salon = await salonSettings(ctx);

  for (let attempt = 0; attempt < MAX_BOOKING_ATTEMPTS; attempt += 1) {
    const { starts, staff } = await ctx.availability.startsByStaff(date, choice.length, body.staff_id);
    if (body.staff_id !== undefined && staff.length === 0) {
      throw badRequest(SERVER_MESSAGES.staffNotBookable, { staff_id: [SERVER_MESSAGES.staffNotBookable] });
    }
    const free = freeAt(starts, time);
    if (free.length === 0) throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
    const staffId = await chooseStaff(ctx, free, customerId, date);
    const chosen = staff.find((member) => member.id === staffId);
    const nomination = body.staff_id !== undefined && chosen ? { fee: chosen.nomination_fee } : undefined;
    const booked = snapshot(ctx, choice, start, nomination);

    const result = await insertWithNotifications(ctx, idempotencyKey, (tx) =>
      customerReservationUnderLock(ctx, tx, { customerId, body, salon, staffId, chosen, booked }),
    );
    if (result !== 'overlap') return present(ctx, result, 'customer');
  }
  throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
}

/**
 * Inside the booking's transaction, under the customer's row lock (book.repository.ts lockCustomerAndStaff): the
 * checks that a concurrent booking of the same customer must not pass, then the row to insert and the names its
 * messages need.
 */
async function customerReservationUnderLock(
  ctx: ReservationsContext,
  tx: Executor,
  input: {
    customerId: number;
    body: CustomerBooking;
    salon: typeof salons.$inferSelect;
    staffId: number;
    chosen: BookableStaff | undefined;
    booked: ReturnType<typeof snapshot>;
  },
) {
  const { customerId, body, salon, staffId, chosen } = input;
  const locked = await bookRepo.lockCustomerAndStaff(tx, customerId, staffId);
  if (!locked) throw notFound(MESSAGES.customerNotFound);
  // The staff member's working time is still what availability was read against (see lockCustomerAndStaff).
  if (chosen && locked.staff?.schedule_version !== chosen.schedule_version) throw new ScheduleChanged();
  // The details entered become the customer's profile, so the next booking starts filled in.
  const { upcoming, alsoRead: recentAddresses } = await bookRepo.saveProfileAndCountUpcoming(
    tx,
    customerId,
    {
      name: body.customer_name,
      furigana: body.customer_furigana,
      email: body.customer_email,
      phone_number: body.customer_phone,
      assigned_staff_id: locked.customer.assigned_staff_id ?? staffId,
    },
    ctx.now(),
    recentEmailAddresses(customerId),
  );
  // Each booking mails the address typed in: a few per day per account, not a relay to anyone.
  refuseEmailAddressOverLimit(recentAddresses, body.customer_email, ctx.emailAddressesPerDay);
  if (upcoming >= salon.max_upcoming_per_customer) {
    throw conflict(SERVER_MESSAGES.reservationLimit(salon.max_upcoming_per_customer), 'reservation_limit');
  }
  // Pending until staff confirm it, unless the salon confirms online bookings at once and the customer's
  // no-shows and late cancels stay below its threshold (server/scheduling/approval-rule.ts), as counted now.
  const { status, needs_approval } = await onlineBookingStatus(tx, approvalRuleOf(salon), customerId);
  return {
    row: {
      ...input.booked,
      staff_id: staffId,
      customer_id: customerId,
      status,
      needs_approval,
      customer_name: body.customer_name,
      customer_furigana: body.customer_furigana,
      customer_email: body.customer_email,
      customer_phone: body.customer_phone,
      created_by: 'customer' as const,
    },
    // Read under the locks, so the reservation need not be read back; the salon's name from its settings.
    names: {
      salon_name: salon.name,
      staff_name: locked.staff?.name ?? '',
      staff_line_user_id: locked.staff?.line_user_id ?? null,
      customer_line_user_id: locked.customer.line_user_id,
    },
  };
}
