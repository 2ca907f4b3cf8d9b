import { describe, expect, it } from 'vitest';
import {
  apiJson,
  dismissNotifications,
  expectNoAxeViolations,
  loginAdmin,
  navigate,
  openAdminPage,
  snap,
  staffToken,
  useServerAndBrowser,
} from './helpers/admin-e2e';

/**
 * Options (オプション) on the staff menu screen, on a 390×844 phone against `npm start`: added in the オプション
 * section for a menu ticked in the form, listed there and under that menu with their time and price without the
 * page scrolling sideways, deleted after the confirmation, and gone from the public menu. axe-core runs on the
 * screen and on its dialogs.
 */
describe('menu options on a phone (npm start, Chromium)', () => {
  const world = useServerAndBrowser();

  it('adds an option for a menu and deletes it', async () => {
    const token = await staffToken(world.server.url, 'admin', world.password);
    const created = await apiJson<{ id: number }>(world.server.url, '/api/services/', {
      method: 'POST',
      token,
      json: { name: 'ジェルネイル ワンカラー（ハンド・フット共通）', price: 6600, duration_minutes: 60 },
    });
    expect(created.status).toBe(201);

    const { context, page, errors } = await openAdminPage(world.browser, 'phone', { timezoneId: 'Asia/Tokyo' });
    try {
      await loginAdmin(page, world.server.url, 'admin', world.password);
      await navigate(page, 'phone', 'メニュー管理');
      await page.getByRole('heading', { level: 1, name: 'メニュー管理' }).waitFor();

      await page.getByRole('button', { name: 'オプションを追加' }).click();
      const form = page.getByRole('dialog', { name: 'オプションを追加' });
      await form.getByLabel(/^オプション名/).fill('ラインストーン（10粒まで）');
      await form.getByLabel(/^料金/).fill('1100');
      await form.getByLabel(/^追加時間（分）/).fill('30');
      await form
        .getByRole('group', { name: 'このオプションを使えるメニュー' })
        .getByRole('checkbox', { name: 'ジェルネイル ワンカラー（ハンド・フット共通）' })
        .check();
      await expectNoAxeViolations(page, 'option form (phone)', { dialog: true });
      await form.getByRole('button', { name: '保存' }).click();
      const options = page.getByRole('list', { name: /のオプション$/ });
      await options.getByText('+30分・¥1,100').waitFor();
      await page
        .getByRole('list', { name: 'オプション一覧' })
        .getByText('使えるメニュー：ジェルネイル ワンカラー（ハンド・フット共通）')
        .waitFor();
      await dismissNotifications(page, 'オプションを追加しました。');
      // Nothing wider than the phone: the page never scrolls sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page, 'menu with options (phone)');
      await snap(page, 'admin-menu-options-phone');

      const menu = await apiJson<Array<{ id: number; options: Array<{ name: string }> }>>(
        world.server.url,
        '/api/services/',
      );
      expect(menu.body.find((service) => service.id === created.body.id)?.options).toEqual([
        expect.objectContaining({ name: 'ラインストーン（10粒まで）', price: '1100', duration_minutes: 30 }),
      ]);

      await page.getByRole('button', { name: 'オプション「ラインストーン（10粒まで）」を削除' }).click();
      const confirm = page.getByRole('dialog', { name: '確認' });
      await expectNoAxeViolations(page, 'option delete confirmation (phone)', { dialog: true });
      await confirm.getByRole('button', { name: '削除する' }).click();
      await page.getByText('オプションはありません。').waitFor();
      await page.getByText(/オプションがまだありません/).waitFor();
      const after = await apiJson<Array<{ id: number; options: unknown[] }>>(world.server.url, '/api/services/');
      expect(after.body.find((service) => service.id === created.body.id)?.options).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
