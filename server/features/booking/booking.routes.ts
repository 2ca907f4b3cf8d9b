import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import {
  availabilityQuerySchema,
  bookableDatesQuerySchema,
  serviceSchema,
  servicesQuerySchema,
} from '#src/shared/schemas/booking';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import type { ZodApp } from '../../zod-app';

/** The public booking calls of docs/architecture.md#screens-and-texts: the menu, the bookable days of a month, the starts of a day. */
export function registerBookingRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/services/', {
    config: { auth: 'public' },
    schema: { querystring: servicesQuerySchema, response: { 200: z.array(serviceSchema) } },
    handler: async (request) => {
      if (request.query.salon !== undefined && request.query.salon !== ctx.salonId) return [];
      const rows = await ctx.availability.activeServices();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        price: String(row.price),
        duration_minutes: row.duration_minutes,
        salon: row.salon_id,
      }));
    },
  });

  app.get('/api/bookable-dates/', {
    config: { auth: 'public' },
    schema: { querystring: bookableDatesQuerySchema, response: { 200: z.array(z.string()) } },
    handler: async (request) => {
      const { year, month, service_id: serviceId } = request.query;
      let duration: number;
      if (serviceId !== undefined) {
        duration = (await serviceOrBadRequest(ctx, serviceId)).duration_minutes;
      } else {
        const services = await ctx.availability.activeServices();
        if (services.length === 0) return [];
        duration = Math.min(...services.map((service) => service.duration_minutes));
      }
      return ctx.availability.bookableDates(year, month, duration);
    },
  });

  app.get('/api/availability/', {
    config: { auth: 'public' },
    schema: { querystring: availabilityQuerySchema, response: { 200: z.array(z.string()) } },
    handler: async (request) => {
      const service = await serviceOrBadRequest(ctx, request.query.service_id);
      return ctx.availability.availableStarts(request.query.date, service.duration_minutes);
    },
  });
}

async function serviceOrBadRequest(ctx: AppContext, serviceId: number) {
  const service = (await ctx.availability.activeServices()).find((row) => row.id === serviceId);
  if (!service) throw badRequest(MESSAGES.serviceNotFound, { service_id: [MESSAGES.serviceNotFound] });
  return service;
}
