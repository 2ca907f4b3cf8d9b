import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import {
  apiJson,
  expectNoAxeViolations,
  loginAdmin,
  navigate,
  openAdminPage,
  snap,
  staffToken,
  superuserPassword,
  type ViewportName,
} from './helpers/admin-e2e';

/** Nothing wider than the screen: the front-desk screens must not scroll sideways on a phone. */
async function expectNoSidewaysScroll(page: Page, label: string) {
  const widths = await page.evaluate<{ page: number; view: number }>(
    '({ page: document.documentElement.scrollWidth, view: window.innerWidth })',
  );
  expect(widths.page, label).toBeLessThanOrEqual(widths.view);
}

/**
 * Issue 33's front desk against `npm start`, on the tablet (1180×820) and the phone (390×844): a customer's
 * checkout with a product, a free line and cash on the keypad; the receipt printed from a window written with the
 * token-fetched HTML (under the app's CSP); then the superuser closes the day.
 */
describe('会計 and レジ締め (npm start, Chromium)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let password: string;
  let customerId: number;

  beforeAll(async () => {
    server = await startServerProcess({});
    password = superuserPassword(server);
    browser = await launchChromium();
    const admin = await staffToken(server.url, 'admin', password);
    const product = await apiJson(server.url, '/api/admin/products/', {
      method: 'POST',
      token: admin,
      json: { name: 'ハンドクリーム', price: 1650, tax_rate: 10 },
    });
    expect(product.status).toBe(201);
    const customers = await apiJson<{ id: number }[]>(server.url, '/api/admin/customers/', { token: admin });
    customerId = customers.body[0]!.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of ['tablet', 'phone'] as ViewportName[]) {
    it(`checks a customer out and prints the receipt (${viewport})`, async () => {
      const { context, page, errors } = await openAdminPage(browser, viewport, { timezoneId: 'Asia/Tokyo' });
      const consoleErrors: string[] = [];
      context.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
      try {
        await loginAdmin(page, server.url, 'admin', password);
        await page.goto(`${server.url}/admin/customers/${customerId}/checkout`);
        await page.getByRole('heading', { level: 1, name: '会計' }).waitFor();
        await page.getByRole('combobox', { name: '商品' }).selectOption({ label: 'ハンドクリーム ¥1,650' });
        await page.getByRole('button', { name: '商品を追加' }).click();
        await page.getByRole('textbox', { name: '項目名' }).fill('パーツ');
        await page.getByRole('textbox', { name: '金額（税込）' }).fill('330');
        await page.getByRole('button', { name: '項目を追加' }).click();
        for (const key of ['2', '000']) await page.getByRole('button', { name: `${key}を入力` }).click();
        await page.getByRole('group', { name: 'おつり' }).getByText('¥20').waitFor();
        await expectNoSidewaysScroll(page, `checkout (${viewport})`);
        await expectNoAxeViolations(page, `checkout (${viewport})`);
        await snap(page, `register-checkout-${viewport}`);

        await page.getByRole('button', { name: '会計する（¥1,980）' }).click();
        await page.getByRole('status').getByText('会計が完了しました').waitFor();
        // The print dialog would block the run: the written window's print is recorded instead.
        await page.evaluate(`(() => {
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
        expect(await receipt.content()).toContain('ネイル代として');
        await expect.poll(() => page.evaluate('window.printed === true')).toBe(true);
        expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
        if (viewport === 'phone') {
          await page.goto(`${server.url}/admin/statistics`);
          await page.getByRole('table', { name: '売上の内訳' }).waitFor();
          await expectNoSidewaysScroll(page, 'takings (phone)');
          await page.goto(`${server.url}/admin/register`);
          await page.getByRole('table', { name: 'この日の会計' }).waitFor();
          await expectNoSidewaysScroll(page, 'register closing (phone)');
          await snap(page, 'register-closing-phone');
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('closes the day with the counted cash (tablet)', async () => {
    const { context, page, errors } = await openAdminPage(browser, 'tablet', { timezoneId: 'Asia/Tokyo' });
    try {
      await loginAdmin(page, server.url, 'admin', password);
      await navigate(page, 'tablet', 'レジ締め');
      await page.getByRole('heading', { level: 1, name: 'レジ締め' }).waitFor();
      await page.getByRole('table', { name: 'この日の会計' }).waitFor();
      expect(await page.getByRole('table', { name: 'この日の会計' }).getByRole('row').count()).toBe(3);
      await page.getByText('合計を入力', { exact: true }).click();
      await page.getByRole('textbox', { name: '数えた現金（合計）' }).fill('3960');
      await expectNoAxeViolations(page, 'register closing');
      await snap(page, 'register-closing-tablet');
      await page.getByRole('button', { name: '締める' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '締める' }).click();
      await page.getByRole('heading', { name: /締め済み/ }).waitFor();

      await navigate(page, 'tablet', '商品管理');
      await page.getByRole('table', { name: '商品' }).getByText('ハンドクリーム').waitFor();
      await expectNoAxeViolations(page, 'products');
      await navigate(page, 'tablet', '統計');
      // Both checkouts of the day are in this month's takings.
      await page.getByRole('table', { name: '売上の内訳' }).waitFor();
      await page.getByRole('group', { name: '期間の売上合計' }).getByText('¥3,960').waitFor();
      await expectNoAxeViolations(page, 'statistics with takings');
      await snap(page, 'register-takings-tablet');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
