import {
  bulkSendResponseSchema,
  customerIdParamsSchema,
  lineHistoryQuerySchema,
  lineMessageSchema,
} from '#src/shared/schemas/messages';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { registerMediaRoutes } from './media.routes';
import { readMessageForm } from './message-form';
import { createMessagesService } from './messages.service';

/** Staff LINE messages (docs/screens.md#message-history): send to one customer, bulk send, history; and the media they refer to. */
export function registerMessageRoutes(app: ZodApp, ctx: AppContext) {
  const { media } = ctx;
  const messages = createMessagesService({
    db: ctx.db,
    salonId: ctx.salonId,
    timeZone: ctx.env.SALON_TZ,
    now: ctx.now,
    media,
    afterQueue: () => ctx.notifications.worker.wake(),
  });

  // Multipart bodies are read in the handler (readMessageForm), not validated by a body schema.
  app.post('/api/admin/customers/:id/send-message/', {
    config: { auth: 'staff' },
    schema: { params: customerIdParamsSchema, response: { 201: lineMessageSchema } },
    handler: async (request, reply) => {
      const staff = staffOf(request);
      // Scope first: another staff member's customer is 404 whatever the form holds.
      const customer = await messages.recipientFor(staff, request.params.id);
      const form = await readMessageForm(request);
      return reply.code(201).send(await messages.sendToCustomer(staff, customer, form));
    },
  });

  app.post('/api/admin/send-bulk-message/', {
    config: { auth: 'staff' },
    schema: { response: { 200: bulkSendResponseSchema, 201: bulkSendResponseSchema } },
    handler: async (request, reply) => {
      const form = await readMessageForm(request);
      const result = await messages.sendBulk(staffOf(request), form);
      return reply.code(result.status).send(result.body);
    },
  });

  app.get('/api/admin/line-history/', {
    config: { auth: 'staff' },
    schema: { querystring: lineHistoryQuerySchema, response: { 200: z.array(lineMessageSchema) } },
    handler: async (request, reply) => {
      const { items, total } = await messages.history(staffOf(request), request.query);
      reply.header('X-Total-Count', String(total));
      return items;
    },
  });

  registerMediaRoutes(app, media);
}
