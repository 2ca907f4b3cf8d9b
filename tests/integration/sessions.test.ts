/**
 * Issue 14, sessions: two tabs refreshing the same token at once keep their session (a short grace window hands
 * both the same successor), while a reuse after the window still revokes the family; a server-side logout; and a
 * password change or a deactivation ends every session of the account, open event streams included, without an
 * Idempotency-Key replay handing out tokens of the old password.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, refreshTokens } from '../../server/db/schema';
import { ensureInitialData } from '../../server/db/seed';
import { REFRESH_REUSE_GRACE_MS } from '../../server/features/auth/auth.service';
import { SESSION_CHECK_MS } from '../../server/features/events/events.routes';
import { MESSAGES } from '../../src/shared/messages';
import { tokenPairSchema } from '../../src/shared/schemas/auth';
import {
  answerOf,
  loginWithEmulator,
  refreshClaims,
  startTestApp,
  TEST_ADMIN_PASSWORD,
  TEST_ADMIN_USERNAME,
  type TestApp,
} from '../helpers/app';
import { testEngine } from '../helpers/database';
import { openEventStream, type EventStream } from '../helpers/event-stream';
import { createStaff, type StaffRow } from '../helpers/factories';

const TOKEN_NOT_VALID = { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' };
const PASSWORD = 'sessions-password-0001';
const NEW_PASSWORD = 'sessions-password-0002';

describe(`sessions: refresh grace window, logout, password change and deactivation on ${testEngine}`, () => {
  let t: TestApp;
  let adminToken: string;
  /** The server's clock runs this far ahead of the real one (moved on to get past the grace window). */
  let clockAhead = 0;
  const streams: EventStream[] = [];

  const refresh = (token: string, headers?: Record<string, string>) =>
    t.api('/api/token/refresh/', { method: 'POST', json: { refresh: token }, headers });
  const logout = (token: string) => t.api('/api/admin/logout/', { method: 'POST', json: { refresh: token } });
  const me = (access: string) => t.api('/api/admin/me/', { token: access });
  const patchStaff = (id: number, json: unknown, token = adminToken) =>
    t.api(`/api/admin/users/${id}/`, { method: 'PATCH', json, token });
  const familyRows = (refreshToken: string) =>
    t.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.family_id, refreshClaims(refreshToken).familyId));
  let serial = 0;
  const newStaff = async (): Promise<StaffRow> =>
    createStaff(t.database.db, t.salonId, { username: `session-${serial++}`, password: PASSWORD });

  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(Date.now() + clockAhead) });
    adminToken = (await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).access;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  describe('refresh grace window', () => {
    it('gives five parallel refreshes of one token the same successor, and the successor works', async () => {
      const staff = await newStaff();
      const first = await t.tokensFor(staff.username, PASSWORD);

      const results = await Promise.all(Array.from({ length: 5 }, () => refresh(first.refresh)));
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
      const pairs = results.map((result) => answerOf(result, tokenPairSchema));
      const successors = new Set(pairs.map((pair) => pair.refresh));
      expect(successors.size).toBe(1);
      const [successor] = [...successors] as [string];
      expect(successor).not.toBe(first.refresh);
      for (const pair of pairs) expect((await me(pair.access)).status).toBe(200);

      // One successor row, not five; nothing revoked.
      const rows = await familyRows(first.refresh);
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.revoked_at === null)).toBe(true);
      expect(rows.find((row) => row.jti === refreshClaims(first.refresh).jti)?.replaced_by).toBe(
        refreshClaims(successor).jti,
      );

      const next = await refresh(successor);
      expect(next.status).toBe(200);
      expect((await me(answerOf(next, tokenPairSchema).access)).status).toBe(200);
    });

    it('still revokes the whole family when a used token comes back after the window', async () => {
      const staff = await newStaff();
      const first = await t.tokensFor(staff.username, PASSWORD);
      const second = answerOf(await refresh(first.refresh), tokenPairSchema);
      expect((await refresh(first.refresh)).status).toBe(200); // within the window: fine

      clockAhead += REFRESH_REUSE_GRACE_MS + 1000;
      const reuse = await refresh(first.refresh);
      expect(reuse.status).toBe(401);
      expect(reuse.body).toEqual(TOKEN_NOT_VALID);
      // The successor dies with its family: the thief's copy and the owner's alike.
      expect((await refresh(second.refresh)).status).toBe(401);
      const rows = await familyRows(first.refresh);
      expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
    });

    it('gives nothing within the window once the family was revoked', async () => {
      const staff = await newStaff();
      const first = await t.tokensFor(staff.username, PASSWORD);
      const second = answerOf(await refresh(first.refresh), tokenPairSchema);
      expect((await logout(second.refresh)).status).toBe(204);
      const repeat = await refresh(first.refresh);
      expect(repeat.status).toBe(401);
      expect(repeat.body).toEqual(TOKEN_NOT_VALID);
    });
  });

  describe('POST /api/admin/logout/', () => {
    it('revokes the refresh token and its family, and leaves the other sessions alone', async () => {
      const staff = await newStaff();
      const session = await t.tokensFor(staff.username, PASSWORD);
      const otherDevice = await t.tokensFor(staff.username, PASSWORD);
      const rotated = answerOf(await refresh(session.refresh), tokenPairSchema);

      const result = await logout(rotated.refresh);
      expect(result.status).toBe(204);
      expect(result.text).toBe('');
      for (const token of [rotated.refresh, session.refresh]) {
        const refused = await refresh(token);
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual(TOKEN_NOT_VALID);
      }
      expect((await familyRows(session.refresh)).every((row) => row.revoked_at !== null)).toBe(true);
      // A second logout is no error; the other device keeps its session.
      expect((await logout(rotated.refresh)).status).toBe(204);
      expect((await refresh(otherDevice.refresh)).status).toBe(200);
    });

    it('answers anything but a staff refresh token with 401 token_not_valid and changes nothing', async () => {
      const staff = await newStaff();
      const pair = await t.tokensFor(staff.username, PASSWORD);
      const customer = await loginWithEmulator(t, 'logout-customer');
      for (const token of ['garbage', pair.access, customer.refresh]) {
        const result = await logout(token);
        expect(result.status).toBe(401);
        expect(result.body).toEqual(TOKEN_NOT_VALID);
      }
      expect((await refresh(pair.refresh)).status).toBe(200);
      expect((await refresh(customer.refresh)).status).toBe(200);
      const missing = await t.api('/api/admin/logout/', { method: 'POST', json: {} });
      expect(missing.status).toBe(400);
    });
  });

  describe('password change', () => {
    it('by a superuser: the old access and refresh tokens fail with 401, the new password signs in', async () => {
      const staff = await newStaff();
      const phone = await t.tokensFor(staff.username, PASSWORD);
      const tablet = await t.tokensFor(staff.username, PASSWORD);
      const rotated = answerOf(await refresh(tablet.refresh), tokenPairSchema);
      expect((await me(phone.access)).status).toBe(200);

      expect((await patchStaff(staff.id, { password: NEW_PASSWORD })).status).toBe(200);

      for (const access of [phone.access, tablet.access, rotated.access]) {
        const result = await me(access);
        expect(result.status).toBe(401);
        expect(result.body).toEqual(TOKEN_NOT_VALID);
      }
      // Within the grace window too: the old token's successor is not handed out again.
      for (const token of [phone.refresh, rotated.refresh, tablet.refresh]) {
        const result = await refresh(token);
        expect(result.status).toBe(401);
        expect(result.body).toEqual(TOKEN_NOT_VALID);
      }
      const rows = await t.database.db
        .select()
        .from(refreshTokens)
        .where(and(eq(refreshTokens.audience, 'staff'), eq(refreshTokens.subject_id, staff.id)));
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(rows.every((row) => row.revoked_at !== null)).toBe(true);

      expect((await t.login(staff.username, PASSWORD)).status).toBe(401);
      const fresh = await t.tokensFor(staff.username, NEW_PASSWORD);
      expect((await me(fresh.access)).status).toBe(200);
      expect((await refresh(fresh.refresh)).status).toBe(200);
    });

    it('of a superuser’s own password: their own old tokens fail too', async () => {
      const owner = await createStaff(t.database.db, t.salonId, {
        username: 'session-owner',
        password: PASSWORD,
        isSuperuser: true,
      });
      const pair = await t.tokensFor(owner.username, PASSWORD);
      expect((await patchStaff(owner.id, { password: NEW_PASSWORD }, pair.access)).status).toBe(200);
      expect((await me(pair.access)).status).toBe(401);
      expect((await refresh(pair.refresh)).status).toBe(401);
      expect((await t.login(owner.username, NEW_PASSWORD)).status).toBe(200);
    });

    it('through ADMIN_PASSWORD at start: a different password ends the sessions, the same one does not', async () => {
      const start = (adminPassword: string) =>
        ensureInitialData({
          db: t.database.db,
          dataDir: t.env.dataDir,
          timeZone: t.env.SALON_TZ,
          adminUsername: 'session-operator',
          adminPassword,
          demoData: false,
        });
      await start(PASSWORD);
      const pair = await t.tokensFor('session-operator', PASSWORD);
      await start(PASSWORD); // a restart with the same setting
      expect((await me(pair.access)).status).toBe(200);

      await start(NEW_PASSWORD);
      expect((await me(pair.access)).status).toBe(401);
      expect((await refresh(pair.refresh)).status).toBe(401);
      expect((await t.login('session-operator', NEW_PASSWORD)).status).toBe(200);
    });

    it('other changes (the name) end no session', async () => {
      const staff = await newStaff();
      const pair = await t.tokensFor(staff.username, PASSWORD);
      expect((await patchStaff(staff.id, { full_name: '改名 スタッフ' })).status).toBe(200);
      expect((await me(pair.access)).status).toBe(200);
      expect((await refresh(pair.refresh)).status).toBe(200);
    });

    it('a login with an Idempotency-Key is never replayed: the old password fails after the change', async () => {
      const staff = await newStaff();
      const headers = { 'idempotency-key': `login-${staff.id}` };
      const login = (password: string) =>
        t.api('/api/token/', { method: 'POST', json: { username: staff.username, password }, headers });

      const first = await login(PASSWORD);
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const refreshed = await refresh(answerOf(first, tokenPairSchema).refresh, {
        'idempotency-key': `refresh-${staff.id}`,
      });
      expect(refreshed.status).toBe(200);
      // Nothing of either answer was kept.
      const kept = await t.database.db.select().from(idempotencyKeys);
      expect(kept.filter((row) => row.key === `login-${staff.id}` || row.key === `refresh-${staff.id}`)).toEqual([]);

      expect((await patchStaff(staff.id, { password: NEW_PASSWORD })).status).toBe(200);
      const repeat = await login(PASSWORD);
      expect(repeat.status).toBe(401);
      expect(repeat.headers.get('idempotent-replayed')).toBeNull();
      expect(repeat.body).not.toHaveProperty('access');
      expect((await login(NEW_PASSWORD)).status).toBe(200);
    });
  });

  describe('deactivation', () => {
    it('ends an open event stream within seconds, and the tokens fail even after reactivation', async () => {
      const staff = await newStaff();
      const pair = await t.tokensFor(staff.username, PASSWORD);
      const stream = await openEventStream(t.url, pair.access);
      streams.push(stream);
      expect(stream.status).toBe(200);
      await stream.next((message) => message.event === 'ready', 2_000);
      let ended = false;
      void stream.ended.then(() => (ended = true));

      const deactivatedAt = Date.now();
      expect((await patchStaff(staff.id, { is_active: false })).status).toBe(200);
      await Promise.race([
        stream.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), SESSION_CHECK_MS * 3)),
      ]);
      expect(ended).toBe(true);
      expect(Date.now() - deactivatedAt).toBeLessThan(SESSION_CHECK_MS * 3);

      for (const result of [await me(pair.access), await refresh(pair.refresh)]) {
        expect(result.status).toBe(401);
        expect(result.body).toEqual(TOKEN_NOT_VALID);
      }
      const reopened = await openEventStream(t.url, pair.access);
      streams.push(reopened);
      expect(reopened.status).toBe(401);

      // Reactivated: the account signs in again, but the tokens from before stay dead.
      expect((await patchStaff(staff.id, { is_active: true })).status).toBe(200);
      expect((await me(pair.access)).status).toBe(401);
      expect((await refresh(pair.refresh)).status).toBe(401);
      expect((await me((await t.tokensFor(staff.username, PASSWORD)).access)).status).toBe(200);
    });

    it('a password change ends an open event stream too, while another staff member’s stream stays open', async () => {
      const [staff, bystander] = await Promise.all([newStaff(), newStaff()]);
      const [pair, other] = await Promise.all([
        t.tokensFor(staff.username, PASSWORD),
        t.tokensFor(bystander.username, PASSWORD),
      ]);
      const [stream, otherStream] = await Promise.all([
        openEventStream(t.url, pair.access),
        openEventStream(t.url, other.access),
      ]);
      streams.push(stream, otherStream);
      await Promise.all([stream, otherStream].map((s) => s.next((message) => message.event === 'ready', 2_000)));
      let otherEnded = false;
      void otherStream.ended.then(() => (otherEnded = true));

      expect((await patchStaff(staff.id, { password: NEW_PASSWORD })).status).toBe(200);
      await Promise.race([
        stream.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), SESSION_CHECK_MS * 3)),
      ]);
      expect(otherEnded).toBe(false);
    });
  });
});
