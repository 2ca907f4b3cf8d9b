/**
 * Setup of the offline suites (issue 7, tests/e2e/offline-*.test.ts): the real server (`npm start`) on a fresh
 * PostgreSQL database, so that the test can read the server's rows (reservations, customers, idempotency_keys,
 * notifications_outbox) with SQL; a small HTTP proxy in front of it that the browser talks to; and a persistent
 * Chromium profile per test, so that IndexedDB, the service worker and its caches survive reloads and restarts.
 *
 * The proxy forwards every request unchanged. Tests use it for two things a browser cannot be made to do:
 *   - `block(test)`: requests that match get their connection reset (a network failure while the device still
 *     believes it is online: a flaky Wi-Fi), so that a change is queued without an `offline` event;
 *   - `hold(test)`: requests that match get no answer at all while the connection stays up (a "black hole": a phone
 *     with signal and nothing coming back); `hold(null)` lets them through, late, as a network that recovers does;
 *   - `nextServiceWorker(tag)`: /sw.js is answered with the real file plus a comment, byte-different, which is
 *     exactly what a browser sees after a deployment of a new build (see offline-update.test.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchPersistentChromium } from '../../helpers/browser';
import { freePort } from '../../helpers/free-port.mjs';
import { startServerProcess, type ServerProcess } from '../../helpers/server-process';

export const SALON_TZ = 'Asia/Tokyo';
export const ADMIN_PASSWORD = 'offline-admin-password-42';

export interface Proxy {
  url: string;
  block(test: ((method: string, url: string) => boolean) | null): void;
  hold(test: ((method: string, url: string) => boolean) | null): void;
  nextServiceWorker(tag: string | null): void;
  /** Every request that passed, as "METHOD /path?query". */
  seen: string[];
  close(): Promise<void>;
}

export async function startProxy(upstream: string): Promise<Proxy> {
  const target = new URL(upstream);
  let blocked: ((method: string, url: string) => boolean) | null = null;
  let holding: ((method: string, url: string) => boolean) | null = null;
  const held: (() => void)[] = [];
  let swTag: string | null = null;
  const seen: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (blocked?.(req.method ?? 'GET', url)) {
      req.socket.destroy();
      return;
    }
    if (holding?.(req.method ?? 'GET', url)) {
      // The body is read now (the browser gives up on the request long before it is let through).
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise((resolve) => req.on('end', resolve));
      held.push(() => {
        void ended.then(() => {
          seen.push(`${req.method} ${url}`);
          const late = http.request(
            { host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers },
            (answer) => {
              if (res.destroyed) answer.resume();
              else {
                res.writeHead(answer.statusCode ?? 502, answer.headers);
                answer.pipe(res);
              }
            },
          );
          late.on('error', () => res.destroy());
          late.end(Buffer.concat(chunks));
        });
      });
      return;
    }
    seen.push(`${req.method} ${url}`);
    const rewriteWorker = swTag !== null && url.split('?')[0] === '/sw.js';
    const headers = { ...req.headers };
    if (rewriteWorker) {
      // The browser revalidates with the old version's validators; a 304 would hide the new build.
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
      // The comment is appended to the plain file: ask for it uncompressed (the server sends .br/.gz siblings).
      delete headers['accept-encoding'];
    }
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: url, headers },
      (answer) => {
        if (rewriteWorker && answer.statusCode === 200) {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat([
              Buffer.from(Buffer.concat(chunks).toString('utf8')),
              Buffer.from(`\n// ${swTag}\n`),
            ]);
            const headers = { ...answer.headers, 'content-length': String(body.length) };
            delete headers.etag;
            delete headers['last-modified'];
            res.writeHead(200, headers);
            res.end(body);
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    block: (test) => {
      blocked = test;
      // Kept-alive connections would otherwise carry on as if nothing happened.
      if (test) for (const socket of sockets) socket.destroy();
    },
    hold: (test) => {
      holding = test;
      if (test) for (const socket of sockets) socket.destroy();
      else for (const release of held.splice(0)) release();
    },
    nextServiceWorker: (tag) => {
      swTag = tag;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface OfflineWorld {
  server: ServerProcess;
  proxy: Proxy;
  /** The proxy's address: what the browser opens. */
  url: string;
  db: pg.Pool;
  salonId: number;
  adminId: number;
  serviceId: number;
  profiles: string[];
  /** A new persistent Chromium profile directory (removed at stop). */
  newProfile(): string;
  stop(): Promise<void>;
}

/** The server process on a new database of the test PostgreSQL, with a known superuser password. */
export async function startOfflineWorld(env: Record<string, string> = {}): Promise<OfflineWorld> {
  const adminUrl = process.env.TEST_POSTGRES_URL;
  if (!adminUrl) throw new Error('TEST_POSTGRES_URL is not set: run through `npm test`, which starts PostgreSQL.');
  const name = `offline_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${name}`;

  const server = await startServerProcess({
    DATABASE_URL: databaseUrl.toString(),
    ADMIN_PASSWORD,
    DEMO_DATA: 'false',
    SALON_TZ,
    ...env,
  });
  const proxy = await startProxy(server.url);
  const db = new pg.Pool({ connectionString: databaseUrl.toString(), max: 4 });
  // pool.end() resolves before its idle connections have closed; the `drop database ... with (force)` in stop() may
  // then terminate one, and the pool reports that as an 'error' event: unheard, an uncaught exception of the test file.
  db.on('error', () => {});
  const { rows: salons } = await db.query<{ id: number }>('select id from salons order by id limit 1');
  const { rows: admins } = await db.query<{ id: number }>("select id from staff_users where username = 'admin'");
  const { rows: services } = await db.query<{ id: number }>(
    "insert into services (salon_id, name, price, duration_minutes) values ($1, 'ジェルネイル', 6000, 60) returning id",
    [salons[0]!.id],
  );
  const profiles: string[] = [];
  return {
    server,
    proxy,
    url: proxy.url,
    db,
    salonId: salons[0]!.id,
    adminId: admins[0]!.id,
    serviceId: services[0]!.id,
    profiles,
    newProfile: () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'salon-profile-'));
      profiles.push(dir);
      return dir;
    },
    stop: async () => {
      await proxy.close();
      await server.stop();
      await db.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
      for (const dir of profiles) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts an offline world before the suite's tests (before the suite's own beforeAll) and stops it after them. Call
 * it in the describe; the world's fields are there once beforeAll has run.
 */
export function useOfflineWorld(env: Record<string, string> = {}): OfflineWorld {
  const world = {} as OfflineWorld;
  beforeAll(async () => {
    Object.assign(world, await startOfflineWorld(env));
  });
  afterAll(async () => {
    await world.stop?.();
  });
  return world;
}

/** `yyyy-MM-dd` in the salon's zone, `days` from today. */
export function salonDate(days: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: SALON_TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + days * 24 * 60 * 60_000));
}

