import { z } from 'zod';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { configuredDatesQuerySchema } from '#src/shared/schemas/booking';
import {
  createHolidayRequestSchema,
  holidayParamsSchema,
  holidaySchema,
  holidaysQuerySchema,
  saveShiftTemplateRequestSchema,
  scheduleDaySchema,
  shiftTemplateQuerySchema,
  shiftTemplateSchema,
} from '#src/shared/schemas/schedule';
import { monthRange } from '#src/shared/time';
import type { AppContext } from '../../context';
import { notFound } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { changeSchedule } from './schedule-change';
import * as repo from './schedule.repository';
import { targetStaff } from './target-staff';
import { loadScheduleDays } from '../../scheduling/working-time';

/**
 * Weekly shift templates, salon holidays and the month calendar of where each day's working time comes from
 * (docs/architecture.md#booking-rules). Every change goes through changeSchedule: it never strands a booking.
 */
export function registerShiftRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/admin/shifts/', {
    config: { auth: 'staff' },
    schema: { querystring: shiftTemplateQuerySchema, response: { 200: shiftTemplateSchema } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.query.user_id, 'read');
      return { user_id: staffId, days: await repo.listShiftTemplate(ctx.db, staffId) };
    },
  });

  app.put('/api/admin/shifts/', {
    config: { auth: 'staff' },
    schema: { body: saveShiftTemplateRequestSchema, response: { 200: shiftTemplateSchema } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.body.user_id);
      const days = [...request.body.days].sort((a, b) => a.weekday - b.weekday);
      // Every weekday of every future week may change: all of the staff member's upcoming bookings are checked.
      const saved = await changeSchedule(ctx, { staffIds: [staffId] }, async (tx) => {
        await repo.replaceShiftTemplate(tx, { salonId: ctx.salonId, staffId, days });
        return repo.listShiftTemplate(tx, staffId);
      });
      return { user_id: staffId, days: saved };
    },
  });

  app.get('/api/admin/holidays/', {
    config: { auth: 'staff' },
    schema: { querystring: holidaysQuerySchema, response: { 200: z.array(holidaySchema) } },
    handler: async (request) => {
      const { first, last } = monthRange(request.query.year, request.query.month);
      return repo.listHolidays(ctx.db, ctx.salonId, first, last);
    },
  });

  app.post('/api/admin/holidays/', {
    config: { auth: 'superuser' },
    schema: { body: createHolidayRequestSchema, response: { 201: holidaySchema } },
    handler: async (request, reply) => {
      const { date, note } = request.body;
      const holiday = await changeSchedule(ctx, { staffIds: 'salon', dates: { from: date, to: date } }, (tx) =>
        repo.upsertHoliday(tx, { salonId: ctx.salonId, date, note }),
      );
      return reply.code(201).send(holiday);
    },
  });

  // Removing a holiday only gives days back; it still raises the versions, as every schedule change does.
  app.delete('/api/admin/holidays/:date/', {
    config: { auth: 'superuser' },
    schema: { params: holidayParamsSchema },
    handler: async (request, reply) => {
      const { date } = request.params;
      await changeSchedule(ctx, { staffIds: 'salon', dates: { from: date, to: date } }, async (tx) => {
        if (!(await repo.deleteHoliday(tx, ctx.salonId, date))) throw notFound(SERVER_MESSAGES.holidayNotFound);
      });
      return reply.code(204).send();
    },
  });

  // One loadScheduleDays call for the month: the same inputs and rule as availability.
  app.get('/api/admin/schedule-days/', {
    config: { auth: 'staff' },
    schema: { querystring: configuredDatesQuerySchema, response: { 200: z.array(scheduleDaySchema) } },
    handler: async (request) => {
      const staffId = await targetStaff(ctx, staffOf(request), request.query.user_id, 'read');
      const { first, last } = monthRange(request.query.year, request.query.month);
      return loadScheduleDays(ctx.db, {
        salonId: ctx.salonId,
        from: first,
        to: last,
        staffId,
        closedWeekdays: await repo.closedWeekdaysOf(ctx.db, ctx.salonId),
      });
    },
  });
}
