import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiJson,
  expectNoAxeViolations,
  loginAdmin,
  navigate,
  openAdminPage,
  snap,
  staffToken,
  useServerAndBrowser,
  type ViewportName,
} from './helpers/admin-e2e';
import {
  adminToken,
  insertCustomer,
  insertReservation,
  openProfile,
  outboxBadge,
  salonDate,
  shows,
  signInAndSync,
  useOfflineWorld,
} from './helpers/offline-e2e';
import { checkoutRows, DESK_PASSWORD, printedReceipt, signInAs } from './helpers/register-e2e';

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
  // With the demo data: its customers are the ones checked out.
  const world = useServerAndBrowser({});
  let customerId: number;

  beforeAll(async () => {
    const admin = await staffToken(world.server.url, 'admin', world.password);
    const product = await apiJson(world.server.url, '/api/admin/products/', {
      method: 'POST',
      token: admin,
      json: { name: 'ハンドクリーム', price: 1650, tax_rate: 10 },
    });
    expect(product.status).toBe(201);
    const customers = await apiJson<{ id: number }[]>(world.server.url, '/api/admin/customers/', { token: admin });
    customerId = customers.body[0]!.id;
  });

  for (const viewport of ['tablet', 'phone'] as ViewportName[]) {
    it(`checks a customer out and prints the receipt (${viewport})`, async () => {
      const { context, page, errors } = await openAdminPage(world.browser, viewport, { timezoneId: 'Asia/Tokyo' });
      const consoleErrors: string[] = [];
      context.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
      try {
        await loginAdmin(page, world.server.url, 'admin', world.password);
        await page.goto(`${world.server.url}/admin/customers/${customerId}/checkout`);
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
        const receipt = await printedReceipt(page, context);
        expect(await receipt.content()).toContain('ネイル代として');
        expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
        if (viewport === 'phone') {
          await page.goto(`${world.server.url}/admin/statistics`);
          await page.getByRole('table', { name: '売上の内訳' }).waitFor();
          await expectNoSidewaysScroll(page, 'takings (phone)');
          await page.goto(`${world.server.url}/admin/register`);
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
    const { context, page, errors } = await openAdminPage(world.browser, 'tablet', { timezoneId: 'Asia/Tokyo' });
    try {
      await loginAdmin(page, world.server.url, 'admin', world.password);
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

/**
 * Issue 33's acceptance at the front desk (1180×820, PostgreSQL, the server's rows read with SQL): a receptionist
 * (受付, front_desk) checks out a booking with an added part and a discount and prints the receipt (print styles,
 * a screenshot); without a connection checks out another, which is kept on the device (未送信) through a reload;
 * back online the server has each checkout exactly once, the second under the device's receipt number; then the
 * owner closes the day with a difference.
 */
describe('会計 offline at the front desk (persistent profile)', () => {
  const world = useOfflineWorld();

  it('checks out online and offline, sends each once, then closes the day with a difference', async () => {
    const token = await adminToken(world);
    const desk = await apiJson(world.server.url, '/api/admin/users/', {
      method: 'POST',
      token,
      json: {
        username: 'uketsuke',
        full_name: '受付 花',
        email: 'desk@example.com',
        password: DESK_PASSWORD,
        role: 'front_desk',
      },
    });
    expect(desk.status).toBe(201);
    const hanako = await insertCustomer(world, { name: '山田 花子' });
    const yui = await insertCustomer(world, { name: '高橋 結衣' });
    const today = salonDate(0);
    const first = await insertReservation(world, {
      customerId: hanako,
      customerName: '山田 花子',
      date: today,
      time: '00:00',
      status: 'confirmed',
    });
    const second = await insertReservation(world, {
      customerId: yui,
      customerName: '高橋 結衣',
      date: today,
      time: '01:00',
      status: 'confirmed',
    });

    const { context, page } = await openProfile(world, world.newProfile());
    try {
      await signInAs(world, page, 'uketsuke', DESK_PASSWORD);

      // Online: the booking, a part and 初回割, cash exact.
      await page.goto(`${world.url}/admin/reservations/${first.number}/checkout`);
      await page.getByRole('textbox', { name: '項目名' }).fill('パーツ');
      await page.getByRole('textbox', { name: '金額（税込）' }).fill('330');
      await page.getByRole('button', { name: '項目を追加' }).click();
      await page.getByRole('textbox', { name: '値引き名' }).fill('初回割');
      await page.getByRole('textbox', { name: '値引き額（円）' }).fill('500');
      await page.getByRole('button', { name: '値引きを追加' }).click();
      await page.getByRole('button', { name: 'ちょうど' }).click();
      await page.getByRole('button', { name: '会計する（¥5,830）' }).click();
      await page.getByRole('status').getByText('会計が完了しました').waitFor();
      const receipt = await printedReceipt(page, context);
      const html = await receipt.content();
      for (const text of ['パーツ', '初回割', '¥5,830', 'ネイル代として']) expect(html).toContain(text);
      await receipt.emulateMedia({ media: 'print' });
      await snap(receipt, 'register-receipt-print');
      await receipt.close();

      // Offline: the second booking's lines come from the device's reservations; the checkout waits, 未送信.
      await context.setOffline(true);
      await page.goto(`${world.url}/admin/reservations/${second.number}/checkout`);
      await page.getByRole('button', { name: 'クレジットカード' }).click();
      await page.getByRole('button', { name: '会計する（¥6,000）' }).click();
      await page.getByRole('status').getByText('会計が完了しました').waitFor();
      await shows(page.getByText('未送信', { exact: true }));
      const deviceNumber = /領収書番号 (\S+)/.exec((await page.getByText(/^領収書番号/).textContent()) ?? '')![1]!;
      // The second number drawn on this device today (the online checkout drew the first).
      expect(deviceNumber).toMatch(/^D[A-Z0-9]{6}-\d{8}-2$/);
      const offlineReceipt = await printedReceipt(page, context);
      expect(await offlineReceipt.content()).toContain(`No. ${deviceNumber}`);
      await offlineReceipt.close();
      await snap(page, 'register-checkout-offline');

      await page.reload();
      await shows(page.getByText(`領収書番号 ${deviceNumber} の会計がこの端末に保存されています。`, { exact: false }));
      await expect.poll(() => outboxBadge(page)).toBe(1);
      expect(await checkoutRows(world)).toHaveLength(1);

      // Back online: sent once, under the device's number.
      await context.setOffline(false);
      await expect.poll(() => outboxBadge(page), { timeout: 20_000 }).toBe(0);
      const rows = await checkoutRows(world);
      expect(rows.map((row) => row.reservation_id).sort()).toEqual([first.id, second.id].sort());
      expect(rows.find((row) => row.reservation_id === second.id)!.receipt_number).toBe(deviceNumber);
    } finally {
      await context.close();
    }

    // The owner closes the day, 500 yen short.
    const owner = await openProfile(world, world.newProfile());
    try {
      await signInAndSync(world, owner.page);
      await owner.page.goto(`${world.url}/admin/register`);
      const list = owner.page.getByRole('table', { name: 'この日の会計' });
      await list.waitFor();
      expect(await list.getByRole('row').count()).toBe(3);
      const expected = await owner.page.getByRole('group', { name: '予想現金' }).textContent();
      const expectedCash = Number(/¥([\d,]+)/.exec(expected ?? '')![1]!.replaceAll(',', ''));
      await owner.page.getByText('合計を入力', { exact: true }).click();
      await owner.page.getByRole('textbox', { name: '数えた現金（合計）' }).fill(String(expectedCash - 500));
      await owner.page.getByRole('button', { name: '締める' }).click();
      await owner.page.getByRole('dialog').getByRole('button', { name: '締める' }).click();
      await owner.page.getByRole('heading', { name: /締め済み/ }).waitFor();
      await owner.page.getByRole('group', { name: '過不足' }).getByText('¥500 不足').waitFor();
      const { rows } = await world.db.query<{ short: number }>(
        'select counted_cash - expected_cash as short from register_closings',
      );
      expect(rows).toEqual([{ short: -500 }]);
    } finally {
      await owner.context.close();
    }
  }, 180_000);
});
