import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { PHONE_VIEWPORT } from './pages/customer-app';

/**
 * Issue 17, first paint (docs/decisions/0016-first-screen-before-the-code.md): the built index.html carries a
 * first screen of its own and nothing render-blocking, so a phone paints it before the stylesheet and the code
 * arrive; the app stylesheet is switched on by src/main.tsx, and React draws only once it has arrived (no
 * unstyled flash). Runs over the build `npm test` makes (DIST_DIR elsewhere) and `npm start` serving it.
 */
const distDir = process.env.DIST_DIR ?? path.resolve(import.meta.dirname, '..', '..', 'dist');

describe('index.html before any code (dist/)', () => {
  let html: string;

  beforeAll(() => {
    html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  });

  it('holds the first screen: the header, a main landmark and the heading', () => {
    const root = /<div id="root">([\s\S]*?)<\/body>/.exec(html)?.[1] ?? '';
    expect(root).toMatch(/<header\b/);
    expect(root).toMatch(/<main\b/);
    expect(root).toMatch(/<h1\b[^>]*>ネイルサロン予約<\/h1>/);
  });

  it('has no render-blocking stylesheet: the app styles are linked as media="print" for src/main.tsx', () => {
    const sheets = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].map((match) => match[0]);
    expect(sheets.length).toBe(1);
    expect(sheets[0]).toMatch(/href="\/assets\/[^"]+\.css"/);
    expect(sheets[0]).toContain('media="print"');
    expect(sheets[0]).toContain('data-app-styles');
  });
});

describe('first screen in Chromium (stylesheet held back)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ SKIP_BUILD: 'true', DEMO_DATA: 'false' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ja-JP', serviceWorkers: 'block' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('paints index.html before the stylesheet arrives, and draws the app only after it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let stylesheetRequested = false;
    await page.route('**/assets/*.css', async (route) => {
      stylesheetRequested = true;
      await held;
      await route.continue();
    });

    // DOMContentLoaded comes after the module scripts have run: the code is there, the stylesheet is not.
    await page.goto(`${server.url}/login`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, {
      timeout: 10_000,
    });
    expect(stylesheetRequested).toBe(true);
    expect(await page.locator('#root h1').textContent()).toBe('ネイルサロン予約');
    // Long enough for React to have drawn had it not waited.
    await page.waitForTimeout(1_000);
    expect(await page.locator('#root .boot').count(), 'React drew before the stylesheet arrived').toBe(1);

    release();
    await page
      .getByRole('link', { name: 'LINEでログインして予約する' })
      .or(page.getByRole('button', { name: 'LINEでログインして予約する' }))
      .waitFor({ timeout: 15_000 });
    expect(await page.locator('#root .boot').count()).toBe(0);
    expect(await page.getAttribute('link[data-app-styles]', 'media')).toBe('all');
    // Mantine's stylesheet is in force: it gives the body its line height (the browser's own is `normal`).
    expect(await page.evaluate('getComputedStyle(document.body).lineHeight')).not.toBe('normal');
    expect(pageErrors).toEqual([]);
  });
});
