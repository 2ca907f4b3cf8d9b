import { z } from 'zod';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import {
  availabilityQuerySchema,
  bookableDatesQuerySchema,
  bookableStaffSchema,
  serviceSchema,
  servicesQuerySchema,
} from '#src/shared/schemas/booking';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import type { ZodApp } from '../../zod-app';
import { presentService, resolveMenuChoice } from '../../scheduling/menu';

/**
 * The public booking calls of docs/screens.md#booking-wizard: the menu (with options), the staff customers
 * can name, the bookable days of a month, the starts of a day.
 */
export function registerBookingRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/services/', {
    config: { auth: 'public' },
    schema: { querystring: servicesQuerySchema, response: { 200: z.array(serviceSchema) } },
    handler: async (request) => {
      if (request.query.salon !== undefined && request.query.salon !== ctx.salonId) return [];
      const rows = await ctx.availability.activeServices();
      return rows.map((row) => presentService(row, row.options));
    },
  });

  app.get('/api/staff/', {
    config: { auth: 'public' },
    schema: { response: { 200: z.array(bookableStaffSchema) } },
    handler: async () =>
      (await ctx.availability.bookableStaff()).map((member) => ({
        id: member.id,
        name: member.name,
        picture_url: member.picture_url,
        profile: member.profile,
        nomination_fee: String(member.nomination_fee),
      })),
  });

  app.get('/api/bookable-dates/', {
    config: { auth: 'public' },
    schema: { querystring: bookableDatesQuerySchema, response: { 200: z.array(z.string()) } },
    handler: async (request) => {
      const { year, month, service_id: serviceId, staff_id: staffId, option_ids: optionIds } = request.query;
      await checkNominee(ctx, staffId);
      if (serviceId !== undefined) {
        const { length } = await resolveMenuChoice(ctx.availability, {
          serviceId,
          optionIds,
          serviceField: 'service_id',
        });
        return ctx.availability.bookableDates(year, month, length, staffId);
      }
      const services = await ctx.availability.activeServices();
      if (services.length === 0) return [];
      const shortest = Math.min(...services.map((service) => service.duration_minutes));
      return ctx.availability.bookableDates(year, month, await ctx.availability.lengthOf(shortest, []), staffId);
    },
  });

  app.get('/api/availability/', {
    config: { auth: 'public' },
    schema: { querystring: availabilityQuerySchema, response: { 200: z.array(z.string()) } },
    handler: async (request) => {
      const { date, service_id: serviceId, staff_id: staffId, option_ids: optionIds } = request.query;
      await checkNominee(ctx, staffId);
      const { length } = await resolveMenuChoice(ctx.availability, {
        serviceId,
        optionIds,
        serviceField: 'service_id',
      });
      return ctx.availability.availableStarts(date, length, staffId);
    },
  });
}

/** A named staff member must be one customers can book; anyone else is a 400, not an empty answer. */
async function checkNominee(ctx: AppContext, staffId: number | undefined) {
  if (staffId === undefined) return;
  if (!(await ctx.availability.bookableStaff()).some((member) => member.id === staffId)) {
    throw badRequest(SERVER_MESSAGES.staffNotBookable, { staff_id: [SERVER_MESSAGES.staffNotBookable] });
  }
}