export async function insertCustomer(
  world: OfflineWorld,
  input: { name: string; furigana?: string; email?: string; notes?: string },
): Promise<number> {
  const { rows } = await world.db.query<{ id: number }>(
    `insert into customers (salon_id, name, furigana, email, notes, assigned_staff_id)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [world.salonId, input.name, input.furigana ?? '', input.email ?? '', input.notes ?? '', world.adminId],
  );
  return rows[0]!.id;
}

export interface SeededReservation {
  id: number;
  number: string;
  /** The short 予約コード staff screens show. */
  code: string;
}

/** A 60-minute reservation with the superuser at `time` (salon-local) on `date`. */
export async function insertReservation(
  world: OfflineWorld,
  input: { customerId: number; customerName: string; date: string; time: string; status?: string; email?: string },
): Promise<SeededReservation> {
  const { rows } = await world.db.query<{ id: number; reservation_number: string; reservation_code: string }>(
    `insert into reservations (salon_id, staff_id, customer_id, service_id, start_time, end_time, status,
       service_name, price, duration_minutes, customer_name, customer_email, created_by)
     values ($1, $2, $3, $4, ($5::date + $6::time) at time zone $7, ($5::date + $6::time + interval '60 minutes') at time zone $7,
       $8, 'ジェルネイル', 6000, 60, $9, $10, 'customer')
     returning id, reservation_number, reservation_code`,
    [
      world.salonId,
      world.adminId,
      input.customerId,
      world.serviceId,
      input.date,
      input.time,
      SALON_TZ,
      input.status ?? 'pending',
      input.customerName,
      input.email ?? '',
    ],
  );
  return { id: rows[0]!.id, number: rows[0]!.reservation_number, code: rows[0]!.reservation_code };
}

/** The superuser's token, for changes made "elsewhere" (another device) during a test. */
export async function adminToken(world: OfflineWorld): Promise<string> {
  const response = await fetch(`${world.server.url}/api/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access: string }).access;
}

