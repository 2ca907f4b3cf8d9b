import { createHash, randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customers, linkTokens, staffUsers } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { TokenPair } from '../../src/shared/schemas/auth';
import {
  emulatorAuthorize,
  loginWithEmulator,
  pkcePair,
  startTestApp,
  TEST_ADMIN_USERNAME,
  type TestApp,
} from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer, createStaff, setStaffActive, type StaffRow } from '../helpers/factories';

const PUBLIC_URL = 'https://salon.example';
const START = new Date('2030-03-01T00:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

const CUSTOMER_LINK_INVALID_400 = {
  detail: MESSAGES.customerLinkInvalid,
  code: 'link_invalid',
  fields: { token: [MESSAGES.customerLinkInvalid] },
};
const CUSTOMER_LINK_INVALID_404 = { detail: MESSAGES.customerLinkInvalid, code: 'not_found' };
const STAFF_LINK_INVALID = {
  detail: SERVER_MESSAGES.staffLinkInvalid,
  code: 'link_invalid',
  fields: { token: [SERVER_MESSAGES.staffLinkInvalid] },
};

/** The emulator derives a test user's LINE id from the name. */
const emulatorLineUserId = (name: string) => `U${createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
const uniqueUser = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * One-time LINE link tokens (docs/architecture.md#line-and-e-mail): customers complete /link-customer/{token}, staff complete
 * /register-line/{token}; both are used once, expire, and are decided by the database under races.
 */
describe(`LINE link tokens on ${testEngine}`, () => {
  let t: TestApp;
  let clock = START;
  let adminId: number;

  beforeAll(async () => {
    t = await startTestApp({ now: () => clock, env: { PUBLIC_URL } });
    const [admin] = await t.database.db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
    adminId = admin!.id;
  });
  afterAll(() => t?.close());
  afterEach(() => {
    clock = START;
  });

  /** A fresh superuser access token on the current clock. */
  const adminToken = async () => (await t.auth.issueTokenPair('staff', adminId)).access;
  const db = () => t.database.db;

  /** The emulator's authorize step for `devUser`, with PKCE and a nonce, back to `redirectUri`. */
  async function lineCode(devUser: string, redirectUri: string) {
    const { verifier, challenge } = pkcePair();
    const nonce = randomBytes(8).toString('hex');
    const { status, code } = await emulatorAuthorize(t, { devUser, nonce, challenge, redirectUri });
    expect(status).toBe(302);
    expect(code).toBeTruthy();
    return { code: code!, code_verifier: verifier, nonce, redirect_uri: redirectUri };
  }

  describe('customer link (/link-customer/{token})', () => {
    async function customerLink(customerId: number): Promise<string> {
      const result = await t.api(`/api/admin/customers/${customerId}/generate-line-link/`, {
        method: 'POST',
        token: await adminToken(),
      });
      expect(result.status).toBe(201);
      const url = String(result.body.link_url);
      expect(url.startsWith(`${PUBLIC_URL}/link-customer/`)).toBe(true);
      return url.slice(`${PUBLIC_URL}/link-customer/`.length);
    }
    // The browser comes back from LINE to /callback and completes the link there (the emulator, like LINE,
    // returns only to the app's registered callbacks).
    const CUSTOMER_CALLBACK = `${PUBLIC_URL}/callback`;
    const complete = (json: Record<string, unknown>) => t.api('/api/link-customer/', { method: 'POST', json });
    const status = (token: string) => t.api(`/api/link-customer/${token}/`);
    const tokenRow = async (token: string) =>
      (
        await db()
          .select()
          .from(linkTokens)
          .where(eq(linkTokens.token_hash, hashOf(token)))
      )[0]!;
    const customerRow = async (id: number) => (await db().select().from(customers).where(eq(customers.id, id)))[0]!;

    it('end to end: staff make the link, the customer logs in with LINE, the record is linked and signed in', async () => {
      const customer = await createCustomer(db(), t.salonId, { name: '店舗 登録', email: 'walkin@example.com' });
      const token = await customerLink(customer.id);
      expect(await status(token)).toMatchObject({
        status: 200,
        body: { valid: true, expires_at: '2030-03-08T09:00:00' },
      });

      const devUser = uniqueUser('link-hanako');
      const result = await complete({ token, ...(await lineCode(devUser, CUSTOMER_CALLBACK)) });
      expect(result.status).toBe(200);
      expect(Object.keys(result.body).sort()).toEqual(['access', 'refresh']);
      const pair = result.body as unknown as TokenPair;

      const me = await t.api('/api/me/', { token: pair.access });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({
        id: customer.id,
        name: '店舗 登録',
        email: 'walkin@example.com',
        line_display_name: devUser,
      });
      const row = await customerRow(customer.id);
      expect(row).toMatchObject({ line_user_id: emulatorLineUserId(devUser), line_display_name: devUser });
      expect(row.updated_at.getTime()).toBeGreaterThan(customer.updated_at.getTime());
      expect((await tokenRow(token)).used_at?.toISOString()).toBe(START.toISOString());
      const admin = await t.api(`/api/admin/customers/${customer.id}/`, { token: await adminToken() });
      expect(admin.body).toMatchObject({ is_line_linked: true, line_user_id: emulatorLineUserId(devUser) });

      // A later plain LINE login of the same person lands on the same record, not a new one.
      const login = await loginWithEmulator(t, devUser);
      expect((await t.api('/api/me/', { token: login.access })).body.id).toBe(customer.id);
      expect(
        await db()
          .select()
          .from(customers)
          .where(eq(customers.line_user_id, emulatorLineUserId(devUser))),
      ).toHaveLength(1);

      // Used: the page says so, and a second use is refused without touching the record.
      expect(await status(token)).toMatchObject({ status: 404, body: CUSTOMER_LINK_INVALID_404 });
      const again = await complete({ token, ...(await lineCode(uniqueUser('second'), CUSTOMER_CALLBACK)) });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(CUSTOMER_LINK_INVALID_400);
      expect((await customerRow(customer.id)).line_user_id).toBe(emulatorLineUserId(devUser));
    });

    it('refuses an unknown token: 404 on the page, 400 on completion', async () => {
      const unknown = randomBytes(16).toString('base64url');
      expect(await status(unknown)).toMatchObject({ status: 404, body: CUSTOMER_LINK_INVALID_404 });
      const result = await complete({ token: unknown, ...(await lineCode(uniqueUser('unknown'), CUSTOMER_CALLBACK)) });
      expect(result.status).toBe(400);
      expect(result.body).toEqual(CUSTOMER_LINK_INVALID_400);
      expect((await complete({ token: '', code: 'x' })).status).toBe(400);
    });

    it('expires after 7 days (fixed clock): valid a second before, refused after, and left unused', async () => {
      const customer = await createCustomer(db(), t.salonId, { name: '期限 切れ' });
      const token = await customerLink(customer.id);
      clock = new Date(START.getTime() + 7 * DAY_MS - 1000);
      expect((await status(token)).status).toBe(200);
      clock = new Date(START.getTime() + 7 * DAY_MS);
      expect(await status(token)).toMatchObject({ status: 404, body: CUSTOMER_LINK_INVALID_404 });
      const devUser = uniqueUser('late');
      const result = await complete({ token, ...(await lineCode(devUser, CUSTOMER_CALLBACK)) });
      expect(result.status).toBe(400);
      expect(result.body).toEqual(CUSTOMER_LINK_INVALID_400);
      expect((await tokenRow(token)).used_at).toBeNull();
      expect((await customerRow(customer.id)).line_user_id).toBeNull();
      expect(
        await db()
          .select()
          .from(customers)
          .where(eq(customers.line_user_id, emulatorLineUserId(devUser))),
      ).toEqual([]);
    });

    it('a new link ends the earlier unused one; other customers’ links are untouched', async () => {
      const customer = await createCustomer(db(), t.salonId, { name: '再発行 花子' });
      const other = await createCustomer(db(), t.salonId, { name: '別人 太郎' });
      const first = await customerLink(customer.id);
      const others = await customerLink(other.id);
      const second = await customerLink(customer.id);
      expect(await status(first)).toMatchObject({ status: 404, body: CUSTOMER_LINK_INVALID_404 });
      const refused = await complete({ token: first, ...(await lineCode(uniqueUser('old-link'), CUSTOMER_CALLBACK)) });
      expect(refused.status).toBe(400);
      expect((await customerRow(customer.id)).line_user_id).toBeNull();
      expect((await status(others)).status).toBe(200);
      const linked = await complete({ token: second, ...(await lineCode(uniqueUser('new-link'), CUSTOMER_CALLBACK)) });
      expect(linked.status).toBe(200);
    });

    it('answers 409 for a LINE account already linked to another customer and leaves the token unused', async () => {
      const existingUser = uniqueUser('has-record');
      await loginWithEmulator(t, existingUser); // the LINE login made their own customer record
      const customer = await createCustomer(db(), t.salonId, { name: '別 レコード' });
      const token = await customerLink(customer.id);
      const result = await complete({ token, ...(await lineCode(existingUser, CUSTOMER_CALLBACK)) });
      expect(result.status).toBe(409);
      expect(result.body).toEqual({ detail: MESSAGES.lineLinkedToOtherCustomer, code: 'line_already_linked' });
      expect((await tokenRow(token)).used_at).toBeNull();
      expect((await customerRow(customer.id)).line_user_id).toBeNull();
      expect((await status(token)).status).toBe(200);
      // The token still works for another LINE account.
      const other = uniqueUser('other');
      expect((await complete({ token, ...(await lineCode(other, CUSTOMER_CALLBACK)) })).status).toBe(200);
      expect((await customerRow(customer.id)).line_user_id).toBe(emulatorLineUserId(other));
    });

    it('a refused LINE code leaves the token unused', async () => {
      const customer = await createCustomer(db(), t.salonId, { name: 'コード 失敗' });
      const token = await customerLink(customer.id);
      const params = await lineCode(uniqueUser('bad-verifier'), CUSTOMER_CALLBACK);
      const result = await complete({ token, ...params, code_verifier: pkcePair().verifier });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ detail: MESSAGES.lineLoginFailed, code: 'line_login_failed' });
      expect((await tokenRow(token)).used_at).toBeNull();
    });

    it('two concurrent uses of one token: exactly one links the record', async () => {
      for (let round = 0; round < 5; round += 1) {
        const customer = await createCustomer(db(), t.salonId, { name: `同時 ${round}` });
        const token = await customerLink(customer.id);
        const users = [uniqueUser(`race-${round}-a`), uniqueUser(`race-${round}-b`)];
        const params = await Promise.all(users.map((user) => lineCode(user, CUSTOMER_CALLBACK)));
        const results = await Promise.all(params.map((param) => complete({ token, ...param })));
        expect(results.map((result) => result.status).sort(), `round ${round}`).toEqual([200, 400]);
        const winner = users[results.findIndex((result) => result.status === 200)]!;
        expect((await customerRow(customer.id)).line_user_id).toBe(emulatorLineUserId(winner));
        const lineIds = users.map(emulatorLineUserId);
        const linked = await db().select().from(customers).where(inArray(customers.line_user_id, lineIds));
        expect(linked.map((row) => row.id)).toEqual([customer.id]);
      }
    });
  });

  describe('staff link (/register-line/{token}) and staff LINE login', () => {
    const ADMIN_CALLBACK = `${PUBLIC_URL}/admin/callback`;
    let seq = 0;
    const newStaff = async (isActive = true): Promise<StaffRow> =>
      createStaff(db(), t.salonId, {
        username: `line-staff-${(seq += 1)}-${randomBytes(3).toString('hex')}`,
        isActive,
      });

    async function registrationToken(staffId: number): Promise<string> {
      const result = await t.api(`/api/admin/users/${staffId}/generate-line-link/`, {
        method: 'POST',
        token: await adminToken(),
      });
      expect(result.status).toBe(201);
      const link = String(result.body.registration_link);
      expect(link).toMatch(/^https:\/\/salon\.example\/register-line\/[A-Za-z0-9_-]{22}$/);
      return link.slice(`${PUBLIC_URL}/register-line/`.length);
    }
    const linkLine = (json: Record<string, unknown>) => t.api('/api/admin/link-line/', { method: 'POST', json });
    const loginLine = (json: Record<string, unknown>) => t.api('/api/admin/login-line/', { method: 'POST', json });
    const staffRow = async (id: number) => (await db().select().from(staffUsers).where(eq(staffUsers.id, id)))[0]!;
    const tokenRow = async (token: string) =>
      (
        await db()
          .select()
          .from(linkTokens)
          .where(eq(linkTokens.token_hash, hashOf(token)))
      )[0]!;
    /** A LINE code for the admin callback, sent without redirect_uri (the server's default is that callback). */
    const adminCode = async (devUser: string) => {
      const { redirect_uri: _default, ...rest } = await lineCode(devUser, ADMIN_CALLBACK);
      return rest;
    };

    it('links the account once and signs the staff member in; LINE login works from then on', async () => {
      const staff = await newStaff();
      const generated = await t.api(`/api/admin/users/${staff.id}/generate-line-link/`, {
        method: 'POST',
        token: await adminToken(),
      });
      expect(generated.status).toBe(201);
      expect(generated.body).toEqual({
        registration_link: expect.stringMatching(/^https:\/\/salon\.example\/register-line\/[A-Za-z0-9_-]{22}$/),
        expires_at: '2030-03-02T09:00:00',
      });
      const token = String(generated.body.registration_link).split('/').pop()!;
      expect(await tokenRow(token)).toMatchObject({
        kind: 'staff',
        staff_id: staff.id,
        created_by_staff_id: adminId,
        used_at: null,
      });

      const devUser = uniqueUser('staff-line');
      const linked = await linkLine({ token, ...(await adminCode(devUser)) });
      expect(linked.status).toBe(200);
      expect(Object.keys(linked.body).sort()).toEqual(['access', 'refresh']);
      const me = await t.api('/api/admin/me/', { token: String(linked.body.access) });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: staff.id, is_line_linked: true });
      expect((await staffRow(staff.id)).line_user_id).toBe(emulatorLineUserId(devUser));
      expect((await tokenRow(token)).used_at).not.toBeNull();

      const login = await loginLine(await adminCode(devUser));
      expect(login.status).toBe(200);
      expect((await t.api('/api/admin/me/', { token: String(login.body.access) })).body.id).toBe(staff.id);
      // A staff token, not a customer one.
      expect((await t.api('/api/me/', { token: String(login.body.access) })).status).toBe(401);

      // Used once: refused the second time, and nothing changes.
      const again = await linkLine({ token, ...(await adminCode(uniqueUser('again'))) });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(STAFF_LINK_INVALID);
      expect((await staffRow(staff.id)).line_user_id).toBe(emulatorLineUserId(devUser));
    });

    it('refuses an expired registration link (edited expires_at, and 24 hours on the clock)', async () => {
      const staff = await newStaff();
      const edited = await registrationToken(staff.id);
      await db()
        .update(linkTokens)
        .set({ expires_at: new Date(clock.getTime() - 1000) })
        .where(eq(linkTokens.token_hash, hashOf(edited)));
      const first = await linkLine({ token: edited, ...(await adminCode(uniqueUser('edited'))) });
      expect(first.status).toBe(400);
      expect(first.body).toEqual(STAFF_LINK_INVALID);

      const timed = await registrationToken(staff.id);
      clock = new Date(START.getTime() + DAY_MS);
      const second = await linkLine({ token: timed, ...(await adminCode(uniqueUser('timed'))) });
      expect(second.status).toBe(400);
      expect(second.body).toEqual(STAFF_LINK_INVALID);
      expect((await tokenRow(timed)).used_at).toBeNull();
      expect((await staffRow(staff.id)).line_user_id).toBeNull();

      clock = new Date(START.getTime() + DAY_MS - 1000);
      expect((await linkLine({ token: timed, ...(await adminCode(uniqueUser('in-time'))) })).status).toBe(200);
    });

    it('refuses an unknown token with 400', async () => {
      const result = await linkLine({
        token: randomBytes(16).toString('base64url'),
        ...(await adminCode(uniqueUser('nobody'))),
      });
      expect(result.status).toBe(400);
      expect(result.body).toEqual(STAFF_LINK_INVALID);
      expect((await linkLine({ code: 'x' })).status).toBe(400);
    });

    it('a new registration link ends the earlier unused one', async () => {
      const staff = await newStaff();
      const first = await registrationToken(staff.id);
      const second = await registrationToken(staff.id);
      const refused = await linkLine({ token: first, ...(await adminCode(uniqueUser('old-registration'))) });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(STAFF_LINK_INVALID);
      expect((await staffRow(staff.id)).line_user_id).toBeNull();
      expect((await linkLine({ token: second, ...(await adminCode(uniqueUser('new-registration'))) })).status).toBe(
        200,
      );
    });

    it('answers 409 when the LINE account is already linked to another staff member; the token stays unused', async () => {
      const [first, second] = [await newStaff(), await newStaff()];
      const devUser = uniqueUser('shared-line');
      expect((await linkLine({ token: await registrationToken(first.id), ...(await adminCode(devUser)) })).status).toBe(
        200,
      );

      const token = await registrationToken(second.id);
      const result = await linkLine({ token, ...(await adminCode(devUser)) });
      expect(result.status).toBe(409);
      expect(result.body).toEqual({ detail: SERVER_MESSAGES.lineLinkedToOtherStaff, code: 'line_already_linked' });
      expect((await tokenRow(token)).used_at).toBeNull();
      expect((await staffRow(second.id)).line_user_id).toBeNull();
      expect((await staffRow(first.id)).line_user_id).toBe(emulatorLineUserId(devUser));
      // The same token then links another LINE account.
      const own = uniqueUser('own-line');
      expect((await linkLine({ token, ...(await adminCode(own)) })).status).toBe(200);
      expect((await staffRow(second.id)).line_user_id).toBe(emulatorLineUserId(own));
    });

    it('refuses to link an inactive account with 403 and leaves the token unused', async () => {
      const staff = await newStaff();
      const token = await registrationToken(staff.id);
      await setStaffActive(db(), staff.id, false);
      const result = await linkLine({ token, ...(await adminCode(uniqueUser('inactive-link'))) });
      expect(result.status).toBe(403);
      expect(result.body).toEqual({ detail: MESSAGES.staffInactive, code: 'inactive' });
      expect((await tokenRow(token)).used_at).toBeNull();
      expect((await staffRow(staff.id)).line_user_id).toBeNull();
    });

    it('two concurrent uses of one registration token: exactly one succeeds', async () => {
      for (let round = 0; round < 5; round += 1) {
        const staff = await newStaff();
        const token = await registrationToken(staff.id);
        const users = [uniqueUser(`staff-race-${round}-a`), uniqueUser(`staff-race-${round}-b`)];
        const codes = await Promise.all(users.map((user) => adminCode(user)));
        const results = await Promise.all(codes.map((code) => linkLine({ token, ...code })));
        expect(results.map((result) => result.status).sort(), `round ${round}`).toEqual([200, 400]);
        const winner = users[results.findIndex((result) => result.status === 200)]!;
        expect((await staffRow(staff.id)).line_user_id).toBe(emulatorLineUserId(winner));
      }
    });

    it('LINE login: an unlinked LINE account is 401, an inactive linked account is 401, a bad code is 401', async () => {
      const unlinked = await loginLine(await adminCode(uniqueUser('stranger')));
      expect(unlinked.status).toBe(401);
      expect(unlinked.body).toEqual({ detail: SERVER_MESSAGES.staffLineNotLinked, code: 'line_not_linked' });

      const staff = await newStaff();
      const devUser = uniqueUser('leaver');
      expect((await linkLine({ token: await registrationToken(staff.id), ...(await adminCode(devUser)) })).status).toBe(
        200,
      );
      await setStaffActive(db(), staff.id, false);
      const inactive = await loginLine(await adminCode(devUser));
      expect(inactive.status).toBe(401);
      expect(inactive.body).toEqual({ detail: SERVER_MESSAGES.staffLineInactive, code: 'inactive' });

      const bad = await loginLine({ code: 'not-a-code', redirect_uri: ADMIN_CALLBACK });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ detail: MESSAGES.lineLoginFailed, code: 'line_login_failed' });
      // The customer callback is not the admin one: a code made for /admin/callback fails against /callback.
      const wrongRedirect = await loginLine({ ...(await adminCode(devUser)), redirect_uri: `${PUBLIC_URL}/callback` });
      expect(wrongRedirect.status).toBe(401);
    });

    it('registration links are superuser business: ordinary staff get 403, an unknown staff id 404', async () => {
      const staff = await newStaff();
      const ordinary = (await t.auth.issueTokenPair('staff', staff.id)).access;
      const refused = await t.api(`/api/admin/users/${staff.id}/generate-line-link/`, {
        method: 'POST',
        token: ordinary,
      });
      expect(refused.status).toBe(403);
      const missing = await t.api('/api/admin/users/999999/generate-line-link/', {
        method: 'POST',
        token: await adminToken(),
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: MESSAGES.staffNotFound, code: 'not_found' });
      expect(await db().select().from(linkTokens).where(eq(linkTokens.staff_id, staff.id))).toEqual([]);
    });
  });
});
