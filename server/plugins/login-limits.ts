import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Database } from '../db/client';
import { rateLimitCounters } from '../db/schema';
import { ApiHttpError } from '../http-errors';
import { counterKey, pruneExpiredCounters, secondsUntil, throttled } from './rate-limit-counters';

/**
 * Limits on password login (POST /api/token/). Only failed attempts count: a successful login proves the
 * password, so it never brings anyone closer to a lockout. Three counters apply to an unknown device:
 *
 * - per address and login ID: `perAddressAndId` failures per window, then 429 until the window ends;
 * - per address over every login ID: `perAddress` failures per window (password spraying from one address);
 * - per login ID from anywhere: after `perIdFree` failures, each further attempt must wait twice as long as the
 *   one before (1 s, 2 s, 4 s ... up to `maxDelaySeconds`) since the last failure. Many addresses together are
 *   slowed to a crawl, yet the account is never locked: its owner gets in once the delay has passed.
 *
 * A device that has logged in to that login ID before (it holds a signed "known device" cookie from that login)
 * is counted on its own instead: `perAddressAndId` failures per window for that device, and none of the three
 * counters above. So an attacker hammering `admin`, even from the salon's own network, never keeps the owner out
 * of their usual tablet or phone. The cookie is worth nothing without a login that succeeded on that device.
 */
interface LoginLimits {
  perAddressAndId: number;
  perAddress: number;
  perIdFree: number;
  windowSeconds: number;
  maxDelaySeconds: number;
}

/** The limits the login rate settings give (LOGIN_RATE_LIMIT, LOGIN_RATE_WINDOW_SECONDS). */
export function loginLimitsFrom(env: { LOGIN_RATE_LIMIT: number; LOGIN_RATE_WINDOW_SECONDS: number }): LoginLimits {
  return {
    perAddressAndId: env.LOGIN_RATE_LIMIT,
    // A whole office or family behind one address mistypes a few passwords; spraying tries hundreds of IDs.
    perAddress: env.LOGIN_RATE_LIMIT * 3,
    // Twice the per-address budget: one address alone meets its own limit first.
    perIdFree: env.LOGIN_RATE_LIMIT * 2,
    windowSeconds: env.LOGIN_RATE_WINDOW_SECONDS,
    maxDelaySeconds: 5 * 60,
  };
}

/** How long a device stays known after its last successful login. */
const KNOWN_DEVICE_DAYS = 180;

type Counter = { key: string; kind: 'window'; limit: number } | { key: string; kind: 'delay' };

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;

export function createLoginLimiter(deps: {
  db: Database;
  now: () => Date;
  limits: LoginLimits;
  /** Signs the known-device cookies (derived from the JWT secret, so every instance accepts every cookie). */
  secret: string;
  /** Mark the cookie Secure (the app is served over HTTPS). */
  secureCookies: boolean;
}) {
  const { db, now, limits } = deps;
  const devices = createKnownDevices(deps);

  return {
    /**
     * Runs `login` within the limits for this request and login ID. A 401 from it stays counted as a failure;
     * a success takes the attempt back, clears the login ID's delay and remembers the device.
     */
    async attempt<T>(
      request: FastifyRequest,
      reply: FastifyReply,
      username: string,
      login: () => Promise<T>,
    ): Promise<T> {
      // Login IDs are matched without regard to letter case, so `Admin` and `admin` share their counters.
      const loginId = username.toLowerCase();
      const device = devices.knownDevice(request, loginId);
      const address = addressKey(request.ip);
      const deviceKey = device ? counterKey('login-device', `${device}|${loginId}`) : null;
      const pairKey = counterKey('login-pair', `${address}|${loginId}`);
      const addressCounter = counterKey('login-address', address);
      const idKey = counterKey('login-id', loginId);
      const counters: Counter[] = deviceKey
        ? [{ key: deviceKey, kind: 'window', limit: limits.perAddressAndId }]
        : [
            { key: pairKey, kind: 'window', limit: limits.perAddressAndId },
            { key: addressCounter, kind: 'window', limit: limits.perAddress },
            { key: idKey, kind: 'delay' },
          ];
      await countAttempt(db, now(), limits, counters);
      await pruneExpiredCounters(db, now());

      let result: T;
      try {
        result = await login();
      } catch (error) {
        const failedLogin = error instanceof ApiHttpError && error.statusCode === 401;
        // Anything else (the database went away) was not a guess: it must not count against the owner.
        if (!failedLogin)
          await settleCounters(
            db,
            counters.map((counter) => counter.key),
            'uncount',
          );
        throw error;
      }
      await settleCounters(db, [deviceKey ?? pairKey, idKey], 'clear');
      if (!deviceKey) await settleCounters(db, [addressCounter], 'uncount');
      devices.rememberDevice(reply, loginId);
      return result;
    },

    /**
     * Runs a customer's LINE login (POST /api/line/callback/) within `perAddressAndId` failures per window from
     * this address, counted before LINE's token endpoint is asked: a code is single-use and short-lived, so a run
     * of refused codes from one address is someone guessing (or replaying), and LINE should not hear of it. Only a
     * refusal (4xx) stays counted; a success, or LINE failing (5xx), takes the attempt back.
     */
    async attemptLineLogin<T>(request: FastifyRequest, login: () => Promise<T>): Promise<T> {
      const key = counterKey('line-login-address', addressKey(request.ip));
      await countAttempt(db, now(), limits, [{ key, kind: 'window', limit: limits.perAddressAndId }]);
      await pruneExpiredCounters(db, now());
      try {
        const result = await login();
        await settleCounters(db, [key], 'uncount');
        return result;
      } catch (error) {
        const refused = error instanceof ApiHttpError && error.statusCode >= 400 && error.statusCode < 500;
        if (!refused) await settleCounters(db, [key], 'uncount');
        throw error;
      }
    },
  };
}

