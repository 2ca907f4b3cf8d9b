import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, staffUsers } from '../../server/db/schema';
import { createAuthService, REFRESH_REUSE_GRACE_MS } from '../../server/features/auth/auth.service';
import { createTokenSigner } from '../../server/features/auth/tokens';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { tokenPairSchema, type TokenPair } from '../../src/shared/schemas/auth';
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
import { createStaff, setStaffActive, type StaffRow } from '../helpers/factories';

const LOGIN_FAILED = { detail: MESSAGES.passwordLoginFailed, code: 'authentication_failed' };
const TOKEN_NOT_VALID = { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' };
const NOT_AUTHENTICATED = { detail: SERVER_MESSAGES.notAuthenticated, code: 'not_authenticated' };
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

const STAFF_PASSWORD = 'staff-password-4567';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hoursAgo = (hours: number) => () => new Date(Date.now() - hours * 3600_000);

describe(`password login, tokens and refresh on ${testEngine}`, () => {
  let t: TestApp;
  let admin: StaffRow;
  let staff: { sato: StaffRow; inactive: StaffRow; leaver: StaffRow; rotator: StaffRow };
  /** The server's clock runs this far ahead of the real one: a reuse "after the grace window" moves it on. */
  let clockAhead = 0;
  const passGraceWindow = () => (clockAhead += REFRESH_REUSE_GRACE_MS + 1000);

  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(Date.now() + clockAhead) });
    const make = (username: string, isActive = true) =>
      createStaff(t.database.db, t.salonId, { username, password: STAFF_PASSWORD, isActive });
    const [sato, inactive, leaver, rotator] = await Promise.all([
      make('sato'),
      make('inactive', false),
      make('leaver'),
      make('rotator'),
    ]);
    staff = { sato: sato!, inactive: inactive!, leaver: leaver!, rotator: rotator! };
    [admin] = (await t.database.db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME))) as [
      StaffRow,
    ];
  });
  afterAll(() => t?.close());

  describe('A. POST /api/token/', () => {
    it('gives the superuser an access and a refresh token', async () => {
      const result = await t.login(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body).sort()).toEqual(['access', 'refresh']);
      expect(result.body.access).toMatch(JWT_SHAPE);
      expect(result.body.refresh).toMatch(JWT_SHAPE);
      const access = decodeJwt(result.body.access as string);
      const refresh = decodeJwt(result.body.refresh as string);
      expect(access).toMatchObject({ aud: 'staff', sub: String(admin.id), token_type: 'access' });
      expect(refresh).toMatchObject({ aud: 'staff', sub: String(admin.id), token_type: 'refresh' });
      expect(access.exp! - access.iat!).toBe(t.env.ACCESS_TOKEN_TTL_SECONDS);
    });

    it('accepts the login ID in any letter case', async () => {
      expect((await t.login('ADMIN', TEST_ADMIN_PASSWORD)).status).toBe(200);
    });

    it('answers a wrong password and an unknown login ID with the same 401 body', async () => {
      const wrongPassword = await t.login(TEST_ADMIN_USERNAME, `${TEST_ADMIN_PASSWORD}x`);
      const unknownUser = await t.login('nobody', TEST_ADMIN_PASSWORD);
      expect(wrongPassword.status).toBe(401);
      expect(wrongPassword.body).toEqual(LOGIN_FAILED);
      expect(unknownUser.status).toBe(401);
      expect(unknownUser.body).toEqual(LOGIN_FAILED);
      expect(unknownUser.text).toBe(wrongPassword.text);
    });

    it('refuses an inactive staff member with the right password', async () => {
      const result = await t.login('inactive', STAFF_PASSWORD);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(LOGIN_FAILED);
      // The same password works for an active account: the refusal is about the flag.
      expect((await t.login('sato', STAFF_PASSWORD)).status).toBe(200);
    });

    it('answers missing or empty fields with 400 and Japanese field messages', async () => {
      const missingPassword = await t.api('/api/token/', { method: 'POST', json: { username: 'admin' } });
      expect(missingPassword.status).toBe(400);
      expect(missingPassword.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { password: [MESSAGES.fieldRequired] },
      });

      const empty = await t.api('/api/token/', { method: 'POST', json: {} });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { username: [MESSAGES.fieldRequired], password: [MESSAGES.fieldRequired] },
      });

      const blank = await t.api('/api/token/', { method: 'POST', json: { username: '   ', password: 'x' } });
      expect(blank.status).toBe(400);
      expect(blank.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { username: [MESSAGES.fieldRequired] },
      });

      const huge = await t.api('/api/token/', {
        method: 'POST',
        json: { username: 'admin', password: 'x'.repeat(5000) },
      });
      expect(huge.status).toBe(400);
      expect(huge.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { password: [MESSAGES.tooLong] },
      });

      const wrongType = await t.api('/api/token/', { method: 'POST', json: { username: 12, password: ['x'] } });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body).toMatchObject({
        code: 'invalid',
        fields: { username: [MESSAGES.fieldRequired], password: [MESSAGES.fieldRequired] },
      });
    });
  });

  describe('C. tokens on GET /api/admin/me/ (staff only) and GET /api/me/ (customer only)', () => {
    let adminPair: TokenPair;
    let satoPair: TokenPair;
    let customerPair: TokenPair;

    beforeAll(async () => {
      adminPair = await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD);
      satoPair = await t.tokensFor('sato', STAFF_PASSWORD);
      customerPair = await loginWithEmulator(t, 'matrix-customer');
    });

    it('answers a valid staff token with the profile', async () => {
      const result = await t.api('/api/admin/me/', { token: adminPair.access });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        id: admin.id,
        username: TEST_ADMIN_USERNAME,
        full_name: '管理者',
        email: '',
        is_superuser: true,
        role: 'owner',
        is_line_linked: false,
        calendar_feed_url: expect.stringMatching(/\/api\/calendar\/[A-Za-z0-9_-]{22}\.ics$/),
        calendar_feed_includes_phone: false,
      });
      const sato = await t.api('/api/admin/me/', { token: satoPair.access });
      expect(sato.status).toBe(200);
      expect(sato.body).toMatchObject({ id: staff.sato.id, username: 'sato', is_superuser: false });
    });

    it('answers no token with 401 not_authenticated', async () => {
      const result = await t.api('/api/admin/me/');
      expect(result.status).toBe(401);
      expect(result.body).toEqual(NOT_AUTHENTICATED);
      const basic = await t.api('/api/admin/me/', { headers: { authorization: `Basic ${btoa('admin:x')}` } });
      expect(basic.status).toBe(401);
      expect(basic.body).toEqual(NOT_AUTHENTICATED);
    });

    const forged: Array<[string, () => Promise<string>]> = [
      [
        'an expired access token',
        async () =>
          (await t.signer(hoursAgo(1)).sign({ audience: 'staff', subjectId: admin.id, tokenType: 'access' })).token,
      ],
      [
        'a token with one character of its payload changed',
        async () => {
          const [header, payload, signature] = adminPair.access.split('.') as [string, string, string];
          const index = Math.floor(payload.length / 2);
          const changed = payload.slice(0, index) + (payload[index] === 'A' ? 'B' : 'A') + payload.slice(index + 1);
          return `${header}.${changed}.${signature}`;
        },
      ],
      [
        "another staff member's token with its subject rewritten to the superuser",
        async () => {
          const [header, , signature] = satoPair.access.split('.') as [string, string, string];
          return `${header}.${b64({ ...decodeJwt(satoPair.access), sub: String(admin.id) })}.${signature}`;
        },
      ],
      [
        'an alg:none token with the same claims',
        async () => `${b64({ alg: 'none', typ: 'JWT' })}.${adminPair.access.split('.')[1]}.`,
      ],
      [
        'a token signed with another secret',
        async () =>
          (
            await createTokenSigner({
              secret: randomBytes(36).toString('base64url'),
              accessTtlSeconds: 900,
              refreshTtlSeconds: 3600,
            }).sign({
              audience: 'staff',
              subjectId: admin.id,
              tokenType: 'access',
            })
          ).token,
      ],
      [
        'an HS512 token signed with the right secret',
        async () =>
          new SignJWT(decodeJwt(adminPair.access))
            .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
            .sign(new TextEncoder().encode(t.jwtSecret)),
      ],
      ['a refresh token used as an access token', async () => adminPair.refresh],
      ['a customer access token', async () => customerPair.access],
      ['a string that is not a JWT', async () => 'not-a-token'],
    ];

    it.each(forged)('answers %s with 401 token_not_valid', async (_name, makeToken) => {
      const token = await makeToken();
      const result = await t.api('/api/admin/me/', { token });
      expect(result.status).toBe(401);
      expect(result.body).toEqual(TOKEN_NOT_VALID);
    });

    it('accepts a token signed by the same signer a moment ago (the expired case fails only on time)', async () => {
      const { token } = await t
        .signer(() => new Date(Date.now() - 60_000))
        .sign({ audience: 'staff', subjectId: admin.id, tokenType: 'access' });
      expect((await t.api('/api/admin/me/', { token })).status).toBe(200);
    });

    it('keeps staff tokens off customer routes and customer tokens on them', async () => {
      const staffOnCustomer = await t.api('/api/me/', { token: adminPair.access });
      expect(staffOnCustomer.status).toBe(401);
      expect(staffOnCustomer.body).toEqual(TOKEN_NOT_VALID);
      const customer = await t.api('/api/me/', { token: customerPair.access });
      expect(customer.status).toBe(200);
      expect(customer.body).toMatchObject({ line_display_name: 'matrix-customer' });
      const none = await t.api('/api/me/');
      expect(none.status).toBe(401);
      expect(none.body).toEqual(NOT_AUTHENTICATED);
    });
  });

  describe('D. POST /api/token/refresh/', () => {
    const refresh = (token: string) => t.api('/api/token/refresh/', { method: 'POST', json: { refresh: token } });

    it('rotates: a new pair, the new access works, the old refresh is refused', async () => {
      const first = await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD);
      const rotated = await refresh(first.refresh);
      expect(rotated.status).toBe(200);
      expect(Object.keys(rotated.body).sort()).toEqual(['access', 'refresh']);
      const second = answerOf(rotated, tokenPairSchema);
      expect(second.refresh).not.toBe(first.refresh);
      expect(second.access).not.toBe(first.access);
      expect(refreshClaims(second.refresh).familyId).toBe(refreshClaims(first.refresh).familyId);

      const me = await t.api('/api/admin/me/', { token: second.access });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: admin.id, username: TEST_ADMIN_USERNAME });

      // Within the grace window a repeat gets the same successor (two tabs refreshing at once).
      const repeat = await refresh(first.refresh);
      expect(repeat.status).toBe(200);
      expect(answerOf(repeat, tokenPairSchema).refresh).toBe(second.refresh);

      passGraceWindow();
      const again = await refresh(first.refresh);
      expect(again.status).toBe(401);
      expect(again.body).toEqual(TOKEN_NOT_VALID);
    });

    it('revokes the whole family when a used refresh token comes back', async () => {
      const a = await t.tokensFor('rotator', STAFF_PASSWORD);
      const other = await t.tokensFor('rotator', STAFF_PASSWORD); // a second session (another device)
      const b = answerOf(await refresh(a.refresh), tokenPairSchema);
      const cResult = await refresh(b.refresh);
      expect(cResult.status).toBe(200);
      const c = answerOf(cResult, tokenPairSchema);

      passGraceWindow();
      const reuse = await refresh(a.refresh);
      expect(reuse.status).toBe(401);
      expect(reuse.body).toEqual(TOKEN_NOT_VALID);

      // B was already used (it is reuse too); C was never used and dies with its family.
      for (const token of [c.refresh, b.refresh]) {
        const result = await refresh(token);
        expect(result.status).toBe(401);
        expect(result.body).toEqual(TOKEN_NOT_VALID);
      }

      const { familyId } = refreshClaims(a.refresh);
      const rows = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.family_id, familyId));
      expect(rows).toHaveLength(3);
      expect(rows.map((row) => row.jti).sort()).toEqual(
        [a, b, c].map((pair) => refreshClaims(pair.refresh).jti).sort(),
      );
      for (const row of rows) expect(row.revoked_at).toBeInstanceOf(Date);

      // The other session is another family: untouched.
      const [otherRow] = await t.database.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.jti, refreshClaims(other.refresh).jti));
      expect(otherRow?.revoked_at).toBeNull();
      expect((await refresh(other.refresh)).status).toBe(200);
    });

    it('refuses the refresh and access tokens of a staff member deactivated since', async () => {
      const pair = await t.tokensFor('leaver', STAFF_PASSWORD);
      expect((await t.api('/api/admin/me/', { token: pair.access })).status).toBe(200);
      await setStaffActive(t.database.db, staff.leaver.id, false);
      const result = await refresh(pair.refresh);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(TOKEN_NOT_VALID);
      const me = await t.api('/api/admin/me/', { token: pair.access });
      expect(me.status).toBe(401);
      expect(me.body).toEqual(TOKEN_NOT_VALID);
    });

    it('rotates customer tokens too, and the new customer access works', async () => {
      const pair = await loginWithEmulator(t, 'refresh-customer');
      const result = await refresh(pair.refresh);
      expect(result.status).toBe(200);
      const me = await t.api('/api/me/', { token: answerOf(result, tokenPairSchema).access });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ line_display_name: 'refresh-customer' });
    });

    it('refuses an expired refresh token and a well-signed one the server never issued', async () => {
      // Issued 15 days ago with a 14-day lifetime: its row exists, its time is up.
      const past = hoursAgo(15 * 24);
      const oldPair = await createAuthService({ db: t.database.db, tokens: t.signer(past), now: past }).issueTokenPair(
        'staff',
        admin.id,
      );
      const expired = await refresh(oldPair.refresh);
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual(TOKEN_NOT_VALID);

      const unknown = await t
        .signer()
        .sign({ audience: 'staff', subjectId: admin.id, tokenType: 'refresh', familyId: randomUUID() });
      const result = await refresh(unknown.token);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(TOKEN_NOT_VALID);
    });

    it.each([
      ['garbage', 'garbage'],
      ['three dots of nothing', 'a.b.c'],
      ['a JWT-looking string', `${b64({ alg: 'HS256' })}.${b64({ aud: 'staff', token_type: 'refresh' })}.c2ln`],
      [
        'an alg:none refresh token',
        `${b64({ alg: 'none' })}.${b64({ aud: 'staff', sub: '1', token_type: 'refresh', jti: randomUUID() })}.`,
      ],
      ['non-ASCII text', 'トークン'],
    ])('answers %s with 401 token_not_valid, never 500', async (_name, token) => {
      const result = await refresh(token);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(TOKEN_NOT_VALID);
    });

    it('answers an access token presented as a refresh token with 401', async () => {
      const pair = await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD);
      const result = await refresh(pair.access);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(TOKEN_NOT_VALID);
    });

    it('answers a missing or oversized refresh field with 400 and field messages', async () => {
      const missing = await t.api('/api/token/refresh/', { method: 'POST', json: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { refresh: [MESSAGES.fieldRequired] },
      });
      const huge = await refresh('x'.repeat(5000));
      expect(huge.status).toBe(400);
      expect(huge.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { refresh: [MESSAGES.tooLong] },
      });
    });
  });

  describe('G. public endpoints and error bodies (LINE dev mode)', () => {
    it('GET /api/config/ gives the salon name and the emulator as LINE', async () => {
      const result = await t.api('/api/config/');
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        salon_name: 'ネイルサロン Lumière',
        line: { mode: 'dev', login_channel_id: '1000000000', authorize_url: '/dev/line/authorize' },
        settings: {
          cancellation_deadline_days: 1,
          min_notice_minutes: 60,
          max_upcoming_per_customer: 3,
          business_start: '09:00',
          business_end: '21:00',
          // The salon's contact details (empty until the owner fills them in the settings).
          phone_number: '',
          address: '',
          map_url: '',
          opening_hours_text: '',
        },
      });
    });

    it('GET /api/salons/ lists the salon', async () => {
      const result = await t.api('/api/salons/');
      expect(result.status).toBe(200);
      expect(result.body).toEqual([{ id: t.salonId, name: 'ネイルサロン Lumière' }]);
    });

    it('answers an unknown /api/ path with a 404 JSON body', async () => {
      for (const path of ['/api/nothing-here/', '/api/token']) {
        const result = await t.api(path);
        expect(result.status).toBe(404);
        expect(result.headers.get('content-type')).toMatch(/^application\/json/);
        expect(result.body).toEqual({ detail: MESSAGES.notFound, code: 'not_found' });
      }
    });

    it('answers a request without a body with 400 and a Japanese field message', async () => {
      const result = await t.api('/api/token/', { method: 'POST' });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { body: [expect.stringMatching(/[ぁ-んァ-ン]/)] },
      });
    });

    it('answers a malformed JSON body with 400 and a Japanese detail', async () => {
      for (const body of ['{"username": "admin", ', 'null', '"text"', '[]']) {
        const result = await t.api('/api/token/', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        expect(result.status, body).toBe(400);
        expect(result.body.detail, body).toBe(MESSAGES.invalidInput);
        expect(result.body.code, body).toBe('invalid');
      }
    });

    it('answers an unsupported content type with 415 and a Japanese detail', async () => {
      const result = await t.api('/api/token/', {
        method: 'POST',
        body: '<login/>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(result.status).toBe(415);
      expect(result.body).toEqual({ detail: SERVER_MESSAGES.unsupportedMediaType, code: 'unsupported_media_type' });
    });
  });
});

