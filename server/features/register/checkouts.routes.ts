import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import {
  checkoutDraftSchema,
  checkoutIdParamsSchema,
  checkoutListQuerySchema,
  checkoutSchema,
  correctionSchema,
  createCheckoutRequestSchema,
  refundRequestSchema,
  voidRequestSchema,
} from '#src/shared/schemas/register';
import { reservationNumberParamsSchema } from '#src/shared/schemas/reservations';
import type { AppContext } from '../../context';
import { notFound } from '../../http-errors';
import { staffOf, type StaffPrincipal } from '../../plugins/auth';
import { idempotencyKeyOf } from '../../plugins/idempotency';
import type { ZodApp } from '../../zod-app';
import { draftLines, findReservationInScope } from './checkout-parties';
import * as repo from './checkouts.repository';
import { correctCheckoutUseCase } from './correct-checkout';
import { createCheckoutUseCase } from './create-checkout';
import { presentCheckout } from './present';
import { receiptHtml } from '#src/shared/money/receipt-html';
import { businessDateOf, parseId } from './register-day';
import { sendReceipt } from './send-receipt';

const sendReceiptBodySchema = z.object({
  channel: z.enum(['email', 'line'], { error: REGISTER_MESSAGES.receiptChannelInvalid }),
});

const receiptQuerySchema = z.object({
  proviso: z.string().trim().max(100, { error: MESSAGES.tooLong }).optional(),
  name: z.enum(['0', '1']).optional(),
  paper: z.enum(['80mm', 'a4']).default('80mm'),
});

/** Checkouts (会計) at the front desk: docs/architecture.md#register-会計. */
export function registerCheckoutRoutes(app: ZodApp, ctx: AppContext) {
  const timeZone = ctx.env.SALON_TZ;
  const createCheckout = createCheckoutUseCase(ctx);
  const corrections = correctCheckoutUseCase(ctx);

  /** A checkout the caller may read (their own takings or what they rang up; all for a superuser), else 404. */
  async function readable(staff: StaffPrincipal, rawId: string) {
    const id = parseId(rawId, REGISTER_MESSAGES.checkoutNotFound);
    const row = await repo.findCheckout(ctx.db, { salonId: ctx.salonId, id, staff });
    if (!row) throw notFound(REGISTER_MESSAGES.checkoutNotFound);
    return presentCheckout(row, await repo.correctionsOf(ctx.db, [row.id]), timeZone);
  }

  app.get('/api/admin/reservations/:reservationNumber/checkout-draft/', {
    config: { auth: 'staff' },
    schema: { params: reservationNumberParamsSchema, response: { 200: checkoutDraftSchema } },
    handler: async (request) => {
      const number = request.params.reservationNumber.toLowerCase();
      const row = await findReservationInScope(ctx.db, ctx.salonId, number, staffOf(request));
      return {
        reservation_number: row.reservation_number,
        customer_id: row.customer_id,
        staff_id: row.staff_id,
        lines: draftLines(row),
      };
    },
  });

  app.post('/api/admin/checkouts/', {
    config: { auth: 'staff', changes: 'reservations' },
    schema: { body: createCheckoutRequestSchema, response: { 201: checkoutSchema } },
    handler: async (request, reply) =>
      reply.code(201).send(await createCheckout(staffOf(request), request.body, idempotencyKeyOf(request))),
  });

  app.get('/api/admin/checkouts/', {
    config: { auth: 'staff' },
    schema: { querystring: checkoutListQuerySchema, response: { 200: z.array(checkoutSchema) } },
    handler: async (request) => {
      const date = request.query.date ?? businessDateOf(ctx.now(), timeZone);
      const rows = await repo.listCheckouts(ctx.db, {
        salonId: ctx.salonId,
        from: date,
        to: date,
        staff: staffOf(request),
      });
      const all = await repo.correctionsOf(
        ctx.db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => presentCheckout(row, all, timeZone));
    },
  });

  app.get('/api/admin/checkouts/:id/', {
    config: { auth: 'staff' },
    schema: { params: checkoutIdParamsSchema, response: { 200: checkoutSchema } },
    handler: (request) => readable(staffOf(request), request.params.id),
  });

  app.get('/api/admin/checkouts/:id/receipt/', {
    config: { auth: 'staff' },
    schema: { params: checkoutIdParamsSchema, querystring: receiptQuerySchema },
    handler: async (request, reply) => {
      const checkout = await readable(staffOf(request), request.params.id);
      const salon = await repo.findSalon(ctx.db, ctx.salonId);
      const html = receiptHtml(checkout, salon, {
        proviso: request.query.proviso || undefined,
        withName: request.query.name === '1',
        paper: request.query.paper,
      });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  });

  app.post('/api/admin/checkouts/:id/send-receipt/', {
    config: { auth: 'staff' },
    schema: {
      params: checkoutIdParamsSchema,
      body: sendReceiptBodySchema,
      response: { 202: z.object({ channel: z.enum(['email', 'line']), to: z.string() }) },
    },
    handler: async (request, reply) => {
      const checkout = await readable(staffOf(request), request.params.id);
      return reply.code(202).send(await sendReceipt(ctx, checkout, request.body.channel));
    },
  });

  app.post('/api/admin/checkouts/:id/void/', {
    config: { auth: 'superuser' },
    schema: { params: checkoutIdParamsSchema, body: voidRequestSchema, response: { 201: correctionSchema } },
    handler: async (request, reply) => {
      const id = parseId(request.params.id, REGISTER_MESSAGES.checkoutNotFound);
      return reply.code(201).send(await corrections.voidCheckout(staffOf(request), id, request.body.reason));
    },
  });

  app.post('/api/admin/checkouts/:id/refund/', {
    config: { auth: 'superuser' },
    schema: { params: checkoutIdParamsSchema, body: refundRequestSchema, response: { 201: correctionSchema } },
    handler: async (request, reply) => {
      const id = parseId(request.params.id, REGISTER_MESSAGES.checkoutNotFound);
      return reply.code(201).send(await corrections.refundCheckout(staffOf(request), id, request.body));
    },
  });
}
