import { z } from 'zod';
import { tokenPairSchema } from '#src/shared/schemas/auth';
import {
  adminCustomerSchema,
  customerIdParamsSchema,
  customerLineLinkSchema,
  customerLinkRequestSchema,
  customerLinkStatusSchema,
  customerListQuerySchema,
  customerPatchRequestSchema,
  linkTokenParamsSchema,
} from '#src/shared/schemas/customers';
import { RESERVATION_PAGE_DEFAULT, RESERVATION_PAGE_MAX, reservationSchema } from '#src/shared/schemas/reservations';
import type { AppContext } from '../../context';
import { staffOf } from '../../plugins/auth';
import { sendEncoded, type ZodApp } from '../../zod-app';
import { registerCustomerLineLinkRoutes } from './customer-line-link';
import { adminCustomerListSchema, createCustomersService } from './customers.service';

const reservationPageSchema = z.object({
  limit: z.coerce.number().int().min(1).max(RESERVATION_PAGE_MAX).default(RESERVATION_PAGE_DEFAULT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/** docs/screens.md#customer-detail (staff, scoped) and the customer side of /link-customer/{token}. */
export function registerCustomerRoutes(app: ZodApp, ctx: AppContext) {
  const service = createCustomersService(ctx);

  app.get('/api/admin/customers/', {
    config: { auth: 'staff' },
    schema: { querystring: customerListQuerySchema, response: { 200: adminCustomerListSchema } },
    handler: async (request, reply) => {
      const { total, page } = await service.list(staffOf(request), request.query);
      reply.header('X-Total-Count', String(total));
      return sendEncoded(reply, page);
    },
  });

  app.get('/api/admin/customers/:id/', {
    config: { auth: 'staff' },
    schema: { params: customerIdParamsSchema, response: { 200: adminCustomerSchema } },
    handler: (request) => service.get(staffOf(request), request.params.id),
  });

  app.patch('/api/admin/customers/:id/', {
    config: { auth: 'staff' },
    schema: {
      params: customerIdParamsSchema,
      body: customerPatchRequestSchema,
      response: { 200: adminCustomerSchema },
    },
    handler: (request) => service.update(staffOf(request), request.params.id, request.body),
  });

  app.get('/api/admin/customers/:id/reservations/', {
    config: { auth: 'staff' },
    schema: {
      params: customerIdParamsSchema,
      querystring: reservationPageSchema,
      response: { 200: z.array(reservationSchema) },
    },
    handler: async (request, reply) => {
      const { items, total } = await service.reservations(staffOf(request), request.params.id, request.query);
      reply.header('X-Total-Count', String(total));
      return items;
    },
  });

  // Whoever opens the link becomes this customer on LINE: only a superuser makes one (and removes a link).
  app.post('/api/admin/customers/:id/generate-line-link/', {
    config: { auth: 'superuser' },
    schema: { params: customerIdParamsSchema, response: { 201: customerLineLinkSchema } },
    handler: async (request, reply) =>
      reply.code(201).send(await service.generateLineLink(staffOf(request), request.params.id)),
  });

  registerCustomerLineLinkRoutes(app, ctx);

  // The customer's side: the token in the link is the credential.
  app.get('/api/link-customer/:token/', {
    config: { auth: 'public' },
    schema: { params: linkTokenParamsSchema, response: { 200: customerLinkStatusSchema } },
    handler: (request) => service.linkStatus(request.params.token),
  });

  app.post('/api/link-customer/', {
    config: { auth: 'public' },
    schema: { body: customerLinkRequestSchema, response: { 200: tokenPairSchema } },
    handler: (request) => service.completeLink(request.body),
  });
}
