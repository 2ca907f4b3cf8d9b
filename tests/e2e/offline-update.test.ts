import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  disabled,
  insertCustomer,
  insertReservation,
  openProfile,
  outboxBadge,
  salonDate,
  shows,
  signInAndSync,
  transitionInPage,
  useOfflineWorld,
  type OfflineWorld,
} from './helpers/offline-e2e';
import { snap } from './helpers/admin-e2e';

/**
 * Issue 7 acceptance, the update flow. A new build is simulated the way a browser meets one: /sw.js is answered
 * byte-different (the real file plus a comment, served by the test's proxy in front of `npm start`), so the browser
 * installs it as a new service worker that waits. The app prompts; while a change is queued (or a form holds
 * unsaved input) pressing 更新する does not reload; once the queue is empty (or the form saved) the new worker
 * takes over and the page reloads once.
 */

/** A marker in the page's JavaScript world: gone after any reload. */
const mark = (page: Page) => page.evaluate('window.__sameDocument = true');
const sameDocument = (page: Page) => page.evaluate<boolean>('window.__sameDocument === true').catch(() => false);

async function deployNewBuild(page: Page, world: OfflineWorld, tag: string) {
  world.proxy.nextServiceWorker(tag);
  await page.evaluate('navigator.serviceWorker.getRegistration().then((registration) => registration.update())');
  await page.waitForFunction(
    'navigator.serviceWorker.getRegistration().then((registration) => Boolean(registration.waiting))',
  );
  await shows(page.getByText('新しいバージョンがあります'));
}

const waitingWorker = (page: Page) =>
  page.evaluate<boolean>(
    'navigator.serviceWorker.getRegistration().then((registration) => Boolean(registration.waiting))',
  );

/**
 * What an update that does not come waits for, printed with the test's output: the page's workers, the outbox's
 * sends, the screen's text, the requests that reached the proxy (and test-results/offline-update-stuck.png).
 */
async function reportState(page: Page, world: OfflineWorld) {
  // A string, as the page runs it (this file is type-checked without the DOM's types).
  const state = await page
    .evaluate(
      `navigator.serviceWorker.getRegistration().then((registration) => ({
        controller: navigator.serviceWorker.controller?.state ?? null,
        active: registration?.active?.state ?? null,
        waiting: registration?.waiting?.state ?? null,
        installing: registration?.installing?.state ?? null,
        online: navigator.onLine,
        sent: performance.getEntriesByName('salon-outbox-sent').map((mark) => mark.detail),
        text: document.body.innerText.slice(0, 1500),
      }))`,
    )
    .catch((error: unknown) => ({ error: String(error) }));
  console.log('offline-update, the page:', JSON.stringify({ state, proxy: world.proxy.seen.slice(-40) }, null, 1));
  await snap(page, 'offline-update-stuck').catch(() => {});
}

describe('a new version while changes are queued', () => {
  const world = useOfflineWorld();
  let browser: { page: Page; context: BrowserContext } | null = null;

  /**
   * Tried up to three times. Under a loaded machine (npm test's two cores; reproduced with four CPU-bound loops
   * beside four runs of this file) Chromium now and then loses the new worker: it is installed and waiting, and
   * then either gone before the prompt shows, or it stays waiting after SKIP_WAITING, sent twice, while the old
   * worker never stops; about one run in five. The app's part is the same in every attempt, and every attempt that
   * fails prints the state above.
   */
  it(
    'prompts, and reloads into the new version only once the outbox is empty and no form is dirty',
    { retry: 2, timeout: 180_000 },
    async () => {
      expect.hasAssertions();
      // A failed attempt may have left the proxy blocking or serving a tagged worker: each starts from a clean one.
      world.proxy.block(null);
      world.proxy.nextServiceWorker(null);
      try {
        browser = null;
        await updatesOnlyWhenSafe((opened) => (browser = opened));
      } catch (error) {
        if (browser) {
          await reportState(browser.page, world);
          await browser.context.close().catch(() => {});
        }
        throw error;
      }
    },
  );

  async function updatesOnlyWhenSafe(opened: (browser: { page: Page; context: BrowserContext }) => void) {
    const customer = await insertCustomer(world, { name: '伊藤 愛', email: 'ai@example.com', notes: '' });
    const reservation = await insertReservation(world, {
      customerId: customer,
      customerName: '伊藤 愛',
      date: salonDate(6),
      time: '16:00',
    });
    const { context, page } = await openProfile(world, world.newProfile());
    opened({ page, context });
    await signInAndSync(world, page);

    // A change that cannot get through yet (the connection to the server is down).
    const confirmPath = `/api/admin/reservations/${reservation.number}/confirm/`;
    world.proxy.block((method, url) => method === 'POST' && url === confirmPath);
    await transitionInPage(page, world, reservation.number, '確定する');
    await expect.poll(() => outboxBadge(page)).toBe(1);
    await mark(page);

    await deployNewBuild(page, world, 'next build 2');
    await page.getByRole('button', { name: '更新する' }).click();
    await shows(page.getByText('未送信の変更が1件あります。送信が終わると更新します。'));
    await disabled(page.getByRole('button', { name: '更新を待っています' }));
    await snap(page, 'offline-update-waiting');
    await page.waitForTimeout(3000);
    expect(await sameDocument(page)).toBe(true);
    expect(await waitingWorker(page)).toBe(true);

    // The connection is back and the change is sent: then, and only then, the new version takes over. The outbox
    // retries by itself (src/lib/outbox-retry.ts, backing off to a minute), so it may have sent it before the
    // button could be pressed; the button is pressed again, as a person would, while the change is still there
    // (a press during a failing attempt finds the button busy).
    world.proxy.block(null);
    // Under a full suite's load this has taken over 30 s (twice in CI, never alone); the state printed at 50 s (and
    // at any failure) shows what it still waits for.
    const stuck = setTimeout(() => void reportState(page, world), 50_000);
    await expect
      .poll(
        async () => {
          if (!(await sameDocument(page))) return false;
          await page
            .getByRole('button', { name: '今すぐ送信' })
            .click({ timeout: 1_000 })
            .catch(() => {});
          return sameDocument(page);
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(false);
    clearTimeout(stuck);
    await page.getByRole('heading', { name: '予約詳細' }).waitFor();
    expect(await waitingWorker(page)).toBe(false);
    const { rows } = await world.db.query<{ status: string }>('select status from reservations where id = $1', [
      reservation.id,
    ]);
    expect(rows[0]!.status).toBe('confirmed');
    expect(world.proxy.seen.filter((line) => line === `POST ${confirmPath}`)).toHaveLength(1);
    expect(world.proxy.seen.filter((line) => line.startsWith('GET /sw.js')).length).toBeGreaterThan(1);

    // A memo being typed holds the next update back until it is saved.
    await page.goto(`${world.url}/admin/customers/${customer}/memo`);
    await page.getByRole('textbox', { name: 'メモ' }).fill('書きかけのメモ');
    await mark(page);
    await deployNewBuild(page, world, 'next build 3');
    await page.getByRole('button', { name: '更新する' }).click();
    await shows(page.getByText('保存していない入力があります。保存すると更新します。'));
    await page.waitForTimeout(2000);
    expect(await sameDocument(page)).toBe(true);
    await page.getByRole('button', { name: '保存する' }).click();
    await expect.poll(() => sameDocument(page), { timeout: 20_000 }).toBe(false);
    const memo = await world.db.query<{ notes: string }>('select notes from customers where id = $1', [customer]);
    expect(memo.rows[0]!.notes).toBe('書きかけのメモ');
    await context.close();
  }
});
