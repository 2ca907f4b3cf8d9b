import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTimeJa } from '../../src/shared/format';
import { launchChromium, screenshotPath } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { apiJson, loginAdmin, staffToken, superuserPassword } from './helpers/admin-e2e';
import { CustomerApp, PHONE_VIEWPORT } from './pages/customer-app';

/**
 * Issue 15 end to end, against `npm start` with its demo data (weekly shifts, options, 指名料): on a phone, a customer
 * books ワンカラージェル with two options and names 鈴木 彩, sees the total time and price on the confirmation step,
 * then moves the booking from its detail page; a staff member who has the reservation open sees the new time arrive
 * without reloading (live updates).
 */

const LINE_USER = `e2e-scheduling-${process.pid}`;

interface ReservationAnswer {
  reservation_number: string;
  start_time: string;
  staff_name: string;
  is_nominated: boolean;
  price: string;
  service: { price: string; duration_minutes: number };
  options: Array<{ name: string }>;
}

describe('options, 指名 and moving a booking (Chromium, 390×844)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let customerContext: BrowserContext;
  let staffContext: BrowserContext;
  let app: CustomerApp;
  let staffPage: Page;
  let adminToken = '';
  let reservationNumber = '';
  let bookedStart = '';
  const pageErrors: string[] = [];

  const reservation = async () =>
    (
      await apiJson<ReservationAnswer>(server.url, `/api/admin/reservations/${reservationNumber}/`, {
        token: adminToken,
      })
    ).body;

  beforeAll(async () => {
    server = await startServerProcess();
    adminToken = await staffToken(server.url, 'admin', superuserPassword(server));
    browser = await launchChromium();
    customerContext = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ja-JP', serviceWorkers: 'block' });
    staffContext = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ja-JP', serviceWorkers: 'block' });
    const page = await customerContext.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    app = new CustomerApp(page, server.url);
    staffPage = await staffContext.newPage();
    staffPage.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('books ワンカラージェル with two options and 指名, showing the total time and price before booking', async () => {
    const { page } = app;
    await app.goto('/login');
    await app.loginWithLineEmulator(LINE_USER);
    await app.waitForPath('/reserve');
    await app.heading('メニューを選ぶ', 2).waitFor();
    await app.button(/^ワンカラージェル 1時間 ¥5,500/).click();

    await app.heading('オプション・指名を選ぶ', 2).waitFor();
    await page.getByRole('checkbox', { name: 'ジェルオフ', exact: true }).check();
    await page.getByRole('checkbox', { name: 'アート1本', exact: true }).check();
    await page
      .getByRole('radiogroup', { name: 'スタッフ指名' })
      .getByRole('radio', { name: /^鈴木 彩/ })
      .check();
    // 60 + 30 + 10 minutes; ¥5,500 + ¥1,100 + ¥550 + 指名料 ¥1,100.
    await page.getByText('合計 1時間40分 ¥8,250').waitFor();
    await app.record('scheduling-01-options');
    await app.expectNoHorizontalOverflow('the options and 指名 step');
    await app.button('この内容で日付を選ぶ').click();

    await app.heading('日付を選ぶ', 2).waitFor();
    await app.chooseBookableDay();
    await app.heading('時間を選ぶ', 2).waitFor();
    const times = page.getByRole('group', { name: '開始時刻' }).getByRole('button');
    await times.first().waitFor();
    await times.first().click();

    await app.heading('お客様情報の入力', 2).waitFor();
    await page.getByLabel('お名前').fill('佐々木 愛');
    await page.getByLabel('フリガナ').fill('ササキ アイ');
    await page.getByLabel('メールアドレス').fill(`e2e-scheduling-${process.pid}@example.com`);
    await app.button('予約内容を確認する').click();

    await app.heading('予約内容の確認', 2).waitFor();
    const summary = (await page.locator('dl').first().textContent()) ?? '';
    for (const expected of ['ワンカラージェル', 'ジェルオフ', 'アート1本', '鈴木 彩', '1時間40分', '¥8,250']) {
      expect(summary).toContain(expected);
    }
    await app.record('scheduling-02-confirm');
    await app.button('この内容で予約する').click();

    await app.waitForPath(/^\/reservation-complete\//);
    reservationNumber = decodeURIComponent((await app.path()).split('/').pop()!);
    const booked = await reservation();
    expect(booked.staff_name).toBe('鈴木 彩');
    expect(booked.is_nominated).toBe(true);
    expect(booked.service).toMatchObject({ price: '8250', duration_minutes: 100 });
    expect(booked.options.map((option) => option.name)).toEqual(['ジェルオフ', 'アート1本']);
    bookedStart = booked.start_time;
  });

  it('moves the booking from its detail page while staff watch the time change live', async () => {
    // Staff open the reservation first and keep it open.
    await loginAdmin(staffPage, server.url, 'admin', superuserPassword(server));
    await staffPage.goto(`${server.url}/admin/reservations/${reservationNumber}`);
    await staffPage.getByText(formatDateTimeJa(bookedStart)).first().waitFor();

    const { page } = app;
    await app.goto(`/reservations/${reservationNumber}`);
    await app.button('日時を変更').click();
    await app.chooseBookableDay(4);
    const times = page.getByRole('group', { name: '開始時刻' }).getByRole('button');
    await times.first().waitFor();
    // The last start of the day: a different time from the booked one, whichever day was chosen.
    await times.last().click();
    await page.getByText('この日時に変更しますか？').waitFor();
    await app.record('scheduling-03-reschedule-confirm');
    await app.button('変更する').click();
    await page.getByText('予約日時を変更しました。').first().waitFor();

    const moved = await reservation();
    expect(moved.start_time).not.toBe(bookedStart);
    expect(moved.reservation_number).toBe(reservationNumber);
    expect(moved.staff_name).toBe('鈴木 彩');
    // The staff page was not reloaded: the live update brought the new time.
    await staffPage.getByText(formatDateTimeJa(moved.start_time)).first().waitFor({ timeout: 15_000 });
    await staffPage.screenshot({ path: screenshotPath('scheduling-04-staff-live') });
    expect(pageErrors).toEqual([]);
  });
});
