import { z } from 'zod';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import {
  closingSchema,
  createClosingRequestSchema,
  dateRangeQuerySchema,
  salesQuerySchema,
  salesRowSchema,
  salesSummarySchema,
} from '#src/shared/schemas/register';
import { addDaysToDate } from '#src/shared/time';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import * as repo from './checkouts.repository';
import { checkoutsCsv } from './checkouts-csv';
import { closeRegisterUseCase, presentClosing } from './close-register';
import { salesRows } from './sales-report';
import { salesSummary } from './sales-summary';

/** The longest period the closings, the sales and the CSV read at once. */
const MAX_RANGE_DAYS = 366;

/** A period of days, both ends included, in order and at most a year (400 otherwise). */
function checkedRange(query: { from: string; to: string }) {
  if (query.from > query.to || addDaysToDate(query.from, MAX_RANGE_DAYS - 1) < query.to) {
    throw badRequest(REGISTER_MESSAGES.dateRangeInvalid, { to: [REGISTER_MESSAGES.dateRangeInvalid] });
  }
  return query;
}

/** レジ締め, the takings (売上) and the accountant's CSV: superuser only (docs/architecture.md#register-会計). */
export function registerClosingAndSalesRoutes(app: ZodApp, ctx: AppContext) {
  const timeZone = ctx.env.SALON_TZ;
  const closeRegister = closeRegisterUseCase(ctx);

  app.post('/api/admin/register-closings/', {
    config: { auth: 'superuser' },
    schema: { body: createClosingRequestSchema, response: { 201: closingSchema } },
    handler: async (request, reply) => reply.code(201).send(await closeRegister(staffOf(request), request.body)),
  });

  app.get('/api/admin/register-closings/', {
    config: { auth: 'superuser' },
    schema: { querystring: dateRangeQuerySchema, response: { 200: z.array(closingSchema) } },
    handler: async (request) => {
      const rows = await repo.listClosings(ctx.db, { salonId: ctx.salonId, ...checkedRange(request.query) });
      return rows.map((row) => presentClosing(row, timeZone));
    },
  });

  app.get('/api/admin/sales/', {
    config: { auth: 'superuser' },
    schema: { querystring: salesQuerySchema, response: { 200: z.array(salesRowSchema) } },
    handler: async (request) => {
      const period = { salonId: ctx.salonId, ...checkedRange(request.query) };
      const [checkouts, corrections, names] = await Promise.all([
        repo.listCheckouts(ctx.db, period),
        repo.correctionsOnDays(ctx.db, period),
        repo.staffNames(ctx.db, ctx.salonId),
      ]);
      return salesRows(request.query.group, checkouts, corrections, names);
    },
  });

  app.get('/api/admin/sales/summary/', {
    config: { auth: 'superuser' },
    schema: { querystring: dateRangeQuerySchema, response: { 200: salesSummarySchema } },
    handler: async (request) => {
      const period = { salonId: ctx.salonId, ...checkedRange(request.query) };
      const [checkouts, corrections] = await Promise.all([
        repo.listCheckouts(ctx.db, period),
        repo.correctionsOnDays(ctx.db, period),
      ]);
      const customerIds = [...new Set(checkouts.flatMap((row) => (row.customer_id === null ? [] : [row.customer_id])))];
      const voided = await repo.correctionsOf(
        ctx.db,
        checkouts.map((row) => row.id),
      );
      const takings = salesRows('day', checkouts, corrections, new Map()).reduce((sum, row) => sum + row.total, 0);
      return salesSummary({
        checkouts,
        voidedIds: new Set(voided.filter((row) => row.kind === 'void').map((row) => row.checkout_id)),
        takings,
        history: await repo.customerVisits(ctx.db, ctx.salonId, customerIds),
      });
    },
  });

  app.get('/api/admin/checkouts.csv', {
    config: { auth: 'superuser' },
    schema: { querystring: dateRangeQuerySchema },
    handler: async (request, reply) => {
      const period = { salonId: ctx.salonId, ...checkedRange(request.query) };
      const [checkouts, corrections, names] = await Promise.all([
        repo.listCheckouts(ctx.db, period),
        repo.correctionsOnDays(ctx.db, period),
        repo.staffNames(ctx.db, ctx.salonId),
      ]);
      const name = `checkouts-${period.from}-${period.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(checkoutsCsv(checkouts, corrections, names, timeZone));
    },
  });
}
