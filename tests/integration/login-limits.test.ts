import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { startTestApp, type ApiResult, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createStaff } from '../helpers/factories';

const THROTTLED = { detail: SERVER_MESSAGES.tooManyLoginAttempts, code: 'throttled' };
const PASSWORD = 'staff-password-4567';

/**
 * The password login limits (server/plugins/login-limits.ts) with LOGIN_RATE_LIMIT=3: 3 failures per address
 * and login ID, 9 per address, and after 6 per login ID a delay of 1 s, 2 s, 4 s ... for unknown devices. The
 * app stands behind one proxy (TRUST_PROXY=true): the client's address is the last X-Forwarded-For entry, the
 * one that proxy appended; anything before it is whatever the client sent.
 */
describe(`password login limits on ${testEngine}`, () => {
  let t: TestApp;
  /** How far the server's clock runs ahead of the real one (to wait out a delay without sleeping). */
  let clockAhead = 0;

  beforeAll(async () => {
    t = await startTestApp({
      env: { LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW_SECONDS: '600', TRUST_PROXY: 'true' },
      now: () => new Date(Date.now() + clockAhead),
    });
    for (const username of ['forged', 'sato', 'owner', 'newdevice', 'tablet']) {
      await createStaff(t.database.db, t.salonId, { username, password: PASSWORD });
    }
  });
  afterAll(() => t?.close());

  /** A login through the proxy from `address`; `forged` is what the client itself put in X-Forwarded-For. */
  function loginFrom(
    address: string,
    username: string,
    password: string,
    extra: { forged?: string; cookie?: string } = {},
  ) {
    const headers: Record<string, string> = {
      'x-forwarded-for': extra.forged ? `${extra.forged}, ${address}` : address,
    };
    if (extra.cookie) headers.cookie = extra.cookie;
    return t.api('/api/token/', { method: 'POST', json: { username, password }, headers });
  }

  /** The known-device cookie a successful login sets, as a Cookie header value. */
  function deviceCookie(result: ApiResult): string {
    const cookie = result.headers.getSetCookie().find((value) => value.startsWith('known_device_'));
    if (!cookie) throw new Error(`no known-device cookie in ${JSON.stringify(result.headers.getSetCookie())}`);
    return cookie.split(';')[0]!;
  }

  function expectThrottled(result: ApiResult, maxRetryAfter: number) {
    expect(result.status, result.text).toBe(429);
    expect(result.body).toEqual(THROTTLED);
    const retryAfter = Number(result.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
    return retryAfter;
  }

  it('takes the address from the one trusted proxy hop: a forged X-Forwarded-For does not dodge the limit', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await loginFrom('198.51.100.1', 'forged', 'wrong-password', { forged: `203.0.113.${attempt}` });
      expect(result.status, `attempt ${attempt}`).toBe(401);
    }
    expectThrottled(await loginFrom('198.51.100.1', 'forged', 'wrong-password', { forged: '203.0.113.99' }), 600);
    expectThrottled(await loginFrom('198.51.100.1', 'forged', PASSWORD, { forged: '192.0.2.200' }), 600);
    // Another client of the same proxy is another address: not held up by this one's failures.
    expect((await loginFrom('198.51.100.2', 'forged', PASSWORD)).status).toBe(200);
  });

  it('does not count successful logins, and a success clears the failures before it', async () => {
    // More successes than every limit allows failures (3 per address and ID, 9 per address).
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await loginFrom('198.51.100.10', 'sato', PASSWORD)).status, `login ${attempt}`).toBe(200);
    }
    expect((await loginFrom('198.51.100.10', 'sato', 'wrong-password')).status).toBe(401);
    expect((await loginFrom('198.51.100.10', 'sato', 'wrong-password')).status).toBe(401);
    expect((await loginFrom('198.51.100.10', 'sato', PASSWORD)).status).toBe(200);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await loginFrom('198.51.100.10', 'sato', 'wrong-password')).status, `failure ${attempt}`).toBe(401);
    }
    expectThrottled(await loginFrom('198.51.100.10', 'sato', 'wrong-password'), 600);
  });

  it('counts a burst of parallel attempts one by one: no more failures get through than the limit', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => loginFrom('198.51.100.15', 'burst', 'wrong-password')),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('limits password spraying: many login IDs from one address', async () => {
    for (let id = 1; id <= 9; id += 1) {
      expect((await loginFrom('198.51.100.20', `sprayed-${id}`, 'Password1')).status, `login ID ${id}`).toBe(401);
    }
    // A 10th login ID, never tried before, is refused too: the address has used its failures.
    expectThrottled(await loginFrom('198.51.100.20', 'sprayed-10', 'Password1'), 600);
    // Other addresses are not affected.
    expect((await loginFrom('198.51.100.21', 'sprayed-10', 'Password1')).status).toBe(401);
  });

  it('slows an attack on one login ID from many addresses, while the owner gets in from a known device', async () => {
    const home = await loginFrom('192.0.2.10', 'owner', PASSWORD);
    expect(home.status).toBe(200);
    const cookie = deviceCookie(home);
    const setCookie = home.headers.getSetCookie().find((value) => value.startsWith('known_device_'))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api\/token\//);

    // Six addresses, one failure each: no address comes near its own limit.
    for (let attacker = 1; attacker <= 6; attacker += 1) {
      expect((await loginFrom(`203.0.113.${attacker}`, 'owner', 'guess')).status, `attacker ${attacker}`).toBe(401);
    }
    // From now on each guess at this login ID waits, from any address: 1 s, then 2 s, then 4 s ...
    expect(expectThrottled(await loginFrom('203.0.113.7', 'owner', 'guess'), 1)).toBe(1);
    clockAhead += 1000;
    expect((await loginFrom('203.0.113.8', 'owner', 'guess')).status).toBe(401);
    expect(expectThrottled(await loginFrom('203.0.113.9', 'owner', 'guess'), 2)).toBe(2);
    // A made-up or tampered cookie is no known device.
    const tampered = cookie.replace(/=(\d+)\./, (_, issued: string) => `=${Number(issued) - 1}.`);
    expectThrottled(await loginFrom('203.0.113.10', 'owner', PASSWORD, { cookie: tampered }), 2);

    // The owner's own device is not held up, from any address.
    expect((await loginFrom('198.51.100.30', 'owner', PASSWORD, { cookie })).status).toBe(200);
  });

  it('lets the owner in from a new device once the delay has passed: slowed, never locked out', async () => {
    for (let attacker = 1; attacker <= 6; attacker += 1) {
      expect((await loginFrom(`203.0.113.${20 + attacker}`, 'newdevice', 'guess')).status).toBe(401);
    }
    const wait = expectThrottled(await loginFrom('192.0.2.20', 'newdevice', PASSWORD), 1);
    clockAhead += wait * 1000;
    expect((await loginFrom('192.0.2.20', 'newdevice', PASSWORD)).status).toBe(200);
    // The success cleared the delay: the next attempt at this login ID is not made to wait.
    expect((await loginFrom('203.0.113.30', 'newdevice', 'guess')).status).toBe(401);
  });

  it('gives a known device its own limit of failures', async () => {
    const cookie = deviceCookie(await loginFrom('192.0.2.30', 'tablet', PASSWORD));
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await loginFrom('192.0.2.30', 'tablet', 'typo', { cookie })).status, `typo ${attempt}`).toBe(401);
    }
    expectThrottled(await loginFrom('192.0.2.30', 'tablet', PASSWORD, { cookie }), 600);
    // Its failures were its own: the same address without the cookie still has its full budget.
    expect((await loginFrom('192.0.2.30', 'tablet', PASSWORD)).status).toBe(200);
  });
});
