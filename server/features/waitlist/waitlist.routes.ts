import { z } from 'zod';
import {
  adminWaitlistEntrySchema,
  adminWaitlistQuerySchema,
  joinWaitlistRequestSchema,
  waitlistEntrySchema,
  waitlistIdParamsSchema,
} from '#src/shared/schemas/waitlist';
import type { AppContext } from '../../context';
import { customerOf, staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { createWaitlistService } from './waitlist.service';

/** キャンセル待ち (waitlist.service.ts): the customer's own entries, and a day's entries for staff. */
export function registerWaitlistRoutes(app: ZodApp, ctx: AppContext) {
  const waitlist = createWaitlistService(ctx);

  app.post('/api/waitlist/', {
    config: { auth: 'customer' },
    schema: { body: joinWaitlistRequestSchema, response: { 201: waitlistEntrySchema } },
    handler: async (request, reply) => {
      const customerId = customerOf(request).id;
      // Joining is a change like a booking: the same per-customer limit keeps it from being hammered.
      await ctx.bookingLimits.countChange(customerId);
      return reply.code(201).send(await waitlist.join(customerId, request.body));
    },
  });

  app.get('/api/waitlist/', {
    config: { auth: 'customer' },
    schema: { response: { 200: z.array(waitlistEntrySchema) } },
    handler: (request) => waitlist.listForCustomer(customerOf(request).id),
  });

  app.get('/api/waitlist/:id/', {
    config: { auth: 'customer' },
    schema: { params: waitlistIdParamsSchema, response: { 200: waitlistEntrySchema } },
    handler: (request) => waitlist.getForCustomer(customerOf(request).id, request.params.id),
  });

  app.delete('/api/waitlist/:id/', {
    config: { auth: 'customer' },
    schema: { params: waitlistIdParamsSchema },
    handler: async (request, reply) => {
      await waitlist.withdraw(customerOf(request).id, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get('/api/admin/waitlist/', {
    config: { auth: 'staff' },
    schema: { querystring: adminWaitlistQuerySchema, response: { 200: z.array(adminWaitlistEntrySchema) } },
    handler: (request) => waitlist.listForStaff(staffOf(request), request.query.date),
  });
}
