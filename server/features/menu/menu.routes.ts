import { serviceSchema } from '#src/shared/schemas/booking';
import {
  createServiceRequestSchema,
  serviceIdParamsSchema,
  updateServiceRequestSchema,
} from '#src/shared/schemas/menu';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../zod-app';
import { createMenuService, parseServiceId } from './menu.service';

/**
 * Menu management (docs/architecture.md#screens-and-texts), staff only. The public GET /api/services/ lives with booking and lists active
 * services only, so a deleted service disappears from booking while its reservations keep their snapshot.
 */
export function registerMenuRoutes(app: ZodApp, ctx: AppContext) {
  const menu = createMenuService({ db: ctx.db, salonId: ctx.salonId });

  app.post('/api/services/', {
    config: { auth: 'staff' },
    schema: { body: createServiceRequestSchema, response: { 201: serviceSchema } },
    handler: async (request, reply) => reply.code(201).send(await menu.create(request.body)),
  });

  app.patch('/api/services/:id/', {
    config: { auth: 'staff' },
    schema: { params: serviceIdParamsSchema, body: updateServiceRequestSchema, response: { 200: serviceSchema } },
    handler: (request) => menu.update(parseServiceId(request.params.id), request.body),
  });

  app.delete('/api/services/:id/', {
    config: { auth: 'staff' },
    schema: { params: serviceIdParamsSchema },
    handler: async (request, reply) => {
      await menu.remove(parseServiceId(request.params.id));
      return reply.code(204).send();
    },
  });
}
