import { createHash, createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../server/db/schema';
import { verifyLineIdToken } from '../../server/integrations/line/id-token';
import { MESSAGES } from '../../src/shared/messages';
import type { TokenPair } from '../../src/shared/schemas/auth';
import { emulatorAuthorize, pkcePair, startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { FAKE_LINE_CHANNEL, randomLineUserId, type IdTokenClaims, useLiveLineLogin } from '../helpers/fake-line';

const LINE_LOGIN_FAILED = { detail: MESSAGES.lineLoginFailed, code: 'line_login_failed' };

/** The emulator derives a test user's LINE id from the name. */
const emulatorLineUserId = (name: string) => `U${createHash('sha256').update(name).digest('hex').slice(0, 32)}`;

const customersWithLineId = (t: TestApp, lineUserId: string) =>
  t.database.db.select().from(customers).where(eq(customers.line_user_id, lineUserId));

describe(`E. LINE login through the built-in emulator on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const callback = (body: Record<string, unknown>) => t.api('/api/line/callback/', { method: 'POST', json: body });

  /** Authorize as `devUser` with PKCE and nonce 'N'; returns what the callback needs. */
  async function authorize(devUser: string) {
    const { verifier, challenge } = pkcePair();
    const { status, code } = await emulatorAuthorize(t, { devUser, nonce: 'N', challenge });
    expect(status).toBe(302);
    expect(code).toBeTruthy();
    return { code: code!, verifier };
  }

  it('round trip: authorize redirects with code and state, the callback gives tokens, /api/me/ shows the customer', async () => {
    const { verifier, challenge } = pkcePair();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: '1000000000',
      redirect_uri: `${t.url}/callback`,
      state: 'xyz',
      scope: 'profile openid',
      nonce: 'N',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      dev_user: 'hanako',
    });
    const response = await fetch(`${t.url}/dev/line/authorize?${query.toString()}`, { redirect: 'manual' });
    await response.arrayBuffer();
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${t.url}/callback`);
    expect([...location.searchParams.keys()].sort()).toEqual(['code', 'state']);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code')!;
    expect(code.length).toBeGreaterThanOrEqual(16);

    const login = await callback({ code, code_verifier: verifier, nonce: 'N', redirect_uri: `${t.url}/callback` });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['access', 'refresh']);

    const me = await t.api('/api/me/', { token: (login.body as unknown as TokenPair).access });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: expect.any(Number),
      name: 'hanako',
      furigana: '',
      email: expect.stringMatching(/@line\.example$/),
      phone_number: '',
      line_display_name: 'hanako',
      line_picture_url: '',
      rebook_prompts_enabled: true,
    });
    const rows = await customersWithLineId(t, emulatorLineUserId('hanako'));
    expect(rows.map((row) => row.id)).toEqual([me.body.id]);
  });

  it('logs the same LINE user in as the same customer every time, and another user as another', async () => {
    const ids: unknown[] = [];
    for (const devUser of ['jiro', 'jiro', 'saburo']) {
      const { code, verifier } = await authorize(devUser);
      const login = await callback({ code, code_verifier: verifier, nonce: 'N', redirect_uri: `${t.url}/callback` });
      expect(login.status).toBe(200);
      const me = await t.api('/api/me/', { token: (login.body as unknown as TokenPair).access });
      expect(me.status).toBe(200);
      ids.push(me.body.id);
    }
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(await customersWithLineId(t, emulatorLineUserId('jiro'))).toHaveLength(1);
  });

  it('refuses a code the second time', async () => {
    const { code, verifier } = await authorize('twice');
    const body = { code, code_verifier: verifier, nonce: 'N', redirect_uri: `${t.url}/callback` };
    expect((await callback(body)).status).toBe(200);
    const second = await callback(body);
    expect(second.status).toBe(401);
    expect(second.body).toEqual(LINE_LOGIN_FAILED);
  });

  const refusals: Array<[string, (input: { code: string; verifier: string; url: string }) => Record<string, unknown>]> =
    [
      [
        'a wrong code_verifier',
        ({ code, url }) => ({ code, code_verifier: pkcePair().verifier, nonce: 'N', redirect_uri: `${url}/callback` }),
      ],
      [
        'no code_verifier although a challenge was sent',
        ({ code, url }) => ({ code, nonce: 'N', redirect_uri: `${url}/callback` }),
      ],
      [
        'a wrong nonce',
        ({ code, verifier, url }) => ({ code, code_verifier: verifier, nonce: 'M', redirect_uri: `${url}/callback` }),
      ],
      [
        'no nonce although the ID token carries one',
        ({ code, verifier, url }) => ({ code, code_verifier: verifier, redirect_uri: `${url}/callback` }),
      ],
      [
        'another redirect_uri',
        ({ code, verifier, url }) => ({ code, code_verifier: verifier, nonce: 'N', redirect_uri: `${url}/elsewhere` }),
      ],
      [
        'an unknown code',
        ({ verifier, url }) => ({
          code: 'not-a-code',
          code_verifier: verifier,
          nonce: 'N',
          redirect_uri: `${url}/callback`,
        }),
      ],
    ];

  it.each(refusals)('refuses %s with 401 line_login_failed and creates no customer', async (name, makeBody) => {
    const devUser = `refused-${randomBytes(4).toString('hex')}`;
    const { code, verifier } = await authorize(devUser);
    const result = await callback(makeBody({ code, verifier, url: t.url }));
    expect(result.status, name).toBe(401);
    expect(result.body).toEqual(LINE_LOGIN_FAILED);
    expect(await customersWithLineId(t, emulatorLineUserId(devUser))).toEqual([]);
  });

  it('answers the token exchange over HTTP like LINE: once per code, only with the channel secret', async () => {
    const channelSecret = createHmac('sha256', t.jwtSecret).update('line-emulator-channel').digest('hex');
    const { code, verifier } = await authorize('over-http');
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${t.url}/callback`,
      client_id: '1000000000',
      client_secret: channelSecret,
      code_verifier: verifier,
    };
    const post = (fields: Record<string, string>) =>
      t.api('/dev/line/oauth2/v2.1/token', {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    const wrongSecret = await post({ ...form, client_secret: 'x' });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body).toEqual({ error: 'invalid_request' });

    const ok = await post(form);
    expect(ok.status).toBe(200);
    const identity = await verifyLineIdToken(ok.body.id_token as string, {
      channelId: '1000000000',
      channelSecret,
      nonce: 'N',
    });
    expect(identity).toMatchObject({ lineUserId: emulatorLineUserId('over-http'), displayName: 'over-http' });

    const reused = await post(form);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers a callback without a code with 400 and a field message', async () => {
    const result = await callback({ code_verifier: pkcePair().verifier });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      detail: MESSAGES.invalidInput,
      code: 'invalid',
      fields: { code: [MESSAGES.fieldRequired] },
    });
  });

  it('shows a Japanese page listing the test users when dev_user is absent', async () => {
    await authorize('list-me');
    await authorize('<b>bold</b>');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: '1000000000',
      redirect_uri: `${t.url}/callback`,
      state: 'xyz',
      nonce: 'N',
    });
    const response = await fetch(`${t.url}/dev/line/authorize?${query.toString()}`, { redirect: 'manual' });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('list-me としてログイン');
    // The approval keeps LINE's parameters, and test user names are escaped.
    expect(html).toContain(`name="redirect_uri" value="${t.url}/callback"`);
    expect(html).toContain('name="state" value="xyz"');
    expect(html).toContain('&#60;b&#62;bold&#60;/b&#62; としてログイン');
    expect(html).not.toContain('<b>bold</b>');
  });

  it('refuses an authorize request for another channel', async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: '999',
      redirect_uri: `${t.url}/callback`,
      dev_user: 'x',
    });
    const response = await fetch(`${t.url}/dev/line/authorize?${query.toString()}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('client_id');
  });
});

