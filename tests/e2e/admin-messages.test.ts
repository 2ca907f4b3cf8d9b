import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import {
  expectNoAxeViolations,
  lineLinkedCustomer,
  loginAdmin,
  navigate,
  openAdminPage,
  snap,
  superuserPassword,
  VIEWPORTS,
  type ViewportName,
} from './helpers/admin-e2e';

/**
 * Issue 6 acceptance, customers / messages / statistics part, against `npm start` in Chromium at 390×844 (drawer)
 * and 1180×820 (tablet): a staff member sends a LINE message with an image to a linked customer and sees it in
 * the history; the statistics page draws both charts, and recharts is fetched on that page only.
 */
describe('admin customers, message history and statistics (npm start, Chromium)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let password: string;
  let image: Buffer;

  beforeAll(async () => {
    server = await startServerProcess();
    password = superuserPassword(server);
    image = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#e64980' } })
      .png()
      .toBuffer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** An admin page that also records the JavaScript it fetched. */
  async function openContext(viewport: ViewportName) {
    const opened = await openAdminPage(browser, viewport);
    const scripts: { url: string; body: Promise<string> }[] = [];
    opened.page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.push({ url: response.url(), body: response.text().catch(() => '') });
    });
    return { ...opened, scripts };
  }

  const rechartsLoaded = async (scripts: { body: Promise<string> }[]) =>
    (await Promise.all(scripts.map((script) => script.body))).some((body) => body.includes('recharts-surface'));

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`sends a message with an image to a linked customer and finds it in the history (${viewport})`, async () => {
      const customerName = `e2e-${viewport}-customer`;
      await lineLinkedCustomer(server.url, customerName);
      const { context, page, errors, scripts } = await openContext(viewport);
      try {
        await loginAdmin(page, server.url, 'admin', password);

        await navigate(page, viewport, '顧客管理');
        await page.getByRole('heading', { level: 1, name: '顧客管理' }).waitFor();
        await page.getByRole('button', { name: /検索/ }).click();
        await page.getByLabel('名前').fill(customerName);
        const row = page.getByRole('link', { name: customerName });
        await row.first().waitFor();
        await expectNoAxeViolations(page, `customer list (${viewport})`);
        await snap(page, `admin-customers-${viewport}`);
        await row.first().click();

        await page.getByRole('heading', { level: 1, name: customerName }).waitFor();
        await page.getByText(`連携済み（${customerName}）`).waitFor();
        await page.getByText('予約履歴はありません。').waitFor();
        await expectNoAxeViolations(page, `customer detail (${viewport})`);
        await snap(page, `admin-customer-detail-${viewport}`);

        // The memo screen on the way.
        await page.getByRole('link', { name: '顧客メモを編集' }).click();
        await page.getByRole('heading', { level: 1, name: `${customerName}様のメモ` }).waitFor();
        await page.getByLabel('メモ').fill('ジェルの持ちを気にされている');
        await page.getByRole('button', { name: '保存する' }).click();
        await page.getByText('メモを保存しました。').waitFor();
        await expectNoAxeViolations(page, `memo (${viewport})`);
        await snap(page, `admin-customer-memo-${viewport}`);
        await page.getByRole('link', { name: '← 顧客詳細に戻る' }).click();

        const text = `ご来店ありがとうございました（${viewport}）`;
        await page.getByRole('link', { name: 'LINEでメッセージを送信' }).click();
        await page.getByRole('heading', { level: 1, name: `${customerName}様へメッセージを送信` }).waitFor();
        await page.getByLabel('メッセージ').fill(text);
        await page
          .locator('input[type="file"]')
          .setInputFiles({ name: 'nail.png', mimeType: 'image/png', buffer: image });
        await page.getByRole('img', { name: '添付画像のプレビュー' }).waitFor();
        await expectNoAxeViolations(page, `send message (${viewport})`);
        await snap(page, `admin-send-message-${viewport}`);
        await page.getByRole('button', { name: '送信する' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText('この内容で送信しますか？').waitFor();
        await dialog.getByRole('button', { name: '送信する' }).click();
        await page.getByText('メッセージを送信しました。').waitFor();
        await page.getByRole('heading', { level: 1, name: customerName }).waitFor();
        expect(new URL(page.url()).pathname).toMatch(/^\/admin\/customers\/\d+$/);

        await page.getByRole('link', { name: 'チャット履歴' }).click();
        await page.getByRole('heading', { level: 1, name: 'LINE履歴' }).waitFor();
        expect(new URL(page.url()).searchParams.get('query')).toBe(customerName);
        await page.getByText(text).waitFor();
        const sent = page.getByRole('link', { name: '送信した画像（新しいタブで開く）' });
        await expect.poll(() => sent.count()).toBe(1);
        expect(await sent.getAttribute('target')).toBe('_blank');
        const imageUrl = (await sent.getAttribute('href'))!;
        expect(new URL(imageUrl).pathname).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
        const media = await fetch(new URL(new URL(imageUrl).pathname, server.url));
        expect(media.status).toBe(200);
        expect(media.headers.get('content-type')).toBe('image/png');
        // The preview image actually decoded in the page.
        await expect
          .poll(() =>
            sent
              .locator('img')
              .evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0),
          )
          .toBe(true);
        await expectNoAxeViolations(page, `message history (${viewport})`);
        await snap(page, `admin-line-history-${viewport}`);

        await page.getByRole('button', { name: /一斉送信/ }).click();
        await page.getByLabel('一斉送信メッセージ').waitFor();
        await expectNoAxeViolations(page, `message history with the bulk-send panel (${viewport})`);

        // No screen so far needed the chart library.
        expect(await rechartsLoaded(scripts)).toBe(false);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it(`draws the statistics charts, loading recharts there only (${viewport})`, async () => {
      const { context, page, errors, scripts } = await openContext(viewport);
      try {
        await loginAdmin(page, server.url, 'admin', password);
        expect(await rechartsLoaded(scripts)).toBe(false);

        await navigate(page, viewport, '統計');
        await page.getByRole('heading', { level: 1, name: '統計情報' }).waitFor();
        for (const label of ['完了した予約', '保留中の予約', 'キャンセルされた予約']) {
          await page.getByRole('group', { name: label }).waitFor();
        }
        // The monthly chart is drawn as SVG. The demo salon's bookings are all still to come, and a booking counts
        // only once it is a completed visit (issue 32): the ranking says so instead of drawing an empty pie.
        await page.locator('[data-testid="monthly-sales-chart"] svg.recharts-surface').first().waitFor();
        await page.getByText('まだ集計できる予約がありません。').waitFor();
        await page.getByRole('heading', { name: '月別売上' }).waitFor();
        await page.getByRole('heading', { name: '人気サービス Top 5' }).waitFor();
        expect(await rechartsLoaded(scripts)).toBe(true);
        await expectNoAxeViolations(page, `statistics (${viewport})`);
        await snap(page, `admin-statistics-${viewport}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
