import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import {
  createReservationRequestSchema,
  customerReservationListSchema,
  notifyLatestAnswerSchema,
  reservationNumberParamsSchema,
  reservationSchema,
  rescheduleRequestSchema,
} from '#src/shared/schemas/reservations';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../http-errors';
import { customerOf } from '../../plugins/auth';
import { idempotencyKeyOf } from '../../plugins/idempotency';
import type { ZodApp } from '../../zod-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reservation number that is not even a UUID names nothing: 404, like any unknown number. */
export function checkedNumber(params: { reservationNumber: string }): string {
  if (!UUID.test(params.reservationNumber)) throw notFound(MESSAGES.reservationNotFound);
  return params.reservationNumber.toLowerCase();
}

/** The customer side of docs/screens.md#customer-reservation-detail: book, read, confirm (staff sessions only) and cancel by number. */
export function registerReservationRoutes(app: ZodApp, ctx: AppContext) {
  app.post('/api/reservations/', {
    // book_reservation() locks the customer's row first thing (401 when it is gone): no lookup of its own.
    config: { auth: 'customer', changes: 'reservations', customerRowInHandler: true },
    schema: { body: createReservationRequestSchema, response: { 201: reservationSchema } },
    handler: async (request, reply) => {
      const customerId = customerOf(request).id;
      // The booking counts itself against the booking-change limit inside its own transaction (book.ts).
      const reservation = await ctx.reservations.bookAsCustomer(
        customerId,
        request.body,
        idempotencyKeyOf(request),
        ctx.bookingLimits.bookingCounter(customerId),
      );
      return reply.code(201).send(reservation);
    },
  });

  app.get('/api/reservations/', {
    config: { auth: 'customer' },
    schema: { response: { 200: customerReservationListSchema } },
    handler: (request) => ctx.reservations.listForCustomer(customerOf(request).id),
  });

  app.get('/api/reservations/:reservationNumber/', {
    config: { auth: 'staffOrCustomer' },
    schema: { params: reservationNumberParamsSchema, response: { 200: reservationSchema } },
    handler: (request) => {
      const number = checkedNumber(request.params);
      return request.staff
        ? ctx.reservations.getForStaff(request.staff, number)
        : ctx.reservations.getForCustomer(customerOf(request).id, number);
    },
  });

  // The link in the customer's e-mails: opens that one reservation read-only, without signing in (its secret is
  // the proof of holding the e-mail). A front-desk customer has no LINE account linked to the booking.
  app.get('/api/reservations/:reservationNumber/by-link/', {
    config: { auth: 'public' },
    schema: {
      params: reservationNumberParamsSchema,
      querystring: z.object({ t: z.string().max(64).optional().default('') }),
      response: { 200: reservationSchema },
    },
    handler: (request) => ctx.reservations.getByLink(checkedNumber(request.params), request.query.t),
  });

  app.post('/api/reservations/:reservationNumber/confirm/', {
    config: { auth: 'staffOrCustomer', changes: 'reservations' },
    schema: { params: reservationNumberParamsSchema, response: { 200: reservationSchema } },
    handler: (request) => {
      const number = checkedNumber(request.params);
      // Confirming is the salon's decision; the shared detail page offers it to staff sessions only.
      if (!request.staff) throw forbidden();
      return ctx.reservations.transitionAsStaff(request.staff, number, 'confirm');
    },
  });

  app.post('/api/reservations/:reservationNumber/cancel/', {
    config: { auth: 'staffOrCustomer', changes: 'reservations' },
    schema: { params: reservationNumberParamsSchema, response: { 200: reservationSchema } },
    handler: async (request) => {
      const number = checkedNumber(request.params);
      if (request.staff) return ctx.reservations.transitionAsStaff(request.staff, number, 'cancel');
      // A cancellation mails the customer too: it counts against the same limit as booking.
      await ctx.bookingLimits.countChange(customerOf(request).id);
      return ctx.reservations.cancelAsCustomer(customerOf(request).id, number);
    },
  });

  // A move before the cancellation deadline (reschedule.ts rescheduleAsCustomer). It mails the customer
  // like a cancellation does, so it counts against the same limit.
  app.post('/api/reservations/:reservationNumber/reschedule/', {
    config: { auth: 'customer', changes: 'reservations' },
    schema: {
      params: reservationNumberParamsSchema,
      body: rescheduleRequestSchema,
      response: { 200: reservationSchema },
    },
    handler: async (request) => {
      const number = checkedNumber(request.params);
      const customerId = customerOf(request).id;
      await ctx.bookingLimits.countChange(customerId);
      const { start_time, staff_id } = request.body;
      return ctx.reservations.rescheduleAsCustomer(customerId, number, { start_time, staff_id });
    },
  });

  app.post('/api/confirm-reservation-and-notify/', {
    config: { auth: 'customer' },
    schema: { response: { 200: notifyLatestAnswerSchema } },
    handler: async (request) => {
      const customerId = customerOf(request).id;
      const next = await ctx.reservations.nextForCustomer(customerId);
      const channel = await ctx.sendLatestReservationToChat(customerId, next ?? null);
      if (!next) throw notFound(SERVER_MESSAGES.noUpcomingReservation);
      return {
        detail: SERVER_MESSAGES.latestReservationSent[channel],
        reservation_number: next.reservation_number,
        channel,
      };
    },
  });
}