/**
 * The signed "known device" cookie of each login ID: set after a successful login on a device, it gives that
 * device a counter of its own (see LoginLimits).
 */
function createKnownDevices(deps: { now: () => Date; secret: string; secureCookies: boolean }) {
  const { now } = deps;
  const cookieKey = createHmac('sha256', deps.secret).update('known-login-device').digest();

  const sign = (loginId: string, issuedAt: number) =>
    createHmac('sha256', cookieKey).update(`${loginId}|${issuedAt}`).digest('base64url');
  /** One cookie per login ID, so that staff sharing the front-desk tablet each keep theirs. */
  const cookieName = (loginId: string) =>
    `known_device_${createHash('sha256').update(loginId).digest('hex').slice(0, 16)}`;

  /** The device's identity when it holds a valid known-device cookie for this login ID, else null. */
  function knownDevice(request: FastifyRequest, loginId: string): string | null {
    const value = request.cookies?.[cookieName(loginId)];
    const match = value ? /^(\d{1,12})\.([\w-]{43})$/.exec(value) : null;
    if (!match) return null;
    const issuedAt = Number(match[1]);
    const ageSeconds = now().getTime() / 1000 - issuedAt;
    if (ageSeconds < -60 || ageSeconds > KNOWN_DEVICE_DAYS * 86_400) return null;
    const expected = Buffer.from(sign(loginId, issuedAt));
    const given = Buffer.from(match[2]!);
    return given.length === expected.length && timingSafeEqual(given, expected) ? value! : null;
  }

  function rememberDevice(reply: FastifyReply, loginId: string) {
    const issuedAt = Math.floor(now().getTime() / 1000);
    reply.setCookie(cookieName(loginId), `${issuedAt}.${sign(loginId, issuedAt)}`, {
      path: '/api/token/',
      httpOnly: true,
      sameSite: 'strict',
      secure: deps.secureCookies,
      maxAge: KNOWN_DEVICE_DAYS * 86_400,
    });
  }

  return { knownDevice, rememberDevice };
}

type CounterRow = typeof rateLimitCounters.$inferSelect;
type CounterUpdate = { key: string; count: number; last_at: Date; expires_at: Date };

/**
 * Counts the attempt on every counter that applies, or refuses it with 429 (and counts nothing) when any of
 * them is used up. One transaction with the rows locked: parallel attempts are counted one after another, so a
 * burst cannot slip past the limit while the slow password check runs.
 */
