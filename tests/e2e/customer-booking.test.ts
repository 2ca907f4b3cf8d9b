import { lineText } from '#tests/helpers/line-text';
import zlib from 'node:zlib';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startFakeSmtp, type FakeSmtpServer } from '../helpers/fake-smtp';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { readBundleGraph } from './helpers/bundle-graph';
import { CustomerApp, PHONE_VIEWPORT } from './pages/customer-app';

/**
 * Issue 5 end to end, against `npm start` (scripts/start.mjs) with its built-in LINE emulator and a real SMTP
 * peer: a new LINE user books a 90-minute menu through the six steps, gets the acceptance e-mail, has the
 * latest reservation pushed to LINE from the check page, and cancels it; a login whose exchange fails three
 * times ends on /login-failed. Every screen is checked with axe-core and photographed at 390×844.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LINE_USER = `e2e-customer-${process.pid}`;
const EMAIL = `e2e-${process.pid}@example.com`;

interface InboxEntry {
  to: string;
  messages: unknown[];
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('customer web app in Chromium (LINE emulator, SMTP fake)', () => {
  let smtp: FakeSmtpServer;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let app: CustomerApp;
  let reservationNumber = '';
  const pageErrors: string[] = [];

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    server = await startServerProcess({ SMTP_URL: smtp.url, MAIL_FROM: 'salon@example.com' });
    browser = await launchChromium();
    // No service worker: its precache downloads would blur what the pages themselves load.
    context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ja-JP', serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    app = new CustomerApp(page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('signs in a new LINE user through the emulator and lands on /reserve', async () => {
    await app.goto('/login');
    await app.heading('ネイルサロン Lumière', 1).waitFor();
    await app.record('01-login');
    await app.loginWithLineEmulator(LINE_USER);
    await app.waitForPath('/reserve');
    await app.heading('メニューを選ぶ', 2).waitFor();
    expect(await app.storedTokens()).toEqual([expect.any(String), expect.any(String)]);
  });

  it('loads no more JavaScript for /reserve than the bundle budget counts', async () => {
    // A fresh load of /reserve, signed in: what the browser fetched is what customer-bundle-budget.test.ts sums.
    await app.goto('/reserve');
    await app.heading('メニューを選ぶ', 2).waitFor();
    const scripts = await app.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((pathname) => pathname.endsWith('.js')),
    );
    const graph = readBundleGraph(path.resolve(import.meta.dirname, '..', '..', 'dist'));
    const counted = graph.reserveLoad();
    const loaded = scripts.map((pathname) => pathname.replace(/^\/assets\//, ''));
    expect(loaded.filter((file) => !counted.has(file))).toEqual([]);
    const total = loaded.reduce((sum, file) => sum + zlib.gzipSync(graph.read(file), { level: 9 }).length, 0);
    expect(total).toBeLessThanOrEqual(160 * 1024);
  });

  it('books a 90-minute menu through the six steps', async () => {
    const { page } = app;
    await app.record('02-step1-menu');
    // Step 1: the 90-minute menu, shown with its duration text and price.
    await app.button(/^グラデーションジェル 1時間半 ¥6,600$/).click();
    // Step 2: no options, 指名なし (the defaults).
    await app.heading('オプション・指名を選ぶ', 2).waitFor();
    // On a 390×844 phone the total and the way on are in sight without scrolling, however long the lists.
    const totalBox = await page.getByRole('status').filter({ hasText: /^合計/ }).boundingBox();
    expect(totalBox && totalBox.y + totalBox.height).toBeLessThanOrEqual(PHONE_VIEWPORT.height);
    await app.button('この内容で日付を選ぶ').click();
    await app.heading('日付を選ぶ', 2).waitFor();
    await page.getByRole('region', { name: '選んだ内容' }).getByText('担当: 指名なし').waitFor();

    // Step 3: a bookable day (a few days ahead, inside the cancellation deadline) that still has a free start.
    for (let attempt = 0; ; attempt += 1) {
      await app.chooseBookableDay();
      const outcome = await Promise.race([
        app
          .heading('時間を選ぶ', 2)
          .waitFor()
          .then(() => 'time'),
        page
          .getByText('申し訳ありません。この日は受付可能な時間が設定されていません。')
          .waitFor()
          .then(() => 'none'),
      ]);
      if (outcome === 'time') break;
      if (attempt > 3) throw new Error('no bookable day with free starts');
    }
    await app.button('← 日付選択に戻る').click();
    await app.heading('日付を選ぶ', 2).waitFor();
    await app.record('03-step2-date');
    await page.setViewportSize({ width: 360, height: 740 });
    await app.expectNoHorizontalOverflow('the calendar at 360 px');
    await page.setViewportSize(PHONE_VIEWPORT);
    await app.chooseBookableDay();

    // Step 4: a start time.
    await app.heading('時間を選ぶ', 2).waitFor();
    const times = page.getByRole('group', { name: '開始時刻' }).getByRole('button');
    await times.first().waitFor();
    await app.record('04-step3-time');
    await times.first().click();

    // Step 5: the details, prefilled from the LINE profile; the e-mail is changed to the SMTP fake's address.
    await app.heading('お客様情報の入力', 2).waitFor();
    expect(await page.getByLabel('お名前').inputValue()).toBe(LINE_USER);
    await page.getByLabel('お名前').fill('山田 花子');
    await page.getByLabel('フリガナ').fill('Yamada');
    await page.getByLabel('メールアドレス').fill(EMAIL);
    await page.getByLabel('電話番号').fill('+81-90-1234-5678');
    await app.button('予約内容を確認する').click();
    await page.getByText('フリガナはカタカナで入力してください。').waitFor();
    await page.getByText('電話番号は数字のみで入力してください。').waitFor();
    await app.record('05-step4-details-errors');
    await page.getByLabel('フリガナ').fill('ヤマダ ハナコ');
    await page.getByLabel('電話番号').fill('09012345678');
    await app.record('06-step4-details');
    await app.button('予約内容を確認する').click();

    // Step 6: the cancellation policy and the summary; one click books.
    await app.heading('予約内容の確認', 2).waitFor();
    await app.heading('キャンセルポリシー').waitFor();
    const summary = (await page.locator('dl').textContent()) ?? '';
    for (const expected of [
      'グラデーションジェル（1時間半 ¥6,600）',
      '¥6,600',
      '山田 花子',
      'ヤマダ ハナコ',
      EMAIL,
      '09012345678',
    ]) {
      expect(summary).toContain(expected);
    }
    await app.record('07-step5-confirm');
    await page.setViewportSize({ width: 360, height: 740 });
    await app.expectNoHorizontalOverflow('the confirmation step at 360 px');
    await page.setViewportSize(PHONE_VIEWPORT);
    await app.button('この内容で予約する').click();

    await app.waitForPath(/^\/reservation-complete\//);
    reservationNumber = decodeURIComponent((await app.path()).split('/').pop()!);
    expect(reservationNumber).toMatch(UUID);
    await page.getByText(reservationNumber).waitFor();
    await app.record('08-complete');
  });

  it('sends the acceptance e-mail to the address entered', async () => {
    const mail = await until('the acceptance e-mail', () =>
      smtp.received.find((message) => message.envelopeTo.includes(EMAIL) && message.text.includes(reservationNumber)),
    );
    expect(mail.subject).toContain('ご予約を受け付けました');
    expect(mail.text).toContain('グラデーションジェル');
  });

  it('pushes the latest reservation to the LINE emulator inbox from the check page', async () => {
    const inbox = async () => {
      const response = await fetch(`${server.url}/dev/line/inbox?format=json`);
      return ((await response.json()) as { messages: InboxEntry[] }).messages;
    };
    const latestPushes = async () =>
      (await inbox()).filter((entry) =>
        entry.messages.some((message) => {
          const text = lineText(message);
          return text.includes('ご予約内容をお知らせします') && text.includes(reservationNumber);
        }),
      );
    expect(await latestPushes()).toHaveLength(0);

    await app.goto('/check');
    await app.page.getByText('LINEに送信しました').waitFor();
    await app.record('09-check');
    const pushed = await until('the LINE push', async () => {
      const found = await latestPushes();
      return found.length > 0 ? found : undefined;
    });
    expect(pushed).toHaveLength(1);
    expect(pushed[0]!.to).toMatch(/^U[0-9a-f]{32}$/);
  });

  it('shows the detail page and cancels the reservation', async () => {
    const { page } = app;
    await app.goto(`/reservations/${reservationNumber}`);
    await app.heading('予約詳細', 1).waitFor();
    await page.getByText('保留中').waitFor();
    const details = (await page.locator('dl').textContent()) ?? '';
    for (const expected of [
      reservationNumber,
      'ネイルサロン Lumière',
      'グラデーションジェル',
      '¥6,600',
      '90分',
      '山田 花子',
      EMAIL,
    ]) {
      expect(details).toContain(expected);
    }
    await page.getByText(/^キャンセル期限:/).waitFor();
    // Customers see no confirm button (staff sessions only).
    expect(await app.button('予約を確定する').count()).toBe(0);
    await app.record('10-detail');
    await page.setViewportSize({ width: 360, height: 740 });
    await app.expectNoHorizontalOverflow('the detail page at 360 px');
    await page.setViewportSize(PHONE_VIEWPORT);

    // The app's own dialog asks (a browser confirm() would fail the run: nothing accepts it).
    await app.button('予約をキャンセルする').click();
    const ask = page.getByRole('dialog', { name: '確認' });
    await ask.getByText('この予約をキャンセルしますか？').waitFor();
    await ask.getByRole('button', { name: 'キャンセルする' }).click();
    await app.waitForPath('/cancellation-complete');
    await app.heading('キャンセルが完了しました', 1).waitFor();
    await app.record('11-cancellation-complete');

    const [access] = await app.storedTokens();
    const response = await fetch(`${server.url}/api/reservations/${reservationNumber}/`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(((await response.json()) as { status: string }).status).toBe('cancelled');
  });

  it('has no axe violations on the other customer pages', async () => {
    const pages: Array<[string, string, () => Promise<unknown>]> = [
      ['/manual', '12-manual', () => app.heading('ご利用方法', 1).waitFor()],
      [
        '/confirm-reservation',
        '13-confirm-reservation',
        () => app.page.getByText(/予約が見つかりませんでした/).waitFor(),
      ],
      [
        '/reservation-complete',
        '14-complete-without-number',
        () => app.page.getByText('予約番号が指定されていません。').waitFor(),
      ],
      ['/link-customer/not-a-real-token', '15-link-customer-invalid', () => app.page.getByRole('alert').waitFor()],
      ['/no-such-page', '16-not-found', () => app.heading('404 - ページが見つかりません').waitFor()],
      ['/', '17-home', () => app.heading('ネイルサロン Lumière', 1).waitFor()],
    ];
    for (const [target, name, ready] of pages) {
      await app.goto(target);
      await ready();
      await app.record(name);
    }
    await app.goto('/reserve');
    await app.button('ログアウト').click();
    await app.waitForPath('/login');
    await app.goto('/reserve');
    await app.page.getByText('ご予約にはLINEでのログインが必要です。先にLINEでログインしてください。').waitFor();
    await app.record('18-reserve-signed-out');
    expect(pageErrors).toEqual([]);
  });

  it('lands on /login-failed when the code exchange fails three times', async () => {
    const failing = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ja-JP', serviceWorkers: 'block' });
    try {
      const page = await failing.newPage();
      const attempts: number[] = [];
      await page.route('**/api/line/callback/', (route) => {
        attempts.push(Date.now());
        return route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ detail: 'サーバーでエラーが発生しました。', code: 'server_error' }),
        });
      });
      const failed = new CustomerApp(page, server.url);
      await failed.goto('/login');
      await failed.loginWithLineEmulator(LINE_USER, { existing: true });
      await failed.waitForPath('/callback');
      await failed.page.getByText('LINEの認証結果を確認しています…').waitFor();
      await failed.screenshot('19-callback');
      await failed.expectAccessible('19-callback');
      await failed.waitForPath('/login-failed', 30_000);
      await failed.heading('ログインに失敗しました', 1).waitFor();
      await failed.record('20-login-failed');

      expect(attempts).toHaveLength(3);
      // Waits of 2 s and 4 s between the attempts (docs/screens.md#customer-session).
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(1900);
      expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(3900);
      expect((await failed.storedTokens())[0]).toBeNull();
    } finally {
      await failing.close();
    }
  });
});
