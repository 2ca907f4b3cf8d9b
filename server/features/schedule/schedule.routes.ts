import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import {
  configuredDatesQuerySchema,
  detailedTimeSlotsSchema,
  saveSlotsRequestSchema,
  slotSchema,
  slotsQuerySchema,
} from '#src/shared/schemas/booking';
import { coveredGridTimes, slotGrid, timeToMinutes } from '#src/shared/slots';
import { addDaysToDate, localDateTimeToInstant, monthRange } from '#src/shared/time';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import { staffOf, type StaffPrincipal } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import * as repo from './schedule.repository';

/** Whose schedule: a superuser may name another staff member; anyone else always gets their own. */
async function targetStaff(ctx: AppContext, staff: StaffPrincipal, userId: number | undefined): Promise<number> {
  if (!staff.isSuperuser || userId === undefined || userId === staff.id) return staff.id;
  if (!(await repo.isActiveStaff(ctx.db, ctx.salonId, userId))) {
    throw badRequest(MESSAGES.staffNotFound, { user_id: [MESSAGES.staffNotFound] });
  }
  return userId;
}

/** Opening slots per staff member (docs/architecture.md) and the views of them the admin screens need. */
export function registerScheduleRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/admin/available-slots/', {
    config: { auth: 'staff' },
    schema: { querystring: slotsQuerySchema, response: { 200: z.array(slotSchema) } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.query.user_id);
      return slotList(ctx, staffId, request.query.date);
    },
  });

  app.post('/api/admin/available-slots/', {
    config: { auth: 'staff' },
    schema: { body: saveSlotsRequestSchema, response: { 200: z.array(slotSchema) } },
    handler: async (request) => {
      const { date, times, user_id: userId } = request.body;
      const staffId = await targetStaff(ctx, staffOf(request), userId);
      const hours = await repo.findSalonHours(ctx.db, ctx.salonId);
      const grid = new Set(slotGrid(hours.start, hours.end));
      const invalid = times.filter((time) => !grid.has(time));
      if (invalid.length > 0) {
        const message = `${hours.start}〜${hours.end}の30分単位で指定してください: ${invalid.join(', ')}`;
        throw badRequest(message, { times: [message] });
      }
      await repo.replaceStaffSlots(ctx.db, { salonId: ctx.salonId, staffId, date, times: [...new Set(times)] });
      return slotList(ctx, staffId, date);
    },
  });

  app.get('/api/admin/configured-dates/', {
    config: { auth: 'staff' },
    schema: { querystring: configuredDatesQuerySchema, response: { 200: z.array(z.string()) } },
    handler: async (request) => {
      const staff = staffOf(request);
      const { year, month, user_id: userId } = request.query;
      const { first, last } = monthRange(year, month);
      // Superuser without user_id: any staff member's configured days.
      const staffId = staff.isSuperuser ? userId : staff.id;
      return repo.listConfiguredDates(ctx.db, ctx.salonId, first, last, staffId);
    },
  });

  app.get('/api/admin/detailed-time-slots/', {
    config: { auth: 'staff' },
    schema: { querystring: slotsQuerySchema, response: { 200: detailedTimeSlotsSchema } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.query.user_id);
      const { date } = request.query;
      const hours = await repo.findSalonHours(ctx.db, ctx.salonId);
      const grid = slotGrid(hours.start, hours.end);
      const midnight = localDateTimeToInstant(`${date}T00:00:00`, ctx.env.SALON_TZ);
      const nextMidnight = localDateTimeToInstant(`${addDaysToDate(date, 1)}T00:00:00`, ctx.env.SALON_TZ);
      const [open, busy] = await Promise.all([
        repo.listStaffSlots(ctx.db, staffId, date),
        repo.listStaffBusy(ctx.db, staffId, midnight, nextMidnight),
      ]);
      const intervals = busy.map((b) => ({
        start: (b.start.getTime() - midnight.getTime()) / 60_000,
        end: (b.end.getTime() - midnight.getTime()) / 60_000,
      }));
      const booked = new Set(coveredGridTimes(grid, intervals));
      const openSet = new Set(open);
      const byTime = (a: string, b: string) => timeToMinutes(a) - timeToMinutes(b);
      return {
        available_times: grid.filter((time) => openSet.has(time) && !booked.has(time)).sort(byTime),
        outside_business_hours: grid.filter((time) => !openSet.has(time) && !booked.has(time)).sort(byTime),
        booked_times: [...booked].sort(byTime),
      };
    },
  });
}

async function slotList(ctx: AppContext, staffId: number, date: string) {
  const hours = await repo.findSalonHours(ctx.db, ctx.salonId);
  const open = new Set(await repo.listStaffSlots(ctx.db, staffId, date));
  return slotGrid(hours.start, hours.end).map((time) => ({ time, is_available: open.has(time) }));
}
