import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorAuthorize, loginWithEmulator, startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';

/** GET /dev/line/authorize without following the redirect. */
async function authorize(t: TestApp, redirectUri: string, devUser?: string) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: '1000000000',
    redirect_uri: redirectUri,
    state: 's',
  });
  if (devUser) query.set('dev_user', devUser);
  const response = await fetch(`${t.url}/dev/line/authorize?${query.toString()}`, { redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

describe(`the LINE emulator on a loopback address (no LINE_EMULATOR) on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // LINE_EMULATOR empty is unset: the emulator runs because the address is this machine's.
    t = await startTestApp({ env: { LINE_EMULATOR: '' } });
  });
  afterAll(() => t?.close());

  it('logs in as before and redirects to both of the app’s callbacks', async () => {
    expect(t.env.lineDevMode).toBe(true);
    const tokens = await loginWithEmulator(t, 'loopback-user');
    expect((await t.api('/api/me/', { token: tokens.access })).status).toBe(200);
    for (const callback of ['/callback', '/admin/callback']) {
      const { status, location, code } = await emulatorAuthorize(t, {
        devUser: 'staff',
        redirectUri: `${t.url}${callback}`,
      });
      expect(status, callback).toBe(302);
      expect(location!.startsWith(`${t.url}${callback}?`), callback).toBe(true);
      expect(code).toBeTruthy();
    }
    expect((await t.api('/dev/mail')).status).toBe(200);
  });

  it('refuses any other redirect_uri with a 400 page, never a redirect', async () => {
    const foreign = [
      'https://evil.example/callback',
      'http://evil.example/admin/callback',
      `${t.url}/elsewhere`,
      `${t.url}/callback?next=https://evil.example`,
      `${t.url}/callback#x`,
      `${t.url.replace('127.0.0.1', 'user@127.0.0.1')}/callback`,
      // Another port on this machine is another program, not the app.
      'http://127.0.0.1:1/callback',
    ];
    for (const redirectUri of foreign) {
      for (const devUser of ['mallory', undefined]) {
        const response = await authorize(t, redirectUri, devUser);
        expect(response.status, `${redirectUri} ${devUser}`).toBe(400);
        expect(response.location, redirectUri).toBeNull();
        expect(response.text).toContain('redirect_uri がこのアプリのコールバックではありません');
        expect(response.text).not.toContain('evil.example');
      }
    }
  });
});

describe(`the LINE emulator on a loopback PUBLIC_URL but a HOST others reach on ${testEngine}`, () => {
  it('does not start by itself: the server refuses to start and says what to set', async () => {
    for (const HOST of ['0.0.0.0', '::']) {
      await expect(
        startTestApp({ env: { LINE_EMULATOR: '', HOST, PUBLIC_URL: 'http://localhost:8080' } }),
        HOST,
      ).rejects.toThrow(`HOST=${HOST} is not a loopback address`);
    }
  });

  it('runs when LINE_EMULATOR=true asks for it', async () => {
    const t = await startTestApp({
      env: { LINE_EMULATOR: 'true', HOST: '0.0.0.0', PUBLIC_URL: 'http://localhost:8080' },
    });
    try {
      expect(t.env.lineDevMode).toBe(true);
      expect((await t.api('/dev/mail')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe(`the LINE emulator on a public address with LINE_EMULATOR=true (a staging server) on ${testEngine}`, () => {
  const PUBLIC_URL = 'https://staging.salon.example.jp';
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL, LINE_EMULATOR: 'true' } });
  });
  afterAll(() => t?.close());

  it('redirects to the callbacks on PUBLIC_URL and on the address it was reached at, nowhere else', async () => {
    for (const redirectUri of [`${PUBLIC_URL}/callback`, `${PUBLIC_URL}/admin/callback`, `${t.url}/callback`]) {
      const response = await authorize(t, redirectUri, 'tester');
      expect(response.status, redirectUri).toBe(302);
      expect(new URL(response.location!).origin).toBe(new URL(redirectUri).origin);
    }
    for (const redirectUri of [
      'https://staging.salon.example.jp.evil.example/callback',
      'http://staging.salon.example.jp/callback',
      'https://evil.example/callback',
      'http://localhost:5173/callback',
    ]) {
      const response = await authorize(t, redirectUri, 'tester');
      expect(response.status, redirectUri).toBe(400);
      expect(response.location).toBeNull();
    }
  });
});

describe(`LINE_EMULATOR=true with NODE_ENV=production on ${testEngine}`, () => {
  it('does not start: the salon’s real server never runs the emulator by a flag', async () => {
    await expect(
      startTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://salon.example.jp', LINE_EMULATOR: 'true' } }),
    ).rejects.toThrow(
      'LINE_EMULATOR: the emulator (anyone can log in as any LINE user) never runs with NODE_ENV=production',
    );
  });
});

describe(`with a LINE channel configured on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://salon.example.jp',
        LINE_LOGIN_CHANNEL_ID: '1234567890',
        LINE_LOGIN_CHANNEL_SECRET: 'channel-secret',
      },
    });
  });
  afterAll(() => t?.close());

  it('has no emulator and no /dev pages (404)', async () => {
    expect(t.env.lineDevMode).toBe(false);
    const query =
      'response_type=code&client_id=1000000000&redirect_uri=https%3A%2F%2Fsalon.example.jp%2Fcallback&dev_user=x';
    for (const path of ['/dev/line/authorize?' + query, '/dev/mail', '/dev/line/inbox?format=json', '/dev/line/send']) {
      const response = await t.api(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('location')).toBeNull();
    }
    const token = await t.api('/dev/line/oauth2/v2.1/token', { method: 'POST', body: 'grant_type=authorization_code' });
    expect(token.status).toBe(404);
  });
});
