import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations, snap } from './helpers/admin-e2e';
import {
  adminToken,
  insertCustomer,
  insertReservation,
  openProfile,
  reportIfSlow,
  salonDate,
  shows,
  startOfflineWorld,
  waitForWorker,
  type OfflineWorld,
  type SeededReservation,
} from './helpers/offline-e2e';

const DESK = { username: 'uketsuke', password: 'desk-password-42' };

/**
 * Issue 32 against `npm start` with the service worker on, in one persistent Chromium profile: a 受付 (front_desk)
 * account opens the 予約台帳 at 1180×820 and sees every column and a booking's block, finds the booking by its
 * 予約コード typed in lower case with a hyphen, goes offline and reloads and still sees the board; at 390×844 the
 * board shows one column with a selector.
 */
describe('front desk 予約台帳 (npm start, Chromium)', () => {
  let world: OfflineWorld;
  let context: BrowserContext;
  let page: Page;
  let booking: SeededReservation;
  let ownerColumn: string;

  beforeAll(async () => {
    world = await startOfflineWorld();
    const token = await adminToken(world);
    const post = async (path: string, json: unknown) => {
      const response = await fetch(`${world.server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(json),
      });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
      return (await response.json()) as { id: number };
    };
    await post('/api/admin/users/', { ...DESK, full_name: '受付 花子', email: 'desk@example.com', role: 'front_desk' });
    const nailist = await post('/api/admin/users/', {
      username: 'sato',
      full_name: '佐藤 美咲',
      email: 'sato@example.com',
      password: 'sato-password-42',
      role: 'nailist',
    });
    // 佐藤 works today 10:00–12:00; the owner is booked today at 23:00 (in the future whenever the test runs).
    await post('/api/admin/available-slots/', {
      date: salonDate(0),
      times: ['10:00', '10:30', '11:00', '11:30'],
      user_id: nailist.id,
    });
    const hanako = await insertCustomer(world, { name: '山田 花子', furigana: 'ヤマダ ハナコ' });
    booking = await insertReservation(world, {
      customerId: hanako,
      customerName: '山田 花子',
      date: salonDate(0),
      time: '23:00',
      status: 'confirmed',
    });
    const { rows } = await world.db.query<{ name: string }>(
      `select coalesce(nullif(full_name, ''), username) as name from staff_users where id = $1`,
      [world.adminId],
    );
    ownerColumn = rows[0]!.name;
    ({ context, page } = await openProfile(world, world.newProfile()));
  });

  afterAll(async () => {
    await context?.close();
    await world?.stop();
  });

  const block = () => page.getByRole('link', { name: /23:00〜00:00 山田 花子 様 ジェルネイル 確定/ });

  it('at 1180×820: the board, a code search typed lower case with a hyphen, then offline after a reload', async () => {
    await page.goto(`${world.url}/admin`);
    await page.getByLabel(/^ログインID\s*\*?$/).fill(DESK.username);
    await page.getByLabel(/^パスワード\s*\*?$/).fill(DESK.password);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await page.getByRole('heading', { name: '予約確認' }).waitFor();
    await reportIfSlow('the service worker controlling the page', () => waitForWorker(page));

    await page.getByRole('navigation', { name: '管理メニュー' }).getByRole('link', { name: '予約台帳' }).click();
    await page.getByRole('heading', { name: '予約台帳' }).waitFor();
    await shows(page.getByRole('group', { name: '佐藤 美咲の予約' }));
    await shows(page.getByRole('group', { name: `${ownerColumn}の予約` }));
    await shows(block());
    await shows(page.getByRole('button', { name: '佐藤 美咲 11:30 空き' }).or(page.locator('[data-now-line]')).first());
    await expectNoAxeViolations(page, 'day board (1180×820)');

    const typed = `${booking.code.slice(0, 4).toLowerCase()}-${booking.code.slice(4).toLowerCase()}`;
    await page.getByRole('textbox', { name: '予約コード・お名前・電話番号' }).fill(typed);
    await page.getByRole('button', { name: '検索', exact: true }).click();
    const results = page.getByRole('list', { name: '検索結果' });
    await results.getByText(`予約コード ${booking.code}`).click();
    await expect
      .poll(() => page.evaluate<string | null>(`document.activeElement?.getAttribute('aria-label') ?? null`))
      .toMatch(/山田 花子 様/);
    await snap(page, 'front-desk-board-tablet');

    // Offline, after a reload: the board of the day from the device.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: '予約台帳' }).waitFor();
    await shows(block());
    await shows(page.getByRole('group', { name: '佐藤 美咲の予約' }));
    await shows(page.getByText('オフラインのため予約の作成・移動はできません。'));
    expect(await page.evaluate('navigator.onLine')).toBe(false);
  });

  it('at 390×844: one column at a time, chosen with 表示するスタッフ', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const selector = page.getByRole('combobox', { name: '表示するスタッフ' });
    await shows(selector);
    const columns = page.locator('[data-board-column]');
    await expect.poll(() => columns.count()).toBe(1);
    const first = await columns.first().getAttribute('aria-label');
    const other = first === '佐藤 美咲の予約' ? `${ownerColumn}の予約` : '佐藤 美咲の予約';
    await selector.click();
    await page.getByRole('option', { name: other.replace(/の予約$/, '') }).click();
    await shows(page.getByRole('group', { name: other }));
    await expect.poll(() => columns.count()).toBe(1);
    await snap(page, 'front-desk-board-phone');
  });
});
