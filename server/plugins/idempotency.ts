import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Database } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { ApiHttpError, badRequest } from '../http-errors';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { caller: string; key: string } | null;
  }
  interface FastifyContextConfig {
    /**
     * false: the route ignores Idempotency-Key. For logins and refreshes, whose answers are tokens: a stored answer
     * would hand the same tokens out again to whoever repeats the request, even after a password change, and a
     * repeat is safe anyway (a new login, or the same successor within the refresh grace window).
     */
    idempotency?: false;
  }
}

/** A request still "in flight" after this long was abandoned (the process died): a repeat may take it over. */
const ABANDONED_AFTER_MS = 60_000;
/** Keys are kept a day: long enough for any offline outbox replay, short enough to keep the table small. */
const KEEP_MS = 24 * 60 * 60_000;

/**
 * `Idempotency-Key` on POST and PATCH (docs/architecture.md#offline-design): the first request with a key runs and its answer is
 * stored; a repeat with the same body gets the stored answer; the same key with another body is 422; a
 * repeat while the first is still running is 409. Keys belong to a caller, so two callers never collide.
 * A 5xx is not stored: the client may try again with the same key. Nor is an answer that is not JSON.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance, options: { db: Database; now: () => Date }) => {
  const { db, now } = options;
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return;
    const key = request.headers['idempotency-key'];
    if (key === undefined || request.routeOptions.config.idempotency === false) return;
    if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw badRequest('Idempotency-Keyの形式が正しくありません。', undefined, 'invalid_idempotency_key');
    }
    // A multipart body (an upload) is read by its handler as a stream, after this hook: there is nothing to hash
    // here, and a key whose repeat could not be told apart from a different upload would replay the wrong answer.
    if (
      String(request.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith('multipart/')
    ) {
      throw badRequest(SERVER_MESSAGES.idempotencyNotForUploads, undefined, 'idempotency_not_supported');
    }
    const caller = callerOf(request);
    const bodyHash = hashRequest(request);
    const path = request.url.split('?')[0]!;

    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ caller, key, method: request.method, path, body_hash: bodyHash, state: 'in_flight', created_at: now() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted) {
      request.idempotency = { caller, key };
      if (Math.random() < 0.01)
        await db.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, new Date(now().getTime() - KEEP_MS)));
      return;
    }

    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key)));
    if (!existing) throw new ApiHttpError(409, 'idempotency_in_flight', SERVER_MESSAGES.idempotencyInFlight);
    if (existing.body_hash !== bodyHash || existing.path !== path || existing.method !== request.method) {
      throw new ApiHttpError(422, 'idempotency_key_reused', SERVER_MESSAGES.idempotencyKeyReused);
    }
    if (existing.state === 'in_flight') {
      const abandoned = existing.created_at.getTime() < now().getTime() - ABANDONED_AFTER_MS;
      // Compare-and-swap on created_at: of several repeats of an abandoned request, one takes it over.
      const [takenOver] = abandoned
        ? await db
            .update(idempotencyKeys)
            .set({ created_at: now() })
            .where(
              and(
                eq(idempotencyKeys.caller, caller),
                eq(idempotencyKeys.key, key),
                eq(idempotencyKeys.state, 'in_flight'),
                eq(idempotencyKeys.created_at, existing.created_at),
              ),
            )
            .returning({ key: idempotencyKeys.key })
        : [];
      if (!takenOver) throw new ApiHttpError(409, 'idempotency_in_flight', SERVER_MESSAGES.idempotencyInFlight);
      request.idempotency = { caller, key };
      return;
    }
    reply.header('idempotent-replayed', 'true');
    return reply.code(existing.response_status ?? 200).send(existing.response_body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const record = request.idempotency;
    if (!record) return payload;
    request.idempotency = null;
    const where = and(eq(idempotencyKeys.caller, record.caller), eq(idempotencyKeys.key, record.key));
    // Only a JSON answer can be stored and replayed as it was (the table keeps a status and a JSON body): an HTML
    // page or a redirect from a dev form would come back as text without its type or Location. Those, like a
    // 5xx, are forgotten, and a repeat runs again.
    const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
    let body: unknown = null;
    if (typeof payload === 'string' && payload.length > 0) {
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
    }
    // Tokens are never stored, whatever the route says (see `idempotency: false` above).
    // A 429 (a rate limit) says "later", like a 5xx: stored, it would refuse the same request again after the wait.
    if (reply.statusCode >= 500 || reply.statusCode === 429 || !json || carriesTokens(body)) {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    await db
      .update(idempotencyKeys)
      .set({ state: 'done', response_status: reply.statusCode, response_body: sql`${JSON.stringify(body)}::jsonb` })
      .where(where);
    return payload;
  });
});

/**
 * The request's Idempotency-Key with its caller (`customer:12 <key>`), for a handler that records it with what it
 * creates; undefined without a key.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  return request.idempotency ? `${request.idempotency.caller} ${request.idempotency.key}` : undefined;
}

/** A login's or a refresh's answer: a token pair. */
function carriesTokens(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('access' in body || 'refresh' in body);
}

function callerOf(request: FastifyRequest): string {
  if (request.staff) return `staff:${request.staff.id}`;
  if (request.customer) return `customer:${request.customer.id}`;
  return `anonymous:${request.ip}`;
}

/** Method, path and a canonical JSON of the body: key order does not make two bodies different. */
function hashRequest(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url.split('?')[0]}\n${canonicalJson(request.body ?? null)}`)
    .digest('hex');
}

/**
 * Iterative, not recursive: a body of arrays nested a few thousand deep (well inside the 1 MB limit) overflowed
 * the stack of the recursive version and turned the request into a 500 (found by the hostile-input suite).
 * The text is the same as before, so keys stored before this change still match their repeats.
 */
function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Text to emit as is, or a value still to serialize; popped from the end.
  const stack: Array<{ text: string } | { value: unknown }> = [{ value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    const current = item.value;
    if (Array.isArray(current)) {
      out.push('[');
      stack.push({ text: ']' });
      for (let i = current.length - 1; i >= 0; i -= 1) {
        stack.push({ value: current[i] });
        if (i > 0) stack.push({ text: ',' });
      }
    } else if (current && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      out.push('{');
      stack.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        stack.push({ value: entries[i]![1] });
        stack.push({ text: `${JSON.stringify(entries[i]![0])}:` });
        if (i > 0) stack.push({ text: ',' });
      }
    } else {
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}
