import { z } from 'zod';
import { serviceOptionSchema, serviceSchema } from '#src/shared/schemas/booking';
import {
  createOptionRequestSchema,
  createSalonOptionRequestSchema,
  createServiceRequestSchema,
  optionIdParamsSchema,
  salonOptionIdParamsSchema,
  salonOptionSchema,
  serviceIdParamsSchema,
  updateOptionRequestSchema,
  updateSalonOptionRequestSchema,
  updateServiceRequestSchema,
} from '#src/shared/schemas/menu';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../zod-app';
import { createMenuService, parseOptionId, parseServiceId } from './menu.service';
import { createSalonOptionsService } from './salon-options.service';

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

  // Options (オプション) as one menu sees them: the same staff who edit the menu manage them. Their answers have the
  // shape GET /api/services/ lists them in. An option may be allowed by several menus: an edit applies to all of
  // them, a delete takes it off this menu only (and deletes it, softly, once no menu allows it).
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

  registerSalonOptionRoutes(app, ctx);
}

/**
 * The salon's options in one place: each with the menus that allow it (service_ids). The same staff as the menu's
 * other writes; a delete is soft, so reservations keep the option they were booked with.
 */
function registerSalonOptionRoutes(app: ZodApp, ctx: AppContext) {
  const options = createSalonOptionsService({ db: ctx.db, salonId: ctx.salonId });

  app.get('/api/admin/options/', {
    config: { auth: 'staff' },
    schema: { response: { 200: z.array(salonOptionSchema) } },
    handler: () => options.list(),
  });

  app.post('/api/admin/options/', {
    config: { auth: 'staff' },
    schema: { body: createSalonOptionRequestSchema, response: { 201: salonOptionSchema } },
    handler: async (request, reply) => reply.code(201).send(await options.create(request.body)),
  });

  app.patch('/api/admin/options/:id/', {
    config: { auth: 'staff' },
    schema: {
      params: salonOptionIdParamsSchema,
      body: updateSalonOptionRequestSchema,
      response: { 200: salonOptionSchema },
    },
    handler: (request) => options.update(parseOptionId(request.params.id), request.body),
  });

  app.delete('/api/admin/options/:id/', {
    config: { auth: 'staff' },
    schema: { params: salonOptionIdParamsSchema },
    handler: async (request, reply) => {
      await options.remove(parseOptionId(request.params.id));
      return reply.code(204).send();
    },
  });
}
