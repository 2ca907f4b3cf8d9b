import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForWorker, type OfflineWorld } from './offline-e2e';

/** The register's e2e (tests/e2e/register.test.ts): the front desk's account, its sign-in and the printed receipt. */

export const DESK_PASSWORD = 'uketsuke-password-1';

/** Signs in a staff member and waits until the service worker controls the page and the first sync is done. */
export async function signInAs(world: OfflineWorld, page: Page, username: string, password: string) {
  await page.goto(`${world.url}/admin`);
  await page.getByLabel(/^ログインID\s*\*?$/).fill(username);
  await page.getByLabel(/^パスワード\s*\*?$/).fill(password);
  await page.getByRole('button', { name: 'ログイン', exact: true }).click();
  await waitForWorker(page);
  await expect.poll(() => page.getByTestId('last-sync').textContent(), { timeout: 30_000 }).toMatch(/^最終同期/);
}

/**
 * Prints the finished checkout's receipt with a 但し書き: the receipt window, whose print() is recorded instead of
 * opening the print dialog (which would block the run).
 */
export async function printedReceipt(page: Page, context: BrowserContext): Promise<Page> {
  await page.evaluate(`(() => {
    if (window.printWatched) return;
    window.printWatched = true;
    const open = window.open.bind(window);
    window.open = (...args) => {
      const opened = open(...args);
      if (opened) opened.print = () => { window.printed = true; };
      return opened;
    };
  })()`);
  await page.getByRole('textbox', { name: '但し書き' }).fill('ネイル代として');
  const [receipt] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: '領収書を印刷' }).click(),
  ]);
  await receipt.getByRole('heading', { name: '領収書' }).waitFor();
  await expect.poll(() => page.evaluate('window.printed === true')).toBe(true);
  return receipt;
}

export const checkoutRows = async (world: OfflineWorld) =>
  (
    await world.db.query<{ reservation_id: number; receipt_number: string }>(
      'select reservation_id, receipt_number from checkouts order by id',
    )
  ).rows;
