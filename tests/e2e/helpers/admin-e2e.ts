import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium, screenshotPath } from '../../helpers/browser';
import { startServerProcess, type ServerProcess } from '../../helpers/server-process';

/** Issue 6: every admin journey runs on a phone (drawer) and on the front-desk tablet. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  tablet: { width: 1180, height: 820 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** The generated superuser password of a fresh DATA_DIR (server/db/seed.ts). */
export function superuserPassword(server: ServerProcess): string {
  return fs.readFileSync(path.join(server.dataDir, 'initial-admin-password.txt'), 'utf8').trim();
}

/** What the online admin suites run against: `npm start` on a fresh DATA_DIR, its superuser's password, a Chromium. */
export interface ServerAndBrowser {
  server: ServerProcess;
  password: string;
  browser: Browser;
}

/**
 * Starts the server and Chromium before the suite's tests (before the suite's own beforeAll, which may seed through
 * the API) and stops both after them. Call it in the describe; the fields are there once beforeAll has run.
 */
export function useServerAndBrowser(env: Record<string, string> = { DEMO_DATA: 'false' }): ServerAndBrowser {
  const world = {} as ServerAndBrowser;
  beforeAll(async () => {
    world.server = await startServerProcess(env);
    world.password = superuserPassword(world.server);
    world.browser = await launchChromium();
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.server?.stop();
  });
  return world;
}

export async function apiJson<T>(
  url: string,
  pathname: string,
  options: { method?: string; token?: string; json?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${pathname}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function staffToken(url: string, username: string, password: string): Promise<string> {
  const { status, body } = await apiJson<{ access: string }>(url, '/api/token/', {
    method: 'POST',
    json: { username, password },
  });
  expect(status).toBe(200);
  return body.access;
}

/**
 * A customer signs in through the built-in LINE emulator (dev mode), which creates a LINE-linked customer named
 * after the emulator user. Returns the customer's access token.
 */
export async function lineLinkedCustomer(url: string, devUser: string): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const nonce = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: '1000000000',
    redirect_uri: `${url}/callback`,
    state: 'e2e',
    scope: 'profile openid',
    nonce,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    dev_user: devUser,
  });
  const authorize = await fetch(`${url}/dev/line/authorize?${query.toString()}`, { redirect: 'manual' });
  await authorize.arrayBuffer();
  const code = new URL(authorize.headers.get('location')!).searchParams.get('code');
  expect(code).toBeTruthy();
  const { status, body } = await apiJson<{ access: string }>(url, '/api/line/callback/', {
    method: 'POST',
    json: { code, code_verifier: verifier, nonce, redirect_uri: `${url}/callback` },
  });
  expect(status).toBe(200);
  return body.access;
}

/** Signs in on /admin with login ID and password, as a person does, and waits for the panel. */
export async function loginAdmin(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(`${url}/admin`);
  await page.getByLabel(/^ログインID\s*\*?$/).fill(username);
  await page.getByLabel(/^パスワード\s*\*?$/).fill(password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await page
    .getByRole('button', { name: 'ログアウト' })
    .or(page.getByRole('button', { name: 'メニューを開く' }))
    .first()
    .waitFor();
}

/** The shell keeps the sidebar in a drawer on phones: open it first there. */
export async function navigate(page: Page, viewport: ViewportName, label: string): Promise<void> {
  if (viewport === 'phone') await page.getByRole('button', { name: 'メニューを開く' }).click();
  await page.getByRole('navigation', { name: '管理メニュー' }).getByRole('link', { name: label, exact: true }).click();
}

/**
 * axe-core in the page, loaded once per document (a client-side navigation keeps it). @axe-core/playwright sent its
 * 1.2 MB source with every check, twice (the page, then a blank page it opened to finish the run): 48 times in
 * customer-booking.test.ts, each parsed by the browser and copied through Playwright. Violations only: by default
 * axe also returns every node that passed, with its HTML.
 */
async function runAxe(page: Page, include?: string): Promise<axe.AxeResults> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const context = include ? JSON.stringify({ include: [include] }) : 'document';
  return page.evaluate<axe.AxeResults>(`window.axe.run(${context}, { resultTypes: ['violations'] })`);
}

/**
 * axe-core over the whole page, every rule, with the offending nodes in the failure message. Colours are measured
 * as drawn, so finite animations (a dialog or toast fading in) are let finish first; a cancelled animation or an
 * endless spinner is not waited for. With `dialog`, only the open dialog is checked: the page behind a modal is out
 * of reach (aria-modal) and its colours, seen through the overlay, are not what anyone reads.
 */
export async function expectNoAxeViolations(
  page: Page,
  label: string,
  options: { dialog?: boolean } = {},
): Promise<void> {
  // Mantine's dialogs fade in with CSS transitions that may not have started yet, and a dialog asked for may not be
  // in the page yet either: the click that opens it returns before React has rendered it.
  const mustHaveDialog = options.dialog === true;
  // Two frames: whatever the last click or keypress set in motion (a portal's mount effect, a transition's first
  // style) has been rendered before anything is measured. A tab in the background draws no frames: 200 ms at most.
  await page.evaluate(`new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(resolve));
    setTimeout(resolve, 200);
  })`);
  for (let tries = 0; tries < 100; tries += 1) {
    const settled = await page.evaluate(`(() => {
      const dialogs = [...document.querySelectorAll('[role="dialog"]')];
      if (${mustHaveDialog} && dialogs.length === 0) return false;
      return dialogs.every((dialog) => getComputedStyle(dialog).opacity === '1');
    })()`);
    if (settled) break;
    await page.waitForTimeout(50);
  }
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
    .map((animation) => animation.finished.catch(() => null)))`);
  const results = await runAxe(page, options.dialog ? '[role="dialog"]' : undefined);
  const violations = results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.slice(0, 5).map((node) => ({
      target: node.target.join(' '),
      html: node.html.slice(0, 160),
      why: node.any[0]?.message ?? node.all[0]?.message ?? node.none[0]?.message,
    })),
  }));
  expect(violations, `axe violations on ${label}`).toEqual([]);
}

/** Notifications float outside the page's landmarks while shown; let them go before axe looks. */
export async function dismissNotifications(page: Page, expected?: string): Promise<void> {
  // The notification stack mounts on first use (src/lib/notify.ts), so a toast can appear a moment after the change
  // it reports is on screen. Left there, it would cover the phone's menu button, and a click that hovers it pauses
  // its closing: wait for the one the step expects before closing them.
  if (expected) await page.locator('.mantine-Notification-root', { hasText: expected }).first().waitFor();
  for (const close of await page.locator('.mantine-Notification-root button[aria-label="閉じる"]').all()) {
    await close.click().catch(() => {});
  }
  await page
    .locator('.mantine-Notification-root')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
}

/**
 * A fresh browser context at one of the VIEWPORTS, in Japanese, whose page collects its uncaught errors. Without a
 * service worker, as the other online suites: installing it precaches every built file in each new context (about a
 * second of browser CPU), and the offline suites test it with persistent profiles (tests/e2e/helpers/offline-e2e.ts).
 */
export async function openAdminPage(
  browser: Browser,
  viewport: ViewportName,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    locale: 'ja-JP',
    serviceWorkers: 'block',
    ...options,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Waits until `check` returns a value (the outbox worker delivers within a moment). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
}
