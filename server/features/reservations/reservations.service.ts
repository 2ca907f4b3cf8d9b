/**
 * The reservations service (docs/architecture.md#booking-rules): the use cases routes call, each in its own
 * module and each taking the context first (reservations.context.ts). This factory binds them to one context, so
 * routes and tests call `ctx.reservations.bookAsCustomer(…)` without passing it.
 *
 * - book.ts: a customer books (the staff choice in staff-choice.ts, the race for the time in claim-time.ts);
 * - create-as-staff.ts: staff book at the front desk, for a known customer or a walk-in;
 * - transition.ts: confirm, cancel, complete, no-show (the table in reservation-rules.ts);
 * - reschedule.ts: the customer or staff move a booking;
 * - read.ts and present.ts: reading reservations and the answer's shape.
 */
import { bookAsCustomer } from './book';
import { createForCustomer, createWithNewCustomer } from './create-as-staff';
import { presentAllForStaff } from './present';
import { getByLink, getForCustomer, getForStaff, listForCustomer, listForStaff, nextForCustomer } from './read';
import { reservationsContext, type ReservationsContext, type ReservationsDeps } from './reservations.context';
import { rescheduleAsCustomer, rescheduleAsStaff } from './reschedule';
import { cancelAsCustomer, transitionAsStaff } from './transition';

export type ReservationsService = ReturnType<typeof createReservationsService>;

export function createReservationsService(deps: ReservationsDeps) {
  const ctx = reservationsContext(deps);
  /** A use case with the context already given. */
  const bound =
    <Args extends unknown[], Result>(useCase: (ctx: ReservationsContext, ...args: Args) => Result) =>
    (...args: Args) =>
      useCase(ctx, ...args);
  return {
    presentAllForStaff: bound(presentAllForStaff),
    bookAsCustomer: bound(bookAsCustomer),
    getForCustomer: bound(getForCustomer),
    listForCustomer: bound(listForCustomer),
    listForStaff: bound(listForStaff),
    getByLink: bound(getByLink),
    getForStaff: bound(getForStaff),
    cancelAsCustomer: bound(cancelAsCustomer),
    transitionAsStaff: bound(transitionAsStaff),
    createForCustomer: bound(createForCustomer),
    createWithNewCustomer: bound(createWithNewCustomer),
    nextForCustomer: bound(nextForCustomer),
    rescheduleAsCustomer: bound(rescheduleAsCustomer),
    rescheduleAsStaff: bound(rescheduleAsStaff),
  };
}
