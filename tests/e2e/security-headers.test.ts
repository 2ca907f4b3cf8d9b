/**
 * Security headers and CSP on every kind of response (issue 8), the production build's hygiene, and the dev
 * routes' presence only in dev mode. Runs the real server (`npm start`) on the build `npm test` made.
 * - Every page (the SPA's routes, /admin), static asset, API answer (success and error) and media file carries
 *   the CSP and the other headers; the CSP allows scripts from this origin only, and the built index.html has
 *   no inline script that such a policy would block (so the policy and the app agree).
 * - dist/ has no source maps and no sourceMappingURL comment.
 * - /dev/* (LINE emulator, inbox, dev mailbox) exists in dev mode only: with a LINE channel configured every one
 *   of those paths is a 404, and the CSP lets forms go to LINE's login origin.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const dist = path.resolve(import.meta.dirname, '..', '..', 'dist');
const DEV_ROUTES: Array<[string, string]> = [
  ['GET', '/dev/mail'],
  ['GET', '/dev/line/inbox'],
  [
    'GET',
    '/dev/line/authorize?response_type=code&client_id=1000000000&redirect_uri={origin}%2Fcallback&state=s&scope=openid',
  ],
  ['GET', '/dev/line/send'],
  ['POST', '/dev/line/send'],
  ['POST', '/dev/line/oauth2/v2.1/token'],
];

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

/** What every response of the app carries, whatever it is. */
function expectBaseHeaders(label: string, headers: Headers) {
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('x-powered-by'), label).toBeNull();
  expect(headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options'), label).toMatch(/^(DENY|SAMEORIGIN)$/);
  expect(headers.get('cross-origin-opener-policy'), label).toBe('same-origin');
  expect(headers.get('cross-origin-resource-policy'), label).toBe('same-origin');
  const csp = directives(headers.get('content-security-policy'));
  expect(Object.keys(csp).length, `${label}: a CSP`).toBeGreaterThan(0);
  // Whatever the rest says, no plugin content runs (X-Frame-Options above keeps other sites from framing it).
  expect(csp['object-src'] ?? csp['default-src'], label).toEqual(["'none'"]);
}

/** The app's own policy (pages, assets, API): scripts from this origin only, no eval, no inline script. */
function expectAppPolicy(label: string, headers: Headers) {
  const csp = directives(headers.get('content-security-policy'));
  expect(csp['default-src'], label).toEqual(["'self'"]);
  expect(csp['script-src'], label).toEqual(["'self'"]);
  expect(csp['object-src'], label).toEqual(["'none'"]);
  expect(csp['base-uri'], label).toEqual(["'self'"]);
  expect(csp['frame-ancestors'], label).toEqual(["'none'"]);
  expect(csp['connect-src'], label).toEqual(["'self'"]);
  for (const [name, values] of Object.entries(csp)) {
    expect(values, `${label}: ${name}`).not.toContain("'unsafe-eval'");
    if (name === 'script-src' || name === 'default-src') expect(values, label).not.toContain("'unsafe-inline'");
    expect(values, `${label}: ${name}`).not.toContain('*');
  }
}

describe('the production build', () => {
  it('exists (npm test builds it first) and has no source maps', () => {
    expect(fs.existsSync(path.join(dist, 'index.html')), 'dist/index.html: run `npm run build`').toBe(true);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else files.push(full);
      }
    };
    walk(dist);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    const withMapComment = files.filter(
      (file) => /\.(m?js|css|html)$/.test(file) && fs.readFileSync(file, 'utf8').includes('sourceMappingURL'),
    );
    expect(withMapComment).toEqual([]);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
  });

  it('has no inline script in index.html (the CSP allows none)', () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes, 'every script has a src').toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
    // No inline event handler attributes either (they are inline script to a CSP).
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });
});

