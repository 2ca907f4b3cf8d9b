import { z } from 'zod';
import {
  configuredDatesQuerySchema,
  detailedTimeSlotsSchema,
  saveSlotsRequestSchema,
  slotSchema,
  detailedSlotsQuerySchema,
  slotsQuerySchema,
} from '#src/shared/schemas/booking';
import { canSeeAllBookings } from '#src/shared/roles';
import { slotExceptionQuerySchema } from '#src/shared/schemas/schedule';
import { slotGrid } from '#src/shared/slots';
import { addDaysToDate, localDateTimeToInstant, monthRange } from '#src/shared/time';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { changeSchedule } from './schedule-change';
import * as repo from './schedule.repository';
import { registerShiftRoutes } from './shifts.routes';
import { targetStaff } from './target-staff';
import { resolveMenuChoice } from '../../scheduling/menu';
import { loadWorkingCells } from '../../scheduling/working-time';
import { fittingStarts } from './fitting-starts';

/**
 * The schedule of each staff member (docs/architecture.md#booking-rules) as the day screens see it: the effective
 * working time of a day (template, closed days, holidays and the day set by hand), setting a day by hand (an
 * exception) and giving it back to the template. The weekly templates and holidays are in shifts.routes.ts.
 */
export function registerScheduleRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/admin/available-slots/', {
    config: { auth: 'staff' },
    schema: { querystring: slotsQuerySchema, response: { 200: z.array(slotSchema) } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.query.user_id, 'read');
      return slotList(ctx, staffId, request.query.date);
    },
  });

  // A day set by hand: its slots replace the template that day (none = a day off), unless that strands a booking.
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
      await changeSchedule(ctx, { staffIds: [staffId], dates: { from: date, to: date } }, (tx) =>
        repo.replaceStaffSlots(tx, { salonId: ctx.salonId, staffId, date, times: [...new Set(times)] }),
      );
      return slotList(ctx, staffId, date);
    },
  });

  // The day follows the template again (and the salon's closed days and holidays).
  app.delete('/api/admin/available-slots/', {
    config: { auth: 'staff' },
    schema: { querystring: slotExceptionQuerySchema, response: { 200: z.array(slotSchema) } },
    handler: async (request) => {
      const { date, user_id: userId } = request.query;
      const staffId = await targetStaff(ctx, staffOf(request), userId);
      await changeSchedule(ctx, { staffIds: [staffId], dates: { from: date, to: date } }, (tx) =>
        repo.removeException(tx, staffId, date),
      );
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
      // The owner or the front desk without user_id: the days anyone works.
      const staffIds = !canSeeAllBookings(staff.role)
        ? [staff.id]
        : userId === undefined
          ? await repo.listActiveStaffIds(ctx.db, ctx.salonId)
          : [userId];
      const cells = await workingCells(ctx, staffIds, first, last);
      return [...cells.keys()].sort();
    },
  });

  app.get('/api/admin/detailed-time-slots/', {
    config: { auth: 'staff' },
    schema: { querystring: detailedSlotsQuerySchema, response: { 200: detailedTimeSlotsSchema } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.query.user_id, 'read');
      const { date, service_id: serviceId, option_ids: optionIds } = request.query;
      // The length of the booking being made: a service off the menu is a 400 on service_id, as a booking is.
      const length =
        serviceId === undefined
          ? undefined
          : (await resolveMenuChoice(ctx.availability, { serviceId, optionIds, serviceField: 'service_id' })).length;
      const hours = await repo.findSalonHours(ctx.db, ctx.salonId);
      const midnight = localDateTimeToInstant(`${date}T00:00:00`, ctx.env.SALON_TZ);
      const nextMidnight = localDateTimeToInstant(`${addDaysToDate(date, 1)}T00:00:00`, ctx.env.SALON_TZ);
      const [cells, busy] = await Promise.all([
        workingCells(ctx, [staffId], date, date),
        repo.listStaffBusy(ctx.db, staffId, midnight, nextMidnight),
      ]);
      return fittingStarts({
        grid: slotGrid(hours.start, hours.end),
        openCells: cells.get(date)?.get(staffId) ?? [],
        busy: busy.map((b) => ({
          start: (b.start.getTime() - midnight.getTime()) / 60_000,
          end: (b.end.getTime() - midnight.getTime()) / 60_000,
        })),
        length,
      });
    },
  });

  registerShiftRoutes(app, ctx);
}

/** Who works when between two dates, under the salon's current closed weekdays. */
async function workingCells(ctx: AppContext, staffIds: readonly number[], from: string, to: string) {
  return loadWorkingCells(ctx.db, {
    salonId: ctx.salonId,
    from,
    to,
    staffIds,
    closedWeekdays: await repo.closedWeekdaysOf(ctx.db, ctx.salonId),
  });
}

/** The day's grid (business hours) with the cells the staff member works that day marked available. */
async function slotList(ctx: AppContext, staffId: number, date: string) {
  const [hours, cells] = await Promise.all([
    repo.findSalonHours(ctx.db, ctx.salonId),
    workingCells(ctx, [staffId], date, date),
  ]);
  const open = new Set(cells.get(date)?.get(staffId) ?? []);
  return slotGrid(hours.start, hours.end).map((time) => ({ time, is_available: open.has(time) }));
}
