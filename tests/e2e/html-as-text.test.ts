/**
 * Issue 8, hostile input in the browser: HTML in a customer's name and in messages is shown as text on every
 * customer and admin page that renders them, and never runs. The names and messages travel the real way: a LINE
 * user whose display name is markup, a booking with that name, a staff message with markup.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { apiJson, lineLinkedCustomer, loginAdmin, staffToken, superuserPassword } from './helpers/admin-e2e';

const NAME = '<img src=x onerror="window.__xss=1">花子';
const MESSAGE = '<script>window.__xss=2</script><b>太字</b> ご予約ありがとうございます';

describe('HTML in names and messages is rendered as text', () => {
  let server: ServerProcess;
  let browser: Browser;
  let customerToken: string;
  let reservationNumber: string;
  let customerId: number;

  beforeAll(async () => {
    server = await startServerProcess();
    browser = await launchChromium();
    const admin = await staffToken(server.url, 'admin', superuserPassword(server));
    customerToken = await lineLinkedCustomer(server.url, NAME);

    // A booking at the first start any service offers in the next two months (the demo data opens slots).
    const services = (await apiJson<Array<{ id: number }>>(server.url, '/api/services/')).body;
    const booking = await firstBookableStart(
      server.url,
      services.map((service) => service.id),
    );
    const created = await apiJson<{ reservation_number: string; customer_id: number }>(
      server.url,
      '/api/reservations/',
      {
        method: 'POST',
        token: customerToken,
        json: {
          salon: 1,
          service: booking.serviceId,
          start_time: booking.start,
          customer_name: NAME,
          customer_furigana: '',
          customer_email: 'hanako@example.com',
          customer_phone: '',
        },
      },
    );
    expect(created.status).toBe(201);
    reservationNumber = created.body.reservation_number;
    customerId = created.body.customer_id;

    const form = new FormData();
    form.set('text', MESSAGE);
    const sent = await fetch(`${server.url}/api/admin/customers/${customerId}/send-message/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(sent.status).toBe(201);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The literal markup is on the page as text, no element it describes exists, and nothing ran. */
  async function expectShownAsText(page: Page, text: string) {
    await page.getByText(text, { exact: false }).first().waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  }

  async function newPage(setup?: (page: Page) => Promise<void>) {
    const context = await browser.newContext({ locale: 'ja-JP', serviceWorkers: 'block' });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await setup?.(page);
    return { page, dialogs, close: () => context.close() };
  }

  it('on the customer reservation detail page', async () => {
    const { page, dialogs, close } = await newPage(async (p) => {
      await p.goto(`${server.url}/login`);
      // Runs in the page (this file is type-checked as Node code, hence the cast).
      await p.evaluate(
        (token) =>
          (
            globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }
          ).localStorage.setItem('access_token', token),
        customerToken,
      );
    });
    await page.goto(`${server.url}/reservations/${reservationNumber}`);
    await expectShownAsText(page, NAME);
    expect(dialogs).toEqual([]);
    await close();
  });

  it('on the admin reservation detail, customer detail and message history', async () => {
    const { page, dialogs, close } = await newPage();
    await loginAdmin(page, server.url, 'admin', superuserPassword(server));
    await page.goto(`${server.url}/admin/reservations/${reservationNumber}`);
    await expectShownAsText(page, NAME);
    await page.goto(`${server.url}/admin/customers/${customerId}`);
    await expectShownAsText(page, NAME);
    await page.goto(`${server.url}/admin/line-history`);
    await expectShownAsText(page, '<script>window.__xss=2</script>');
    expect(await page.locator('b', { hasText: '太字' }).count()).toBe(0);
    expect(dialogs).toEqual([]);
    await close();
  });
});

async function firstBookableStart(url: string, serviceIds: number[]): Promise<{ serviceId: number; start: string }> {
  const today = new Date();
  for (const monthOffset of [0, 1]) {
    const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + monthOffset, 1));
    const query = `year=${month.getUTCFullYear()}&month=${month.getUTCMonth() + 1}`;
    for (const serviceId of serviceIds) {
      const dates = (await apiJson<string[]>(url, `/api/bookable-dates/?${query}&service_id=${serviceId}`)).body;
      for (const date of dates) {
        const starts = (await apiJson<string[]>(url, `/api/availability/?date=${date}&service_id=${serviceId}`)).body;
        if (starts.length > 0) return { serviceId, start: `${date}T${starts[0]}:00` };
      }
    }
  }
  throw new Error('the demo data offers no bookable start in the next two months');
}