describe('headers on every kind of response (dev mode)', () => {
  let server: ServerProcess;
  let mediaName: string;

  beforeAll(async () => {
    server = await startServerProcess({
      SKIP_BUILD: 'true',
      DEMO_DATA: 'false',
      ADMIN_PASSWORD: 'headers-admin-password',
    });
    // A stored image, as an upload leaves it: served by /media/ with a policy of its own.
    mediaName = `${randomBytes(16).toString('hex')}.png`;
    fs.mkdirSync(path.join(server.dataDir, 'uploads'), { recursive: true });
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    fs.writeFileSync(path.join(server.dataDir, 'uploads', mediaName), png);
  });
  afterAll(() => server?.stop());

  it('on the pages of the SPA, its assets and the service worker', async () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const page of [
      '/',
      '/login',
      '/reserve',
      '/callback',
      '/reservations/abc',
      '/admin',
      '/admin/reservations',
      '/no-such-page',
      '/sw.js',
      ...assets,
    ]) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      expectBaseHeaders(page, response.headers);
      expectAppPolicy(page, response.headers);
      await response.arrayBuffer();
    }
  });

  it('sends the app shell and its scripts compressed to a browser that accepts it, as they were built', async () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const script = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!)[0]!;
    const raw = fs.readFileSync(path.join(dist, script));
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      // node:http rather than fetch: fetch would decode the body and hide what was on the wire.
      const response = await rawGet(`${server.url}${script}`, accept);
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers.vary).toContain('accept-encoding');
      const decoded = encoding === 'br' ? zlib.brotliDecompressSync(response.body) : zlib.gunzipSync(response.body);
      expect(decoded.equals(raw)).toBe(true);
      expect(response.body.length).toBeLessThan(raw.length / 2);
    }
    const plain = await rawGet(`${server.url}${script}`, '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);
    expect((await rawGet(`${server.url}/reserve`, 'gzip')).headers['content-encoding']).toBe('gzip');
  });

  it('on API answers, successes and errors alike', async () => {
    const login = await fetch(`${server.url}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'headers-admin-password' }),
    });
    expect(login.status).toBe(200);
    const { access } = (await login.json()) as { access: string };
    const calls: Array<[string, RequestInit, number]> = [
      ['/api/config/', {}, 200],
      ['/api/salons/', {}, 200],
      ['/api/admin/me/', { headers: { authorization: `Bearer ${access}` } }, 200],
      ['/api/admin/me/', {}, 401],
      ['/api/admin/users/', { headers: { authorization: 'Bearer nope' } }, 401],
      ['/api/no-such-endpoint/', {}, 404],
      ['/api/token/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }, 400],
      ['/assets/missing-chunk-123.js', {}, 404],
    ];
    for (const [url, init, status] of calls) {
      const response = await fetch(`${server.url}${url}`, init);
      expect(response.status, url).toBe(status);
      expect(response.headers.get('content-type'), url).toContain('application/json');
      expectBaseHeaders(url, response.headers);
      expectAppPolicy(url, response.headers);
      await response.arrayBuffer();
    }
  });

  it('on media: the sniffed type, nosniff, and a policy that runs nothing', async () => {
    const image = await fetch(`${server.url}/media/${mediaName}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expectBaseHeaders('/media', image.headers);
    const csp = directives(image.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(Object.keys(csp)).toContain('sandbox');
    await image.arrayBuffer();
    const missing = await fetch(`${server.url}/media/${'0'.repeat(32)}.png`);
    expect(missing.status).toBe(404);
    expectBaseHeaders('/media missing', missing.headers);
    await missing.arrayBuffer();
  });

  it('on the dev pages, which exist in dev mode', async () => {
    for (const [method, route] of DEV_ROUTES.filter(([m]) => m === 'GET')) {
      // The emulator sends people back only to this app's own callback.
      const url = route.replace('{origin}', encodeURIComponent(server.url));
      const response = await fetch(`${server.url}${url}`, { method, redirect: 'manual' });
      expect(response.status, url).toBe(200);
      expectBaseHeaders(url, response.headers);
      expectAppPolicy(url, response.headers);
      await response.arrayBuffer();
    }
  });
});

describe('with a LINE channel configured', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess({
      SKIP_BUILD: 'true',
      DEMO_DATA: 'false',
      ADMIN_PASSWORD: 'headers-admin-password',
      LINE_LOGIN_CHANNEL_ID: '1234567890',
      LINE_LOGIN_CHANNEL_SECRET: 'line-login-channel-secret-for-tests',
      LINE_MESSAGING_CHANNEL_SECRET: 'line-messaging-channel-secret',
      LINE_MESSAGING_ACCESS_TOKEN: 'line-messaging-access-token',
    });
  });
  afterAll(() => server?.stop());

  it('has no /dev/ route at all: every one is a 404', async () => {
    const config = (await (await fetch(`${server.url}/api/config/`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(config)).toContain('live');
    for (const [method, route] of DEV_ROUTES) {
      const url = route.replace('{origin}', encodeURIComponent(server.url));
      const response = await fetch(`${server.url}${url}`, {
        method,
        redirect: 'manual',
        headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        body: method === 'POST' ? 'user=U1&text=x&grant_type=authorization_code&code=x' : undefined,
      });
      expect(response.status, `${method} ${url}`).toBe(404);
      expect(response.headers.get('content-type'), url).toContain('application/json');
      expect(await response.text(), url).not.toMatch(/エミュレーター|メールボックス|LINE受信箱/);
    }
    // Nor does the SPA fall back to index.html for them.
    const page = await fetch(`${server.url}/dev/line/authorize`);
    expect(page.status).toBe(404);
    await page.arrayBuffer();
  });

  it('keeps the same policy on pages, and lets forms go to LINE’s login origin only', async () => {
    for (const url of ['/', '/login', '/admin', '/api/config/']) {
      const response = await fetch(`${server.url}${url}`);
      expect(response.status, url).toBe(200);
      expectBaseHeaders(url, response.headers);
      expectAppPolicy(url, response.headers);
      expect(directives(response.headers.get('content-security-policy'))['form-action'], url).toEqual([
        "'self'",
        'https://access.line.me',
      ]);
      await response.arrayBuffer();
    }
  });
});

function rawGet(url: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}
