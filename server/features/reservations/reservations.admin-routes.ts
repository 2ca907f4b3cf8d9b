import { z } from 'zod';
import { ownBookingsOnly } from '../../db/scope';
import { RESERVATION_STATUSES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import {
  createForCustomerRequestSchema,
  createWithNewCustomerRequestSchema,
  localDateSchema,
  normalizeReservationCode,
  RESERVATION_PAGE_DEFAULT,
  RESERVATION_PAGE_MAX,
  reservationNumberParamsSchema,
  reservationSchema,
  rescheduleRequestSchema,
  staffActionRequestSchema,
} from '#src/shared/schemas/reservations';
import { addDaysToDate, localDateTimeToInstant } from '#src/shared/time';
import type { AppContext } from '../../context';
import { staffOf } from '../../plugins/auth';
import { idempotencyKeyOf } from '../../plugins/idempotency';
import { sendEncoded, type ZodApp } from '../../zod-app';
import { reservationListSchema } from './read';
import type { StaffAction } from './reservation-rules';
import { checkedNumber } from './reservations.routes';

const listQuerySchema = z.object({
  start_date: localDateSchema.optional(),
  end_date: localDateSchema.optional(),
  status: z
    .union([z.enum(RESERVATION_STATUSES), z.array(z.enum(RESERVATION_STATUSES)).max(RESERVATION_STATUSES.length)])
    .optional()
    .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value])),
  user_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** The short reservation code (spaces, hyphens and lower case allowed); scoped like the rest of the list. */
  code: z
    .string()
    .max(32)
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === '') return undefined;
      const code = normalizeReservationCode(value);
      if (!code) context.addIssue({ code: 'custom', message: SERVER_MESSAGES.reservationCodeInvalid });
      return code ?? z.NEVER;
    }),
  /** お名前（フリガナ）or phone number containing this text (docs/screens.md#admin-reservation-list search box). */
  q: z
    .string()
    .max(100)
    .optional()
    .transform((value) => value?.trim() || undefined),
  updated_since: z.iso.datetime({ offset: true, error: MESSAGES.invalidDateTime }).optional(),
  limit: z.coerce.number().int().min(1).max(RESERVATION_PAGE_MAX).default(RESERVATION_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

const ACTIONS: Record<string, StaffAction> = {
  confirm: 'confirm',
  cancel: 'cancel',
  complete: 'complete',
  'no-show': 'no_show',
};

/** The staff side of reservations (docs/screens.md#admin-reservation-list), scoped on the server whatever the client sends. */
export function registerAdminReservationRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/admin/reservations/', {
    config: { auth: 'staff' },
    schema: { querystring: listQuerySchema, response: { 200: reservationListSchema } },
    handler: async (request, reply) => {
      const staff = staffOf(request);
      const query = request.query;
      const tz = ctx.env.SALON_TZ;
      // An ordinary staff member's user_id is ignored: they always see their own (docs/architecture.md).
      const staffId = ownBookingsOnly(staff) ?? query.user_id;
      // Every device at the desk asks for the same day after each change: the answer is cached like the booking
      // reads, under the scope it was read with, and dropped on any write and on any reservation change
      // (docs/decisions/0017-staff-list-cache.md).
      const key = `staff-reservations|${staffId ?? 'all'}|${JSON.stringify({ ...query, user_id: undefined })}`;
      const { total, page } = await ctx.reads.get(key, () =>
        ctx.reservations.listForStaff({
          salonId: ctx.salonId,
          staffId,
          from: query.start_date ? localDateTimeToInstant(`${query.start_date}T00:00:00`, tz) : undefined,
          to: query.end_date ? localDateTimeToInstant(`${addDaysToDate(query.end_date, 1)}T00:00:00`, tz) : undefined,
          statuses: query.status,
          updatedSince: query.updated_since ? new Date(query.updated_since) : undefined,
          code: query.code,
          text: query.q,
          limit: query.limit,
          offset: query.offset,
        }),
      );
      reply.header('X-Total-Count', String(total));
      return sendEncoded(reply, page);
    },
  });

  app.get('/api/admin/reservations/:reservationNumber/', {
    config: { auth: 'staff' },
    schema: { params: reservationNumberParamsSchema, response: { 200: reservationSchema } },
    handler: (request) => ctx.reservations.getForStaff(staffOf(request), checkedNumber(request.params)),
  });

  // No body, as before (Fastify hands the schema null for it); or {expected_start_time}, the start the staff member
  // saw (the offline outbox always sends it): a reservation moved since is 409 `rescheduled` and keeps its status.
  for (const [path, action] of Object.entries(ACTIONS)) {
    app.post(`/api/admin/reservations/:reservationNumber/${path}/`, {
      config: { auth: 'staff', changes: 'reservations' },
      schema: {
        params: reservationNumberParamsSchema,
        body: staffActionRequestSchema.nullable(),
        response: { 200: reservationSchema },
      },
      handler: (request) =>
        ctx.reservations.transitionAsStaff(
          staffOf(request),
          checkedNumber(request.params),
          action,
          request.body?.expected_start_time,
        ),
    });
  }

  app.post('/api/admin/reservations/:reservationNumber/reschedule/', {
    config: { auth: 'staff', changes: 'reservations' },
    schema: {
      params: reservationNumberParamsSchema,
      body: rescheduleRequestSchema,
      response: { 200: reservationSchema },
    },
    handler: (request) =>
      ctx.reservations.rescheduleAsStaff(staffOf(request), checkedNumber(request.params), request.body),
  });

  app.post('/api/admin/reservations/create-for-customer/', {
    config: { auth: 'staff', changes: 'reservations' },
    schema: { body: createForCustomerRequestSchema, response: { 201: reservationSchema } },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await ctx.reservations.createForCustomer(staffOf(request), request.body, idempotencyKeyOf(request))),
  });

  app.post('/api/admin/reservations/create-with-new-customer/', {
    config: { auth: 'staff', changes: 'reservations' },
    schema: { body: createWithNewCustomerRequestSchema, response: { 201: reservationSchema } },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send(await ctx.reservations.createWithNewCustomer(staffOf(request), request.body, idempotencyKeyOf(request))),
  });
}
