import { z } from 'zod';
import { calendarFeedRequestSchema, calendarFeedSchema } from '#src/shared/schemas/auth';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AppContext } from '../../context';
import { ApiHttpError, notFound } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';

/** Calendar apps fetch a feed every few minutes to hours; this leaves room for many staff behind one address. */
const FEED_REQUESTS_PER_MINUTE = 120;

export function registerCalendarFeedRoutes(app: ZodApp, ctx: AppContext) {
  // The URL is a secret, so its answer is never kept for an Idempotency-Key replay (server/plugins/idempotency.ts).
  app.post('/api/admin/me/calendar-feed/', {
    config: { auth: 'staff', idempotency: false },
    schema: { body: calendarFeedRequestSchema, response: { 200: calendarFeedSchema } },
    handler: (request) =>
      ctx.calendarFeed.regenerate(staffOf(request).id, { includePhone: request.body?.include_phone }),
  });

  // Public: calendar apps send no credentials, the token in the path is the only secret. A wrong or replaced token
  // is a plain 404, the same as a path that never existed.
  app.get('/api/calendar/:token.ics', {
    config: {
      auth: 'public',
      rateLimit: {
        max: FEED_REQUESTS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => `calendar|${request.ip}`,
        errorResponseBuilder: () => new ApiHttpError(429, 'throttled', SERVER_MESSAGES.tooManyRequests),
      },
    },
    schema: { params: z.object({ token: z.string().max(64) }) },
    handler: async (request, reply) => {
      const body = await ctx.calendarFeed.render(request.params.token);
      if (body === null) throw notFound();
      return (
        reply
          .type('text/calendar; charset=utf-8')
          .header('content-disposition', 'inline; filename="calendar.ics"')
          // Personal data behind a secret URL: no shared cache may keep it.
          .header('cache-control', 'private, no-cache')
          .send(body)
      );
    },
  });
}