describe(`B. login rate limit on ${testEngine}`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW_SECONDS: '600' } });
    await createStaff(t.database.db, t.salonId, { username: 'suzuki', password: STAFF_PASSWORD });
  });
  afterAll(() => t?.close());

  it('answers the 4th attempt for one login ID from one address with 429 and Retry-After', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await t.login(TEST_ADMIN_USERNAME, 'wrong-password');
      expect(result.status, `attempt ${attempt}`).toBe(401);
      expect(result.body).toEqual(LOGIN_FAILED);
    }
    const fourth = await t.login(TEST_ADMIN_USERNAME, 'wrong-password');
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ detail: SERVER_MESSAGES.tooManyLoginAttempts, code: 'throttled' });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);

    // Even the right password waits now, in any letter case of the same login ID.
    expect((await t.login(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).status).toBe(429);
    expect((await t.login('Admin', TEST_ADMIN_PASSWORD)).status).toBe(429);
  });

  it('cannot be dodged with a forged X-Forwarded-For header (no proxy is trusted by default)', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await t.login('spoofer', 'wrong-password')).status).toBe(401);
    }
    const spoofed = await t.api('/api/token/', {
      method: 'POST',
      json: { username: 'spoofer', password: 'wrong-password' },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(spoofed.status).toBe(429);
    expect(spoofed.body).toEqual({ detail: SERVER_MESSAGES.tooManyLoginAttempts, code: 'throttled' });
  });

  it('does not block another login ID from the same address', async () => {
    const other = await t.login('suzuki', STAFF_PASSWORD);
    expect(other.status).toBe(200);
    const unknown = await t.login('someone-else', 'wrong-password');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(LOGIN_FAILED);
  });

  it('does not count requests refused by validation', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await t.api('/api/token/', { method: 'POST', json: { username: 'validation-only' } })).status).toBe(400);
    }
    expect((await t.login('validation-only', 'x')).status).toBe(401);
  });
});
