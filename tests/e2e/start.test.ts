import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotPath } from '../helpers/browser';
import { freePort } from '../helpers/free-port.mjs';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const root = path.resolve(import.meta.dirname, '..', '..');

/** `npm start` with `env` (on a clean environment, as startServerProcess) that must stop by itself. */
async function startExpectingExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^(DATABASE_URL|LINE_|SMTP_|ADMIN_|JWT_SECRET|DEMO_DATA|PUBLIC_URL|NODE_ENV|TEST_CHEAP_PASSWORD_HASH)/.test(
          key,
        ),
    ),
  );
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...clean, SKIP_BUILD: 'true', HOST: '127.0.0.1', PORT: String(await freePort()), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}

/** A stored-image or temporary file in an upload directory, last modified two hours ago. */
function oldUpload(dir: string, name: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), 'x');
  const when = new Date(Date.now() - 2 * 60 * 60 * 1000);
  fs.utimesSync(path.join(dir, name), when, when);
  return name;
}

async function login(url: string, username: string, password: string) {
  const response = await fetch(`${url}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('npm start runs the server of the sources beside it (docs/decisions/0019-the-server-is-bundled.md)', () => {
  it('rebuilds a server bundle older than the server sources, even with SKIP_BUILD=true', async () => {
    const bundle = path.join(root, 'dist-server', 'server.mjs');
    // Only its date is made old, never its content: servers of other test files may load it at the same moment.
    const longAgo = new Date('2020-01-01T00:00:00Z');
    fs.utimesSync(bundle, longAgo, longAgo);
    const startedAt = Date.now();
    const server = await startServerProcess({ SKIP_BUILD: 'true', DEMO_DATA: 'false' });
    try {
      expect(fs.statSync(bundle).mtimeMs).toBeGreaterThan(startedAt - 1000);
      expect((await fetch(`${server.url}/api/health/`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('npm start on a fresh data directory (embedded PGlite, LINE emulator)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    // From a really empty folder, PGlite's initdb included: the first start a user makes.
    server = await startServerProcess({}, undefined, { initdb: true });
  });
  afterAll(() => server?.stop());

  it('serves the app shell at / and /admin, and the API at /api/salons/', async () => {
    for (const page of ['/', '/admin', '/reserve']) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers.get('content-type'), page).toContain('text/html');
      expect(await response.text(), page).toContain('lang="ja"');
    }
    const salons = await fetch(`${server.url}/api/salons/`);
    expect(salons.status).toBe(200);
    expect(await salons.json()).toEqual([{ id: 1, name: expect.any(String) }]);
    const sw = await fetch(`${server.url}/sw.js`);
    expect(sw.status).toBe(200);
    // index.html and the service worker are revalidated on every load, or clients never see a new version.
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/reserve`)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).status).toBe(200);
    // A lazy chunk that no longer exists (an old client after a deploy) is a 404, never index.html.
    const missingChunk = await fetch(`${server.url}/assets/gone-1234.js`);
    expect(missingChunk.status).toBe(404);
  });

  it('prints where the generated admin password is, and that password logs in', async () => {
    const file = path.join(server.dataDir, 'initial-admin-password.txt');
    expect(server.output()).toContain(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(server.output()).toContain(password);

    const { status, body } = await login(server.url, 'admin', password);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['access', 'refresh']);
    const me = await fetch(`${server.url}/api/admin/me/`, { headers: { authorization: `Bearer ${body.access}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'admin', is_superuser: true });
  });

  it('renders the Japanese shell and the 404 page in Chromium', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.url}/`);
      await page.getByText('ネイルサロン Lumière').first().waitFor();
      await page.screenshot({ path: screenshotPath('start-home-390') });
      await page.goto(`${server.url}/no-such-page`);
      await page.getByText('404 - ページが見つかりません').waitFor();
      await page.screenshot({ path: screenshotPath('start-404-390') });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('keeps the data, the password and the signing secret across a restart, and prints no password again', async () => {
    const password = fs.readFileSync(path.join(server.dataDir, 'initial-admin-password.txt'), 'utf8').trim();
    const before = await login(server.url, 'admin', password);
    await server.stop();
    // What a crash mid-upload leaves: a half-written temporary file and a stored image no row names.
    const uploads = path.join(server.dataDir, 'uploads');
    const leftovers = [
      oldUpload(uploads, '.0123456789abcdef0123456789abcdef.jpg.0123456789ab.tmp'),
      oldUpload(uploads, 'fedcba9876543210fedcba9876543210.png'),
      oldUpload(uploads, 'fedcba9876543210fedcba9876543210-preview.jpg'),
    ];
    server = await startServerProcess({ DATA_DIR: server.dataDir });
    expect(server.output()).not.toContain(password);
    expect(server.output()).toContain(`Removed ${leftovers.length} upload file(s)`);
    expect(fs.readdirSync(uploads)).toEqual([]);
    // The access token issued before the restart is still valid: the JWT secret was kept in DATA_DIR.
    const me = await fetch(`${server.url}/api/admin/me/`, {
      headers: { authorization: `Bearer ${before.body.access}` },
    });
    expect(me.status).toBe(200);
    const salons = (await (await fetch(`${server.url}/api/salons/`)).json()) as unknown[];
    expect(salons).toHaveLength(1);
  });

  it('refuses a second server on the same DATA_DIR before it opens the embedded database', async () => {
    const { code, output } = await startExpectingExit({ DATA_DIR: server.dataDir });
    expect(code, output).toBe(1);
    expect(output).toContain('Another server is already running on this DATA_DIR');
    // The first server is untouched and still answers.
    expect((await fetch(`${server.url}/api/health/`)).status).toBe(200);
  });
});

describe('npm start on PostgreSQL (DATABASE_URL) with ADMIN_PASSWORD', () => {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  const databaseName = `e2e_start_${process.pid}`;
  let server: ServerProcess;

  beforeAll(async () => {
    if (!adminUrl) throw new Error('TEST_POSTGRES_URL is not set: run through `npm test`, which starts PostgreSQL.');
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${databaseName} with (force)`);
    await client.query(`create database ${databaseName}`);
    await client.end();
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    server = await startServerProcess({
      DATABASE_URL: url.toString(),
      ADMIN_PASSWORD: 'e2e-admin-password',
      DEMO_DATA: 'false',
    });
  });
  afterAll(async () => {
    await server?.stop();
    if (!adminUrl) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${databaseName} with (force)`);
    await client.end();
  });

  it('migrates, answers, and logs in with ADMIN_PASSWORD without writing a password file', async () => {
    const salons = await fetch(`${server.url}/api/salons/`);
    expect(salons.status).toBe(200);
    const { status } = await login(server.url, 'admin', 'e2e-admin-password');
    expect(status).toBe(200);
    expect(fs.existsSync(path.join(server.dataDir, 'initial-admin-password.txt'))).toBe(false);
    expect(server.output()).toContain('database: postgres');
  });
});

describe('npm start refuses a configuration it cannot run safely', () => {
  const noStackTrace = (output: string) => expect(output).not.toMatch(/^\s+at /m);

  it('NODE_ENV=production without a LINE channel: one line saying what to set, exit 1', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-refuse-'));
    for (const publicUrl of ['https://salon.example.jp', 'http://127.0.0.1:8080']) {
      const { code, output } = await startExpectingExit({
        NODE_ENV: 'production',
        PUBLIC_URL: publicUrl,
        DATA_DIR: dataDir,
      });
      expect(code, output).toBe(1);
      expect(output).toMatch(
        /NODE_ENV=production and no LINE channel configured; set LINE_LOGIN_CHANNEL_ID and LINE_LOGIN_CHANNEL_SECRET$/m,
      );
      noStackTrace(output);
    }
    // Refused before anything was written.
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('a public PUBLIC_URL without a LINE channel or LINE_EMULATOR=true is refused outside production too', async () => {
    const { code, output } = await startExpectingExit({ PUBLIC_URL: 'https://salon.example.jp' });
    expect(code, output).toBe(1);
    expect(output).toMatch(/https:\/\/salon\.example\.jp is not a loopback address; set LINE_LOGIN_CHANNEL_ID/);
    noStackTrace(output);
  });

  it('a DATA_DIR that cannot take files: one line naming it, exit 1, no stack trace', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-datadir-'));
    const aFile = path.join(parent, 'not-a-directory');
    fs.writeFileSync(aFile, '');
    for (const dataDir of [aFile, path.join(aFile, 'data')]) {
      const { code, output } = await startExpectingExit({ DATA_DIR: dataDir });
      expect(code, output).toBe(1);
      expect(output).toContain(`Cannot write to DATA_DIR ${dataDir}: a file is in the way, not a directory`);
      expect(output.trim().split('\n')).toHaveLength(1);
      noStackTrace(output);
    }
  });
});
