import { beforeAll, describe, expect, it } from 'vitest';
import { formatCalendarDay } from '../../src/shared/format';
import { MESSAGES } from '../../src/shared/messages';
import { apiJson, loginAdmin, openAdminPage, snap, staffToken, useServerAndBrowser } from './helpers/admin-e2e';
import { salonDate } from './helpers/offline-e2e';

/**
 * Issue 18 at 390×844 against `npm start`: the login page shows the salon's phone as a tap-to-call link; the
 * superuser, who has no opening slots, books a walk-in in the new-customer dialog for the staff member who has
 * free time, and only that staff member's closed times carry (営業時間外).
 */
describe('front desk and salon contact (npm start, Chromium, 390×844)', () => {
  const world = useServerAndBrowser();
  let admin: string;
  const date = salonDate(3);

  beforeAll(async () => {
    admin = await staffToken(world.server.url, 'admin', world.password);
    const settings = await apiJson(world.server.url, '/api/admin/settings/', {
      method: 'PATCH',
      token: admin,
      json: {
        phone_number: '03-1234-5678',
        address: '東京都渋谷区神南1-2-3',
        map_url: 'https://maps.example.com/sakura',
        opening_hours_text: '10:00〜20:00（火曜定休）',
      },
    });
    expect(settings.status).toBe(200);
    const staff = await apiJson<{ id: number }>(world.server.url, '/api/admin/users/', {
      method: 'POST',
      token: admin,
      json: { username: 'sato', full_name: '佐藤 美咲', email: 'sato@example.com', password: 'sato-password-1' },
    });
    expect(staff.status).toBe(201);
    const slots = await apiJson(world.server.url, '/api/admin/available-slots/', {
      method: 'POST',
      token: admin,
      json: { date, times: ['10:00', '10:30', '11:00', '11:30'], user_id: staff.body.id },
    });
    expect(slots.status).toBe(200);
    const service = await apiJson(world.server.url, '/api/services/', {
      method: 'POST',
      token: admin,
      json: { name: 'ワンカラー', price: 5000, duration_minutes: 30, salon: 1 },
    });
    expect(service.status).toBe(201);
  });

  it('shows the salon contact on the login page, the phone as a tel: link', async () => {
    const { context, page, errors } = await openAdminPage(world.browser, 'phone', { timezoneId: 'Asia/Tokyo' });
    try {
      await page.goto(`${world.server.url}/login`);
      const call = page.getByRole('link', { name: /03-1234-5678/ });
      await call.waitFor();
      expect(await call.getAttribute('href')).toBe('tel:0312345678');
      expect(await call.isVisible()).toBe(true);
      await page.getByText('住所: 東京都渋谷区神南1-2-3').waitFor();
      expect(await page.getByRole('link', { name: '地図を開く' }).getAttribute('href')).toBe(
        'https://maps.example.com/sakura',
      );
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await snap(page, 'login-salon-contact-phone');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('books a walk-in for the staff member with free time; only their closed times are (営業時間外)', async () => {
    const { context, page, errors } = await openAdminPage(world.browser, 'phone', { timezoneId: 'Asia/Tokyo' });
    try {
      await loginAdmin(page, world.server.url, 'admin', world.password);
      await page.getByRole('heading', { level: 1, name: '予約確認' }).waitFor();
      await page.getByRole('button', { name: '新規予約' }).click();
      const dialog = page.getByRole('dialog', { name: '予約作成（新規顧客）' });
      await dialog.waitFor();
      await dialog.getByRole('textbox', { name: 'お名前' }).fill('来店 太郎');
      await dialog.getByLabel(/^メニュー/).click();
      await page.getByRole('option', { name: 'ワンカラー (30分) - ¥5,000' }).click();
      await dialog.getByRole('button', { name: /日付/ }).click();
      const day = page.getByRole('button', { name: formatCalendarDay(date), exact: true });
      const nextMonth = page.getByRole('button', { name: '次の月' });
      await nextMonth.waitFor();
      if (date.slice(0, 7) !== salonDate(0).slice(0, 7)) await nextMonth.click();
      await day.click();

      const staff = dialog.getByLabel(/^担当スタッフ/);
      await expect.poll(() => staff.inputValue()).toBe('佐藤 美咲（空き 4枠）');
      const time = dialog.getByLabel(/^時間/);
      await time.click();
      const options = await page.getByRole('listbox').getByRole('option').allTextContents();
      expect(options.slice(0, 4)).toEqual(['10:00', '10:30', '11:00', '11:30']);
      expect(options).toContain('09:00 (営業時間外)');
      expect(options.filter((label) => !label.includes('(営業時間外)'))).toHaveLength(4);
      await snap(page, 'new-customer-dialog-staff-choice-phone');
      await page.getByRole('option', { name: '10:30', exact: true }).click();
      await dialog.getByRole('button', { name: '作成する' }).click();
      // The dialog closes on the new booking's detail, with one message.
      await page.getByText(MESSAGES.adminNewCustomerCreated).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { level: 1, name: '予約詳細' }).waitFor();

      const list = await apiJson<Array<{ staff_name: string; customer_name: string; start_time: string }>>(
        world.server.url,
        `/api/admin/reservations/?start_date=${date}&end_date=${date}`,
        { token: admin },
      );
      expect(list.body).toEqual([
        expect.objectContaining({
          customer_name: '来店 太郎',
          staff_name: '佐藤 美咲',
          start_time: `${date}T10:30:00`,
        }),
      ]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
