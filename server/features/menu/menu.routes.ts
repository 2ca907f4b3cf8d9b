import { serviceOptionSchema, serviceSchema } from '#src/shared/schemas/booking';
import {
  createOptionRequestSchema,
  createServiceRequestSchema,
  optionIdParamsSchema,
  serviceIdParamsSchema,
  updateOptionRequestSchema,
  updateServiceRequestSchema,
} from '#src/shared/schemas/menu';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../zod-app';
import { createMenuService, parseOptionId, parseServiceId } from './menu.service';

/**
 * Menu management (docs/screens.md#menu-management), staff only. The public GET /api/services/ lives with booking and lists active
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

  // Options (オプション) of a service: the same staff who edit the menu manage them. Their answers have the shape
  // GET /api/services/ lists them in; a delete is soft, so reservations keep the option they were booked with.
  app.post('/api/services/:id/options/', {
    config: { auth: 'staff' },
    schema: { params: serviceIdParamsSchema, body: createOptionRequestSchema, response: { 201: serviceOptionSchema } },
    handler: async (request, reply) =>
      reply.code(201).send(await menu.createOption(parseServiceId(request.params.id), request.body)),
  });

  app.patch('/api/services/:id/options/:optionId/', {
    config: { auth: 'staff' },
    schema: { params: optionIdParamsSchema, body: updateOptionRequestSchema, response: { 200: serviceOptionSchema } },
    handler: (request) =>
      menu.updateOption(parseServiceId(request.params.id), parseOptionId(request.params.optionId), request.body),
  });

  app.delete('/api/services/:id/options/:optionId/', {
    config: { auth: 'staff' },
    schema: { params: optionIdParamsSchema },
    handler: async (request, reply) => {
      await menu.removeOption(parseServiceId(request.params.id), parseOptionId(request.params.optionId));
      return reply.code(204).send();
    },
  });
}
