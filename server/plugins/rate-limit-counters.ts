import { createHash } from 'node:crypto';
import { inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rateLimitCounters } from '../db/schema';
import { ApiHttpError } from '../http-errors';

/**
 * Counters for the abuse limits live in the database, not in the process: several instances serve one salon
 * behind a load balancer, and in-memory counters would give an attacker one full budget per instance (and a
 * fresh one at every restart).
 */

/** `<scope>:<sha-256 of the subject>`: the table never holds a login ID or an address as typed. */
export function counterKey(scope: string, subject: string): string {
  return `${scope}:${createHash('sha256').update(subject).digest('hex')}`;
}

/** Whole seconds until `until`, at least 1: the Retry-After value of a 429. */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

export function throttled(detail: string, retryAfterSeconds: number): ApiHttpError {
  return new ApiHttpError(429, 'throttled', detail, undefined, { 'retry-after': String(retryAfterSeconds) });
}

/**
 * Counts one attempt against `limit` per fixed window, in one statement (so parallel requests cannot all slip
 * under the limit): the first attempt after the window ends starts a new one. Returns null when counted, or the
 * seconds until the window ends when the limit is already reached (that attempt is not counted). A customer's
 * booking counts by the same rule inside its own transaction, in book_reservation()
 * (server/db/migrations/0025_book_reservation.sql): change one, change both.
 */
export async function countInWindow(
  db: Executor,
  input: { key: string; limit: number; windowMs: number; now: Date },
): Promise<number | null> {
  const { key, limit, windowMs, now } = input;
  const windowEnd = new Date(now.getTime() + windowMs);
  const expired = sql`${rateLimitCounters.expires_at} <= ${now}`;
  const [counted] = await db
    .insert(rateLimitCounters)
    .values({ key, count: 1, last_at: now, expires_at: windowEnd })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimitCounters.count} + 1 end`,
        expires_at: sql`case when ${expired} then ${windowEnd}::timestamptz else ${rateLimitCounters.expires_at} end`,
        last_at: now,
      },
      setWhere: sql`${expired} or ${rateLimitCounters.count} < ${limit}`,
    })
    .returning({ count: rateLimitCounters.count });
  if (counted) return null;
  const [row] = await db
    .select({ expires_at: rateLimitCounters.expires_at })
    .from(rateLimitCounters)
    .where(sql`${rateLimitCounters.key} = ${key}`);
  return secondsUntil(row?.expires_at ?? windowEnd, now);
}

/**
 * Now and then (1 request in 100), rows whose window has ended are deleted: they limit nothing any more. Rows an
 * attempt is counting right now are skipped (SKIP LOCKED), so the clean-up never waits for or deadlocks with it.
 */
export async function pruneExpiredCounters(db: Executor, now: Date): Promise<void> {
  if (Math.random() >= 0.01) return;
  const expired = db
    .select({ key: rateLimitCounters.key })
    .from(rateLimitCounters)
    .where(lt(rateLimitCounters.expires_at, now))
    .limit(1000)
    .for('update', { skipLocked: true });
  await db.delete(rateLimitCounters).where(inArray(rateLimitCounters.key, expired));
}
