import { statisticsSchema } from '#src/shared/schemas/statistics';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../zod-app';
import { createStatisticsService } from './statistics.service';

/** Statistics are the superuser's (docs/architecture.md): ordinary staff get 403. */
export function registerStatisticsRoutes(app: ZodApp, ctx: AppContext) {
  const statistics = createStatisticsService({
    db: ctx.db,
    salonId: ctx.salonId,
    timeZone: ctx.env.SALON_TZ,
    now: ctx.now,
  });

  app.get('/api/statistics/', {
    config: { auth: 'superuser' },
    schema: { response: { 200: statisticsSchema } },
    handler: () => statistics.summary(),
  });
}