export async function openProfile(
  world: OfflineWorld,
  profile: string,
  options: { offline?: boolean; initScript?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await launchPersistentChromium(profile, {
    viewport: { width: 1180, height: 820 },
    locale: 'ja-JP',
    timezoneId: SALON_TZ,
    offline: options.offline ?? false,
  });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.warn(`[page error] ${error.message}`));
  return { context, page };
}

/** Signs in as the superuser and waits until the service worker controls the page and the first sync is done. */
export async function signInAndSync(world: OfflineWorld, page: Page): Promise<void> {
  await page.goto(`${world.url}/admin`);
  await page.getByLabel(/^ログインID\s*\*?$/).fill('admin');
  await page.getByLabel(/^パスワード\s*\*?$/).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await page.getByRole('heading', { name: '予約確認' }).waitFor();
  // Each wait reports itself when it is slow, so that a slow CI run says which wait it was (a worker taking over
  // takes 5–6 s in some runs on a loaded machine).
  await reportIfSlow('the service worker controlling the page', () => waitForWorker(page));
  await reportIfSlow('the first sync', () =>
    expect.poll(() => page.getByTestId('last-sync').textContent(), { timeout: 30_000 }).toMatch(/^最終同期 \d\d:\d\d$/),
  );
}

/** Runs `wait`, and logs how long it took when that was over 5 s (a slow CI run then says where its time went). */
export async function reportIfSlow(what: string, wait: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await wait();
  const ms = Math.round(performance.now() - started);
  if (ms > 5000) console.log(`slow wait: ${what} took ${ms} ms`);
}

/** The service worker is installed, active and controls this page (its precache is then complete). */
export async function waitForWorker(page: Page): Promise<void> {
  await page.waitForFunction(
    `navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller))`,
    undefined,
    {
      timeout: 30_000,
    },
  );
}

/**
 * One request on one object store of the app's IndexedDB, made in the page without the app's code. (Strings: this
 * runs in the page, and the e2e project is type-checked without the DOM library.)
 */
function idbRequest<T>(page: Page, store: string, request: 'getAll()' | 'count()'): Promise<T> {
  return page.evaluate<T>(`new Promise((resolve, reject) => {
    const open = indexedDB.open('salon-staff');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction(${JSON.stringify(store)}, 'readonly').objectStore(${JSON.stringify(store)}).${request};
      request.onsuccess = () => {
        resolve(request.result);
        open.result.close();
      };
      request.onerror = () => reject(request.error);
    };
  })`);
}

/** Rows of one object store of the app's IndexedDB. */
export function idbRows<T = Record<string, unknown>>(page: Page, store: string): Promise<T[]> {
  return idbRequest<T[]>(page, store, 'getAll()');
}

export function idbCount(page: Page, store: string): Promise<number> {
  return idbRequest<number>(page, store, 'count()');
}

/** The shell's 未送信 counter ("未送信 N件"), or 0 when the shell shows none. */
export async function outboxBadge(page: Page): Promise<number> {
  // One read that does not wait: counting the badge and then reading its text raced with a flush that removed it
  // in between, and textContent() then waited Playwright's 30 s for a badge that was not coming back.
  const [text] = await page.getByTestId('outbox-count').allTextContents();
  if (text === undefined) return 0;
  return Number(/(\d+)件/.exec(text)?.[1] ?? NaN);
}

/** The User Timing marks the outbox leaves when a replay sent something: which trigger did it. */
export async function flushMarks(page: Page): Promise<{ reason: string; sent: number }[]> {
  return page.evaluate(`performance.getEntriesByName('salon-outbox-sent').map((mark) => mark.detail)`);
}

/** Confirms or cancels on the detail page, through its confirmation dialog. */
export async function transitionInPage(
  page: Page,
  world: OfflineWorld,
  number: string,
  action: '確定する' | 'キャンセル',
) {
  await page.goto(`${world.url}/admin/reservations/${number}`);
  await page.getByRole('button', { name: action, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '確認' });
  await dialog
    .getByRole('button', { name: action === 'キャンセル' ? 'キャンセルする' : '確定する', exact: true })
    .click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Waits until the locator's first match is visible (vitest's expect has no Playwright matchers). */
export async function shows(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}

/** Waits until the locator's first match is disabled (a button, or a control inside a disabled fieldset). */
export async function disabled(locator: Locator): Promise<void> {
  await expect.poll(() => locator.first().isDisabled(), { timeout: 15_000 }).toBe(true);
}
