import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import type { AppContext } from '../../context';
import type { ZodApp } from '../../zod-app';

/**
 * How long the database may take to answer `select 1`. A monitor (systemd watchdog, load balancer, uptime
 * service) must get an answer while the database hangs, not an open connection it times out on by itself.
 */
const HEALTH_QUERY_TIMEOUT_MS = 5_000;

const healthySchema = z.object({ status: z.literal('ok') });
const unhealthySchema = z.object({
  status: z.literal('unavailable'),
  detail: z.string(),
  code: z.literal('database_unavailable'),
});

/**
 * GET /api/health/: is this instance able to serve? It asks the database a trivial question. Public (monitors
 * have no token) and so it says nothing beyond ok / not ok: no versions, engine, addresses or error text.
 * Never rate-limited: a load balancer polls it from one address every few seconds.
 */
export function registerHealthRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/health/', {
    config: { auth: 'public', rateLimit: false },
    schema: { response: { 200: healthySchema, 503: unhealthySchema } },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await withTimeout(ctx.db.execute(sql`select 1`), HEALTH_QUERY_TIMEOUT_MS);
        return { status: 'ok' as const };
      } catch (error) {
        // The cause goes to the log (for the operator), never into the public answer.
        request.log.warn({ err: error }, 'health check: the database did not answer');
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({
            status: 'unavailable' as const,
            detail: MESSAGES.serviceUnavailable,
            code: 'database_unavailable' as const,
          });
      }
    },
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // A query that settles after the timeout must not become an unhandled rejection.
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
