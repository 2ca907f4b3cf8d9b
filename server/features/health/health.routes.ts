import fs from 'node:fs/promises';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AppContext } from '../../context';
import { healthProbe } from '../../db/schema';
import { isStorageFull } from '../../db/storage-full';
import type { ZodApp } from '../../zod-app';

/**
 * How long the database may take to answer. A monitor (systemd watchdog, load balancer, uptime service) must get an
 * answer while the database hangs, not an open connection it times out on by itself.
 */
const HEALTH_QUERY_TIMEOUT_MS = 5_000;

/** Why an instance is not healthy: the database does not answer, cannot write, or a disk is (nearly) full. */
const unhealthyCodes = ['database_unavailable', 'database_not_writable', 'disk_full'] as const;
type UnhealthyCode = (typeof unhealthyCodes)[number];

const healthySchema = z.object({ status: z.literal('ok') });
const unhealthySchema = z.object({
  status: z.literal('unavailable'),
  detail: z.string(),
  code: z.enum(unhealthyCodes),
});

/** Whose row of the scratch table this instance overwrites: one per host, so instances do not queue on one row. */
const PROBE_INSTANCE = os.hostname() || 'localhost';

/**
 * GET /api/health/: is this instance able to serve? The database must answer a trivial question and take a tiny
 * write (a scratch row overwritten: migration 0021), and the folders this instance writes (DATA_DIR, UPLOAD_DIR)
 * must have HEALTH_MIN_FREE_MB free: a full disk answered ok here while every booking failed. Public (monitors have
 * no token) and so it says nothing beyond ok / not ok and a reason code: no versions, engine, addresses or error
 * text. Never rate-limited: a load balancer polls it from one address every few seconds.
 */
export function registerHealthRoutes(app: ZodApp, ctx: AppContext) {
  const minFreeBytes = ctx.env.HEALTH_MIN_FREE_MB * 1024 * 1024;
  const folders = [...new Set([ctx.env.dataDir, ctx.env.uploadDir])];

  app.get('/api/health/', {
    config: { auth: 'public', rateLimit: false },
    schema: { response: { 200: healthySchema, 503: unhealthySchema } },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const problem = await checkHealth(ctx, folders, minFreeBytes);
      if (!problem) return { status: 'ok' as const };
      // The cause goes to the log (for the operator), never into the public answer.
      request.log.warn({ err: problem.error, code: problem.code }, 'health check failed');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({
          status: 'unavailable' as const,
          detail: problem.code === 'disk_full' ? SERVER_MESSAGES.storageFull : SERVER_MESSAGES.serviceUnavailable,
          code: problem.code,
        });
    },
  });
}

async function checkHealth(
  ctx: AppContext,
  folders: string[],
  minFreeBytes: number,
): Promise<{ code: UnhealthyCode; error: unknown } | null> {
  try {
    await withTimeout(ctx.db.execute(sql`select 1`), HEALTH_QUERY_TIMEOUT_MS);
  } catch (error) {
    return { code: 'database_unavailable', error };
  }
  try {
    const at = ctx.now();
    const write = ctx.db
      .insert(healthProbe)
      .values({ instance: PROBE_INSTANCE, checked_at: at })
      .onConflictDoUpdate({ target: healthProbe.instance, set: { checked_at: at } });
    await withTimeout(Promise.resolve(write), HEALTH_QUERY_TIMEOUT_MS);
  } catch (error) {
    return { code: isStorageFull(error) ? 'disk_full' : 'database_not_writable', error };
  }
  for (const folder of folders) {
    const free = await freeBytes(folder);
    if (free !== null && free < minFreeBytes) {
      return { code: 'disk_full', error: new Error(`${folder}: ${free} bytes free, below ${minFreeBytes}`) };
    }
  }
  return null;
}

/** Bytes an unprivileged process may still write on the folder's file system; null when it cannot be told. */
async function freeBytes(folder: string): Promise<number | null> {
  try {
    const stats = await fs.statfs(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return null; // not created yet (no upload so far): nothing to measure
  }
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