describe(`F. LINE login against a fake LINE server (live mode) on ${testEngine}`, () => {
  const { channelId: CHANNEL_ID, channelSecret: CHANNEL_SECRET } = FAKE_LINE_CHANNEL;
  const PUBLIC_URL = 'https://salon.example';
  const line = useLiveLineLogin({ PUBLIC_URL });

  const redirectUri = () => `${line.app.url}/callback`;
  const callback = (body: Record<string, unknown>) =>
    line.app.api('/api/line/callback/', { method: 'POST', json: body });

  /** A code at the fake bound to this redirect URI and verifier, whose exchange yields `idToken`. */
  function codeFor(idToken: string, verifier: string, redirect = redirectUri()) {
    return line.fake.issueCode({ idToken, redirectUri: redirect, codeVerifier: verifier });
  }

  it('runs in live mode: no emulator, and /api/config/ points at LINE', async () => {
    const authorize = await line.app.api(`/dev/line/authorize?response_type=code&client_id=${CHANNEL_ID}&dev_user=x`, {
      redirect: 'manual',
    });
    expect(authorize.status).toBe(404);
    expect(authorize.body).toEqual({ detail: MESSAGES.notFound, code: 'not_found' });
    const token = await line.app.api('/dev/line/oauth2/v2.1/token', {
      method: 'POST',
      body: 'code=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(404);

    const config = await line.app.api('/api/config/');
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      salon_name: 'ネイルサロン Lumière',
      line: { mode: 'live', login_channel_id: CHANNEL_ID, authorize_url: `${line.fake.url}/oauth2/v2.1/authorize` },
      settings: expect.objectContaining({ business_start: '09:00', business_end: '21:00' }),
    });
  });

  it('the fake refuses what LINE refuses (so a success below proves what the app sent)', async () => {
    const idToken = await line.fake.signIdToken({ sub: randomLineUserId() });
    const good = {
      grant_type: 'authorization_code',
      redirect_uri: 'https://x.example/cb',
      client_id: CHANNEL_ID,
      client_secret: CHANNEL_SECRET,
      code_verifier: 'v'.repeat(43),
    };
    for (const bad of [
      { client_secret: 'wrong' },
      { client_id: '1' },
      { grant_type: 'password' },
      { redirect_uri: 'https://y.example/cb' },
      { code_verifier: 'w'.repeat(43) },
    ]) {
      const code = line.fake.issueCode({ idToken, redirectUri: good.redirect_uri, codeVerifier: good.code_verifier });
      const response = await fetch(`${line.fake.url}/oauth2/v2.1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...good, ...bad, code }),
      });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
    }
    const code = line.fake.issueCode({ idToken, redirectUri: good.redirect_uri, codeVerifier: good.code_verifier });
    const ok = await fetch(`${line.fake.url}/oauth2/v2.1/token`, {
      method: 'POST',
      body: new URLSearchParams({ ...good, code }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id_token: idToken });
  });

  it('(1) exchanges the code exactly as LINE expects and logs the customer in', async () => {
    const sub = randomLineUserId();
    const picture = 'https://profile.line-scdn.net/0h-example';
    const idToken = await line.fake.signIdToken({ sub, name: '山田 花子', picture, nonce: 'nonce-1' });
    const { verifier } = pkcePair();
    const code = codeFor(idToken, verifier);
    const before = line.fake.requests.length;

    const login = await callback({ code, code_verifier: verifier, nonce: 'nonce-1', redirect_uri: redirectUri() });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['access', 'refresh']);

    const sent = line.fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/oauth2/v2.1/token', responseStatus: 200 });
    expect(sent[0]!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent[0]!.form).toEqual({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(),
      client_id: CHANNEL_ID,
      client_secret: CHANNEL_SECRET,
      code_verifier: verifier,
    });

    const me = await line.app.api('/api/me/', { token: (login.body as unknown as TokenPair).access });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: '山田 花子', line_display_name: '山田 花子', line_picture_url: picture });
    const rows = await customersWithLineId(line.app, sub);
    expect(rows.map((row) => row.id)).toEqual([me.body.id]);

    // LINE renamed the user: the profile follows LINE, the customer stays one row.
    const renamed = await line.fake.signIdToken({ sub, name: '山田 はなこ', picture, nonce: 'nonce-2' });
    const second = pkcePair();
    const again = await callback({
      code: codeFor(renamed, second.verifier),
      code_verifier: second.verifier,
      nonce: 'nonce-2',
      redirect_uri: redirectUri(),
    });
    expect(again.status).toBe(200);
    const after = await customersWithLineId(line.app, sub);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: me.body.id, line_display_name: '山田 はなこ', name: '山田 花子' });
  });

  it('uses PUBLIC_URL/callback when the browser sends no redirect_uri', async () => {
    const sub = randomLineUserId();
    const idToken = await line.fake.signIdToken({ sub, name: 'デフォルト' });
    const { verifier } = pkcePair();
    const code = codeFor(idToken, verifier, `${PUBLIC_URL}/callback`);
    const before = line.fake.requests.length;
    const login = await callback({ code, code_verifier: verifier });
    expect(login.status).toBe(200);
    expect(line.fake.requests[before]?.form.redirect_uri).toBe(`${PUBLIC_URL}/callback`);
  });

  const badTokens: Array<[string, (sub: string) => Promise<string>]> = [
    [
      '(2) an ID token for another channel (aud)',
      (sub) => line.fake.signIdToken({ sub, aud: '9999999999', nonce: 'n' }),
    ],
    [
      '(3) an ID token signed with another secret',
      (sub) => line.fake.signIdToken({ sub, nonce: 'n' }, { secret: 'another-channel-secret' }),
    ],
    [
      '(4) an expired ID token',
      (sub) => {
        const nowSeconds = Math.floor(Date.now() / 1000);
        return line.fake.signIdToken({ sub, nonce: 'n', iat: nowSeconds - 7200, exp: nowSeconds - 3600 });
      },
    ],
    [
      'an ID token from another issuer',
      (sub) => line.fake.signIdToken({ sub, nonce: 'n', iss: 'https://evil.example' }),
    ],
    ['an ID token with another nonce', (sub) => line.fake.signIdToken({ sub, nonce: 'other' })],
    ['an HS512 ID token', (sub) => line.fake.signIdToken({ sub, nonce: 'n' }, { alg: 'HS512' })],
    [
      'an alg:none ID token',
      async (sub) => {
        const valid = await line.fake.signIdToken({ sub, nonce: 'n' });
        return `${Buffer.from('{"alg":"none"}').toString('base64url')}.${valid.split('.')[1]}.`;
      },
    ],
    ['something that is not a JWT', async () => 'not-a-jwt'],
  ];

  it.each(badTokens)('refuses %s with 401 and creates no customer', async (_name, makeToken) => {
    const sub = randomLineUserId();
    const { verifier } = pkcePair();
    const code = codeFor(await makeToken(sub), verifier);
    const before = line.fake.requests.length;
    const result = await callback({ code, code_verifier: verifier, nonce: 'n', redirect_uri: redirectUri() });
    expect(result.status).toBe(401);
    expect(result.body).toEqual(LINE_LOGIN_FAILED);
    // The exchange itself succeeded: the refusal is the app's verification of the ID token.
    expect(line.fake.requests[before]?.responseStatus).toBe(200);
    expect(await customersWithLineId(line.app, sub)).toEqual([]);
  });

  it('accepts the same token shape when it is right (the refusals above differ by one thing)', async () => {
    const sub = randomLineUserId();
    const { verifier } = pkcePair();
    const code = codeFor(await line.fake.signIdToken({ sub, nonce: 'n' }), verifier);
    expect((await callback({ code, code_verifier: verifier, nonce: 'n', redirect_uri: redirectUri() })).status).toBe(
      200,
    );
    expect(await customersWithLineId(line.app, sub)).toHaveLength(1);
  });

  it('(5) answers LINE refusing the code (400 invalid_grant) with 401 line_login_failed', async () => {
    const sub = randomLineUserId();
    const idToken = await line.fake.signIdToken({ sub, nonce: 'n' });
    const { verifier } = pkcePair();
    const cases = [
      { code: 'unknown-code', code_verifier: verifier },
      { code: codeFor(idToken, verifier), code_verifier: pkcePair().verifier },
      { code: codeFor(idToken, verifier, 'https://elsewhere.example/callback'), code_verifier: verifier },
    ];
    for (const body of cases) {
      const before = line.fake.requests.length;
      const result = await callback({ ...body, nonce: 'n', redirect_uri: redirectUri() });
      expect(line.fake.requests[before]?.responseStatus).toBe(400);
      expect(result.status).toBe(401);
      expect(result.body).toEqual(LINE_LOGIN_FAILED);
    }
    // A code works once at LINE: the second exchange of a good code is refused.
    const code = codeFor(idToken, verifier);
    expect((await callback({ code, code_verifier: verifier, nonce: 'n', redirect_uri: redirectUri() })).status).toBe(
      200,
    );
    const reused = await callback({ code, code_verifier: verifier, nonce: 'n', redirect_uri: redirectUri() });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual(LINE_LOGIN_FAILED);
  });

  it('(6) answers LINE failing (500) with 502 line_unavailable', async () => {
    const sub = randomLineUserId();
    const { verifier } = pkcePair();
    const code = codeFor(await line.fake.signIdToken({ sub, nonce: 'n' } satisfies IdTokenClaims), verifier);
    line.fake.failNext(500, { error: 'server_error' });
    const before = line.fake.requests.length;
    const result = await callback({ code, code_verifier: verifier, nonce: 'n', redirect_uri: redirectUri() });
    expect(line.fake.requests[before]?.responseStatus).toBe(500);
    expect(result.status).toBe(502);
    expect(result.body).toEqual({ detail: MESSAGES.lineLoginFailed, code: 'line_unavailable' });
    expect(await customersWithLineId(line.app, sub)).toEqual([]);
  });
});
