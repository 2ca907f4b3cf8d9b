import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { loginAdmin, navigate, superuserPassword, VIEWPORTS } from './helpers/admin-e2e';

/**
 * Issue 14: two admin tabs share one stored session. When the access token runs out, both refresh with the same
 * refresh token at about the same moment; that used to count as token theft, revoke the session and sign both tabs
 * out. The server runs with 10-second access tokens (ACCESS_TOKEN_TTL_SECONDS, its minimum) so that the tabs
 * outlive several of them in real time. The first refresh of each tab is held back until the other tab's has been
 * sent too, so the two requests certainly carry the same token, then both go through at once.
 */
const TTL_SECONDS = 10;

interface SeenRefresh {
  tab: string;
  token: string;
  status?: number;
}

describe('two admin tabs past the access-token lifetime (10-second tokens)', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess({ ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('both tabs stay signed in, also when they refresh with the same token at the same moment', async () => {
    // Service workers blocked: the routing below must see every request the pages send.
    const context = await browser.newContext({ viewport: VIEWPORTS.tablet, locale: 'ja-JP', serviceWorkers: 'block' });
    try {
      const tabs = new Map<Page, string>();
      const errors: string[] = [];
      const seen: SeenRefresh[] = [];
      let held: Array<{ route: Route; entry: SeenRefresh }> = [];
      let holding = true;
      const release = async () => {
        holding = false;
        const waiting = held;
        held = [];
        // Both at once: the server decides which one rotates and which one gets the same successor.
        await Promise.all(
          waiting.map(async ({ route, entry }) => {
            const response = await route.fetch();
            entry.status = response.status();
            await route.fulfill({ response });
          }),
        );
      };
      await context.route('**/api/token/refresh/', async (route) => {
        const request = route.request();
        const entry: SeenRefresh = {
          tab: tabs.get(request.frame().page()) ?? 'other',
          token: (request.postDataJSON() as { refresh: string }).refresh,
        };
        seen.push(entry);
        if (!holding) {
          const response = await route.fetch();
          entry.status = response.status();
          await route.fulfill({ response });
          return;
        }
        held.push({ route, entry });
        if (new Set(held.map((item) => item.entry.tab)).size >= 2) await release();
      });

      const tabA = await context.newPage();
      const tabB = await context.newPage();
      tabs.set(tabA, 'A');
      tabs.set(tabB, 'B');
      for (const page of [tabA, tabB]) page.on('pageerror', (error) => errors.push(error.message));
      await loginAdmin(tabA, server.url, 'admin', superuserPassword(server));
      await tabB.goto(`${server.url}/admin`);
      await tabB.getByRole('button', { name: 'ログアウト' }).waitFor();

      // The access token runs out; then both tabs call the API at once and must refresh.
      await new Promise((resolve) => setTimeout(resolve, (TTL_SECONDS + 1) * 1000));
      await Promise.all([navigate(tabA, 'tablet', '顧客管理'), navigate(tabB, 'tablet', 'LINE履歴')]);
      await expect
        .poll(() => seen.filter((entry) => entry.status !== undefined).length, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);

      // The held pair: one from each tab, with the same refresh token, and both answered 200.
      const pair = seen.slice(0, 2);
      expect(new Set(pair.map((entry) => entry.tab))).toEqual(new Set(['A', 'B']));
      expect(pair[0]!.token).toBe(pair[1]!.token);
      expect(pair.map((entry) => entry.status)).toEqual([200, 200]);

      // Another token lifetime, with the tabs refreshing on their own (their event streams and the calls below).
      await new Promise((resolve) => setTimeout(resolve, (TTL_SECONDS + 1) * 1000));
      await Promise.all([navigate(tabA, 'tablet', 'LINE履歴'), navigate(tabB, 'tablet', '顧客管理')]);

      for (const page of [tabA, tabB]) {
        await page.getByRole('button', { name: 'ログアウト' }).waitFor();
        expect(await page.getByRole('heading', { name: 'スタッフログイン' }).count()).toBe(0);
        // The stored session is good on the server: a call with it succeeds.
        const status = await page.evaluate<number>(`(async () => {
          const token = localStorage.getItem('adminAccessToken');
          const refresh = localStorage.getItem('adminRefreshToken');
          if (!token || !refresh) return 0;
          return (await fetch('/api/admin/me/', { headers: { Authorization: 'Bearer ' + token } })).status;
        })()`);
        expect(status).toBe(200);
      }
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.every((entry) => entry.status === 200)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
