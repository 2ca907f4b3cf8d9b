import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { CustomerApp, PHONE_VIEWPORT } from './pages/customer-app';

/**
 * Issue 18 item 5 end to end at 390×844: a customer with bookings opens 予約一覧 from the header, sees them with
 * their short codes and status badges, and opens one.
 */

const LINE_USER = `e2e-list-${process.pid}`;
const CODE = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

interface Booked {
  reservation_number: string;
  reservation_code: string;
  start_time: string;
}

describe('the customer’s 予約一覧 in Chromium at 390×844', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let app: CustomerApp;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ja-JP', serviceWorkers: 'block' });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    app = new CustomerApp(page, server.url);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a customer’s bookings with their codes and opens one', async () => {
    const { page } = app;
    await app.goto('/login');
    await app.loginWithLineEmulator(LINE_USER);
    await app.waitForPath('/reserve');
    await app.heading('メニューを選ぶ', 2).waitFor();

    // Two bookings made through the API with this customer's session (the wizard has its own e2e test).
    const [accessToken] = await app.storedTokens();
    const booked = await page.evaluate(async (token): Promise<Booked[]> => {
      const headers = {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      };
      const salons = (await (await fetch('/api/salons/')).json()) as Array<{ id: number }>;
      const services = (await (await fetch('/api/services/')).json()) as Array<{ id: number }>;
      const made: Booked[] = [];
      const now = new Date();
      for (let ahead = 0; ahead < 3 && made.length < 2; ahead += 1) {
        const month = new Date(now.getFullYear(), now.getMonth() + ahead, 1);
        const query = `year=${month.getFullYear()}&month=${month.getMonth() + 1}&service_id=${services[0]!.id}`;
        const dates = (await (await fetch(`/api/bookable-dates/?${query}`)).json()) as string[];
        for (const date of dates) {
          if (made.length >= 2) break;
          const slots = (await (
            await fetch(`/api/availability/?date=${date}&service_id=${services[0]!.id}`)
          ).json()) as string[];
          if (slots.length === 0) continue;
          const response = await fetch('/api/reservations/', {
            method: 'POST',
            headers,
            body: JSON.stringify({
              salon: salons[0]!.id,
              service: services[0]!.id,
              start_time: `${date}T${slots[slots.length - 1]}:00`,
              customer_name: '一覧 花子',
              customer_email: 'list@example.com',
            }),
          });
          if (response.status === 201) made.push((await response.json()) as Booked);
        }
      }
      return made;
    }, accessToken);
    expect(booked).toHaveLength(2);
    for (const reservation of booked) expect(reservation.reservation_code).toMatch(CODE);

    await page.getByRole('banner').getByRole('link', { name: '予約一覧' }).click();
    await app.waitForPath('/reservations');
    await app.heading('予約一覧', 1).waitFor();
    const upcoming = page.getByRole('region', { name: '今後のご予約' });
    for (const reservation of booked) {
      await upcoming.getByRole('link', { name: new RegExp(reservation.reservation_code) }).waitFor();
    }
    expect(await upcoming.getByText('保留中').count()).toBe(2);
    await page.getByRole('region', { name: '過去のご予約' }).getByText('過去のご予約はありません。').waitFor();
    await app.record('reservations-list');
    await app.expectNoHorizontalOverflow('the reservation list at 390 px');

    await upcoming.getByRole('link', { name: new RegExp(booked[0]!.reservation_code) }).click();
    await app.waitForPath(`/reservations/${booked[0]!.reservation_number}`);
    await page.locator('dl').getByText(booked[0]!.reservation_code).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