async function countAttempt(db: Database, at: Date, limits: LoginLimits, counters: Counter[]) {
  await db.transaction(async (tx) => {
    const rows: CounterRow[] = [];
    // Each row is created if missing and locked in one statement, in key order: every attempt takes its locks in
    // the same order, so attempts sharing an address or a login ID wait for each other but never deadlock.
    // A new counter starts out expired, which reads as zero below.
    for (const key of counters.map((counter) => counter.key).sort()) {
      const [row] = await tx
        .insert(rateLimitCounters)
        .values({ key, count: 0, last_at: at, expires_at: at })
        .onConflictDoUpdate({ target: rateLimitCounters.key, set: { count: sql`${rateLimitCounters.count}` } })
        .returning();
      rows.push(row!);
    }
    let retryAfter = 0;
    const updates: CounterUpdate[] = [];
    for (const counter of counters) {
      const row = rows.find((candidate) => candidate.key === counter.key)!;
      const next = nextCount(counter, row, at, limits);
      retryAfter = Math.max(retryAfter, next.retryAfter);
      updates.push(next.update);
    }
    if (retryAfter > 0) throw throttled(SERVER_MESSAGES.tooManyLoginAttempts, retryAfter);
    for (const update of updates) {
      await tx
        .update(rateLimitCounters)
        .set(update)
        .where(sql`${rateLimitCounters.key} = ${update.key}`);
    }
  });
}

/** One counter after this attempt, and how long the attempt must wait first (0: it may go ahead). */
function nextCount(
  counter: Counter,
  row: CounterRow,
  at: Date,
  limits: LoginLimits,
): { retryAfter: number; update: CounterUpdate } {
  const windowMs = limits.windowSeconds * 1000;
  const fresh = row.expires_at <= at;
  const current = fresh ? 0 : row.count;
  let retryAfter = 0;
  if (counter.kind === 'window') {
    if (current >= counter.limit) retryAfter = secondsUntil(row.expires_at, at);
    const expires_at = fresh ? new Date(at.getTime() + windowMs) : row.expires_at;
    return { retryAfter, update: { key: row.key, count: current + 1, last_at: at, expires_at } };
  }
  if (current >= limits.perIdFree) {
    const delaySeconds = Math.min(limits.maxDelaySeconds, 2 ** (current - limits.perIdFree));
    const allowedAt = new Date(row.last_at.getTime() + delaySeconds * 1000);
    if (at < allowedAt) retryAfter = secondsUntil(allowedAt, at);
  }
  // The delay counter forgets only after a whole window without failures: a steady attacker stays slowed.
  const expires_at = new Date(at.getTime() + windowMs);
  return { retryAfter, update: { key: row.key, count: current + 1, last_at: at, expires_at } };
}

/**
 * Takes attempts back (`clear`: forgets the counters), one row per statement: a statement never holds one
 * counter while waiting for another, so it cannot deadlock with an attempt being counted. A failure here is
 * ignored: the login has already been decided, and a counter left a little high only errs on the safe side.
 */
async function settleCounters(db: Database, keys: string[], how: 'uncount' | 'clear') {
  try {
    for (const key of keys) {
      const where = sql`${rateLimitCounters.key} = ${key}`;
      if (how === 'clear') await db.delete(rateLimitCounters).where(where);
      else
        await db
          .update(rateLimitCounters)
          .set({ count: sql`greatest(${rateLimitCounters.count} - 1, 0)` })
          .where(where);
    }
  } catch {
    // see above
  }
}

/**
 * The address a limit counts: IPv4 as is, IPv6 by its /64 (one home or phone usually holds a whole /64, and
 * could otherwise take a fresh address for every attempt).
 */
function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const groups = expandIpv6(ip.split('%')[0]!);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

/** The eight 16-bit groups of an IPv6 address (lower-case, without leading zeros), or null when it is not one. */
function expandIpv6(ip: string): string[] | null {
  const halves = ip.toLowerCase().split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 and the like) is two groups.
  const last = (halves.length === 2 ? tail : head).at(-1);
  if (last?.includes('.')) {
    const octets = last.split('.').map(Number);
    const list = halves.length === 2 ? tail : head;
    list.splice(-1, 1, ((octets[0]! << 8) | octets[1]!).toString(16), ((octets[2]! << 8) | octets[3]!).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => '0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16).toString(16));
}
