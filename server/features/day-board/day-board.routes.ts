import { dayBoardQuerySchema, dayBoardSchema } from '#src/shared/schemas/day-board';
import type { AppContext } from '../../context';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { loadDayBoard } from './day-board.service';

/** The front desk's day board (day-board.service.ts): any staff member, each seeing what their role reaches. */
export function registerDayBoardRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/admin/day-board/', {
    config: { auth: 'staff' },
    schema: { querystring: dayBoardQuerySchema, response: { 200: dayBoardSchema } },
    handler: (request) => loadDayBoard(ctx, staffOf(request), request.query.date),
  });
}
