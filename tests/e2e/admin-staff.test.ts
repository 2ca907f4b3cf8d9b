import type { Browser } from 'playwright-core';
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
  VIEWPORTS,
  type ViewportName,
} from './helpers/admin-e2e';

/**
 * Issue 6 acceptance, staff part, against `npm start` in Chromium at 390×844 and 1180×820: the superuser creates
 * a staff account (社員の新規追加), makes its LINE link URL, and the new staff member signs in in a second
 * browser context, where the superuser's customers and the superuser pages stay out of reach.
 */
describe('admin staff accounts (npm start, Chromium)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let password: string;
  /** A demo customer in the superuser's view (assigned to a demo staff member, not to the new accounts). */
  let demoCustomer: { id: number; name: string };

  beforeAll(async () => {
    server = await startServerProcess();
    password = superuserPassword(server);
    const token = await staffToken(server.url, 'admin', password);
    const { body } = await apiJson<{ id: number; name: string }[]>(server.url, '/api/admin/customers/', { token });
    expect(body.length).toBeGreaterThan(0);
    demoCustomer = body[0]!;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** An admin page that may use the clipboard (the LINE link URL is copied). */
  async function openContext(viewport: ViewportName) {
    const opened = await openAdminPage(browser, viewport);
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    return opened;
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`creates a staff account who signs in elsewhere and cannot see the superuser's customers (${viewport})`, async () => {
      const username = `staff-${viewport}`;
      const staffPassword = `pass-${viewport}-12345`;
      const admin = await openContext(viewport);
      try {
        await loginAdmin(admin.page, server.url, 'admin', password);
        await navigate(admin.page, viewport, '社員管理');
        await admin.page.getByRole('heading', { level: 1, name: '社員管理' }).waitFor();
        await admin.page.getByText('sato').first().waitFor();
        await expectNoAxeViolations(admin.page, `staff list (${viewport})`);
        await snap(admin.page, `admin-staff-list-${viewport}`);

        await admin.page.getByRole('link', { name: '新規追加' }).click();
        await admin.page.getByRole('heading', { level: 1, name: '社員の新規追加' }).waitFor();
        await admin.page.getByLabel(/^ログインID\s*\*?$/).fill(username);
        await admin.page.getByLabel('氏名').fill('新人 スタッフ');
        await admin.page.getByLabel('メールアドレス').fill(`${username}@example.com`);
        await admin.page.getByLabel(/^パスワード\s*\*?$/).fill(staffPassword);
        await expectNoAxeViolations(admin.page, `add staff (${viewport})`);
        await snap(admin.page, `admin-staff-new-${viewport}`);
        await admin.page.getByRole('button', { name: '登録する' }).click();
        await admin.page.getByText('新しい管理者を登録しました。').waitFor();
        await admin.page.getByRole('heading', { level: 1, name: '社員管理' }).waitFor();

        // 社員管理 names people by their full name, the role in Japanese (issue 32).
        const row = admin.page.getByRole('link', { name: '新人 スタッフ' });
        await row.first().click();
        await admin.page.getByRole('heading', { level: 1, name: '新人 スタッフ' }).waitFor();
        expect(await admin.page.getByLabel(/^権限/).first().inputValue()).toBe('ネイリスト');
        await admin.page.getByText('まだ連携されていません。').waitFor();
        await admin.page.getByRole('button', { name: '連携用URLを生成する' }).click();
        const link = admin.page.getByLabel('連携用URL');
        await link.waitFor();
        expect(await link.inputValue()).toMatch(new RegExp(`/register-line/[\\w-]{16,}$`));
        expect(await link.getAttribute('readonly')).not.toBeNull();
        await admin.page.getByRole('button', { name: 'コピー' }).click();
        await admin.page.getByText('連携用URLをクリップボードにコピーしました。').waitFor();
        expect(await admin.page.evaluate<string>('navigator.clipboard.readText()')).toBe(await link.inputValue());
        await expectNoAxeViolations(admin.page, `staff detail (${viewport})`);
        await snap(admin.page, `admin-staff-detail-${viewport}`);

        // The superuser sees the demo customer.
        await admin.page.goto(`${server.url}/admin/customers/${demoCustomer.id}`);
        await admin.page.getByRole('heading', { level: 1, name: demoCustomer.name }).waitFor();
        expect(admin.errors).toEqual([]);
      } finally {
        await admin.context.close();
      }

      const staff = await openContext(viewport);
      try {
        await loginAdmin(staff.page, server.url, username, staffPassword);
        if (viewport === 'phone') await staff.page.getByRole('button', { name: 'メニューを開く' }).click();
        const nav = staff.page.getByRole('navigation', { name: '管理メニュー' });
        await nav.getByRole('link', { name: '顧客管理' }).waitFor();
        expect(await nav.getByRole('link', { name: '社員管理' }).count()).toBe(0);
        expect(await nav.getByRole('link', { name: '統計' }).count()).toBe(0);
        await nav.getByRole('link', { name: '顧客管理' }).click();

        await staff.page.getByRole('heading', { level: 1, name: '顧客管理' }).waitFor();
        await staff.page.getByText('該当する顧客はいません。').waitFor();
        expect(await staff.page.getByText(demoCustomer.name).count()).toBe(0);
        await snap(staff.page, `admin-staff-own-customers-${viewport}`);

        await staff.page.goto(`${server.url}/admin/customers/${demoCustomer.id}`);
        await staff.page.getByText('顧客情報が見つかりません。').waitFor();
        expect(await staff.page.getByText(demoCustomer.name).count()).toBe(0);
        await expectNoAxeViolations(staff.page, `out-of-scope customer (${viewport})`);

        await staff.page.goto(`${server.url}/admin/users`);
        await staff.page.getByText('このページはオーナーのみ表示できます。').waitFor();
        expect(await staff.page.getByRole('heading', { name: '社員管理' }).count()).toBe(0);
        expect(staff.errors).toEqual([]);
      } finally {
        await staff.context.close();
      }
    });
  }
});
