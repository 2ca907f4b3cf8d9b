/**
 * A customer books (docs/architecture.md#customer-booking): POST /api/reservations/. The booking is decided in the
 * database, in one statement, book_reservation() (server/db/migrations/0025_book_reservation.sql and 0027: 指名 or
 * 指名なし, working time, grid, notice, buffer, the customer's limits, pending or confirmed, the insert and the
 * outbox event the worker expands into its messages); this module resolves the menu, converts the start to an
 * instant, calls it (claim-time.ts) and turns a refusal into its answer (book-refusals.ts).
 */
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { localDateTimeToInstant } from '#src/shared/time';
import { badRequest, conflict, ApiHttpError } from '../../http-errors';
import type { BookingCounter } from '../../plugins/booking-limits';
import { refusalAnswer } from './book-refusals';
import * as bookRepo from './book.repository';
import { menuChoice, snapshot } from './booking-request';
import { claimInOneStatement, MAX_BOOKING_ATTEMPTS, unlessMadeEarlier } from './claim-time';
import { present } from './present';
import type { ReservationsContext } from './reservations.context';

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

const DAY_MS = 24 * 60 * 60_000;

/**
 * A customer books (docs/architecture.md#booking-rules): the start must be bookable for the service with its
 * options; the staff member is the one named (指名, with their 指名料), else the customer's own if free, else the
 * free one with the fewest bookings that day. Created pending (or confirmed by the approval rule), with its
 * messages' event queued. `counter` (the booking-change limit, server/plugins/booking-limits.ts) is counted inside the
 * booking's transaction; without it nothing is counted.
 */
export async function bookAsCustomer(
  ctx: ReservationsContext,
  customerId: number,
  body: CustomerBooking,
  idempotencyKey?: string,
  counter?: BookingCounter,
): Promise<Reservation> {
  return unlessMadeEarlier(ctx, idempotencyKey, 'customer', async () => {
    try {
      const reservation = await book(ctx, customerId, body, idempotencyKey, counter);
      await counter?.prune();
      return reservation;
    } catch (error) {
      // A refusal rolled its count back with the transaction (or came before it): it still counts as an attempt,
      // as it did when the count was a statement of its own. An attempt over the limit (429) is not counted, nor
      // one with a token whose customer is gone (401).
      if (error instanceof ApiHttpError && error.statusCode < 500 && ![401, 429].includes(error.statusCode)) {
        await counter?.countRefused();
      }
      throw error;
    }
  });
}

/** bookAsCustomer's booking itself (the reservation it made earlier and the counting aside). */
async function book(
  ctx: ReservationsContext,
  customerId: number,
  body: CustomerBooking,
  idempotencyKey: string | undefined,
  counter: BookingCounter | undefined,
) {
  if (body.salon !== ctx.salonId) throw badRequest(MESSAGES.salonNotFound, { salon: [MESSAGES.salonNotFound] });
  const choice = await menuChoice(ctx, body.service, body.option_ids ?? [], 'service');
  // The instant to the minute; the seconds as written go to the function, whose grid rule refuses any but :00.
  const date = body.start_time.slice(0, 10);
  const [hours, minutes, seconds] = body.start_time.slice(11, 19).split(':').map(Number) as [number, number, number];
  const start = localDateTimeToInstant(`${body.start_time.slice(0, 16)}:00`, ctx.timeZone);
  const dayFrom = localDateTimeToInstant(`${date}T00:00:00`, ctx.timeZone);
  const menu = snapshot(ctx, choice, start, undefined);
  const input: bookRepo.CustomerBookingInput = {
    salonId: ctx.salonId,
    customerId,
    staffId: body.staff_id,
    serviceId: choice.service.id,
    serviceName: menu.service_name,
    menuPrice: menu.price,
    options: menu.options,
    servedMinutes: choice.length.servedMinutes,
    start,
    localDate: date,
    localSeconds: hours * 3600 + minutes * 60 + seconds,
    dayFrom,
    dayTo: new Date(dayFrom.getTime() + DAY_MS),
    now: ctx.now(),
    customer: {
      name: body.customer_name,
      furigana: body.customer_furigana,
      email: body.customer_email,
      phone: body.customer_phone,
    },
    emailLimit: Number.isFinite(ctx.emailAddressesPerDay) ? ctx.emailAddressesPerDay : undefined,
    counter,
    idempotencyKey: idempotencyKey ?? null,
  };

  // The function tries every candidate itself; what comes back as 'overlap' is a deadlock between two bookings'
  // exclusion checks (claim-time.ts lostTimeRace), decided again in a new statement.
  for (let attempt = 0; attempt < MAX_BOOKING_ATTEMPTS; attempt += 1) {
    let result;
    try {
      result = await claimInOneStatement(ctx, idempotencyKey, () => bookRepo.bookReservation(ctx.db, input));
    } catch (error) {
      throw refusalAnswer(error);
    }
    if (result !== 'overlap') return present(ctx, result, 'customer');
  }
  throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
}
