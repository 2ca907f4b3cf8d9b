import { lineText } from '#tests/helpers/line-text';
import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDateTimeJa } from '../../src/shared/format';
import {
  apiJson,
  dismissNotifications,
  eventually,
  expectNoAxeViolations,
  lineLinkedCustomer,
  loginAdmin,
  navigate,
  openAdminPage,
  snap,
  useServerAndBrowser,
  VIEWPORTS,
  type ViewportName,
} from './helpers/admin-e2e';
import { salonDate } from './helpers/offline-e2e';

/**
 * Issue 6 acceptance, front-desk part, against `npm start` in Chromium at 390×844 (drawer) and 1180×820 (tablet):
 * the superuser logs in, adds a service, opens slots for a day; a customer books through the API; the booking
 * appears on the open reservation list without a reload (server-sent events) with a notification; the superuser
 * confirms it; the customer's LINE inbox and mailbox show the confirmation. axe-core runs on every screen.
 */
describe('admin front desk (npm start, Chromium)', () => {
  const world = useServerAndBrowser();

  const viewports = Object.keys(VIEWPORTS) as ViewportName[];
  viewports.forEach((viewport, index) => {
    it(`adds a service, opens slots, sees a customer's booking arrive live and confirms it (${viewport})`, async () => {
      const serviceName = `ジェルネイル ${viewport}`;
      const date = salonDate(3 + index);
      const customerName = viewport === 'phone' ? '山田 花子' : '高橋 結衣';
      const customerEmail = `customer-${viewport}@example.com`;
      const { context, page, errors } = await openAdminPage(world.browser, viewport, { timezoneId: 'Asia/Tokyo' });
      try {
        // Login screen.
        await page.goto(`${world.server.url}/admin`);
        await page.getByRole('heading', { level: 1, name: 'スタッフログイン' }).waitFor();
        await expectNoAxeViolations(page, `login (${viewport})`);
        await snap(page, `admin-login-${viewport}`);
        await loginAdmin(page, world.server.url, 'admin', world.password);
        await page.getByRole('heading', { level: 1, name: '予約確認' }).waitFor();
        if (viewport === 'phone') {
          const bar = await page.getByRole('region', { name: 'メニューバー' }).boundingBox();
          expect(bar?.height).toBe(64);
          await page.getByRole('button', { name: 'メニューを開く' }).click();
          await page.getByRole('dialog', { name: 'メニュー' }).waitFor();
          await expectNoAxeViolations(page, `drawer (${viewport})`, { dialog: true });
          await snap(page, `admin-drawer-${viewport}`);
          await page
            .getByRole('dialog', { name: 'メニュー' })
            .getByRole('button', { name: '閉じる', exact: true })
            .click();
          await page.getByRole('dialog', { name: 'メニュー' }).waitFor({ state: 'detached' });
        } else {
          expect(await page.getByRole('button', { name: 'メニューを開く' }).isVisible()).toBe(false);
        }

        // Menu: add a 60-minute service.
        await navigate(page, viewport, 'メニュー管理');
        await page.getByRole('heading', { level: 1, name: 'メニュー管理' }).waitFor();
        await page.getByRole('button', { name: 'メニューを追加' }).click();
        const form = page.getByRole('dialog', { name: 'メニューを追加' });
        await form.getByLabel(/^メニュー名/).fill(serviceName);
        await form.getByLabel(/^料金/).fill('6600');
        await form.getByLabel(/^所要時間/).fill('60');
        await expectNoAxeViolations(page, `service form (${viewport})`, { dialog: true });
        await snap(page, `admin-menu-form-${viewport}`);
        await form.getByRole('button', { name: '保存' }).click();
        await page.getByRole('list', { name: 'メニュー一覧' }).getByText(serviceName).waitFor();
        await dismissNotifications(page, 'メニューを追加しました。');
        await expectNoAxeViolations(page, `menu (${viewport})`);
        await snap(page, `admin-menu-${viewport}`);

        // Schedule: open 10:00 and 10:30 on the day.
        await navigate(page, viewport, '受付時間設定');
        await page.getByRole('heading', { level: 1, name: '受付時間設定' }).waitFor();
        const thisMonth = salonDate(0).slice(0, 7);
        if (date.slice(0, 7) !== thisMonth) await page.getByRole('button', { name: '次の月' }).click();
        await page.getByRole('button', { name: new RegExp(`^${formatCalendarDay(date)}`) }).click();
        const slots = page.getByRole('dialog', { name: /の受付時間$/ });
        await slots.getByRole('checkbox', { name: '10:00' }).check();
        await slots.getByRole('checkbox', { name: '10:30' }).check();
        await expectNoAxeViolations(page, `slots dialog (${viewport})`, { dialog: true });
        await snap(page, `admin-schedule-dialog-${viewport}`);
        await slots.getByRole('button', { name: '保存' }).click();
        await page.getByRole('button', { name: `${formatCalendarDay(date)}（個別設定）` }).waitFor();
        await dismissNotifications(page, '保存しました。');
        await expectNoAxeViolations(page, `schedule (${viewport})`);
        await snap(page, `admin-schedule-${viewport}`);

        // The front-desk list is open when the customer books.
        await navigate(page, viewport, '予約確認');
        await page.getByRole('heading', { level: 1, name: '予約確認' }).waitFor();
        await page.evaluate(() => {
          (globalThis as unknown as { __noReload: boolean }).__noReload = true;
        });
        await expectNoAxeViolations(page, `reservation list (${viewport})`);

        const customerToken = await lineLinkedCustomer(world.server.url, `e2e-${viewport}`);
        const { body: services } = await apiJson<Array<{ id: number; name: string }>>(
          world.server.url,
          '/api/services/',
        );
        const service = services.find((item) => item.name === serviceName)!;
        const { body: salons } = await apiJson<Array<{ id: number }>>(world.server.url, '/api/salons/');
        const booked = await apiJson<{ reservation_number: string; reservation_code: string; status: string }>(
          world.server.url,
          '/api/reservations/',
          {
            method: 'POST',
            token: customerToken,
            json: {
              salon: salons[0]!.id,
              service: service.id,
              start_time: `${date}T10:00:00`,
              customer_name: customerName,
              customer_furigana: '',
              customer_email: customerEmail,
              customer_phone: '09012345678',
            },
          },
        );
        expect(booked.status).toBe(201);
        const bookedAt = Date.now();

        // Live: the row and a notification arrive without a reload.
        const row = page.getByRole('link', {
          name: new RegExp(formatDateTimeJa(`${date}T10:00:00`).replace(/[()]/g, '\\$&')),
        });
        await page.getByText(`${customerName} 様`).first().waitFor({ timeout: 10_000 });
        console.log(`${viewport}: the booking reached the open list ${Date.now() - bookedAt} ms after it was made`);
        await page.getByText('新しい予約が入りました').waitFor();
        expect(await page.evaluate(() => (globalThis as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
        await snap(page, `admin-reservations-live-${viewport}`);
        await dismissNotifications(page);
        await expectNoAxeViolations(page, `reservation list with the booking (${viewport})`);

        // Detail: confirm.
        await row.first().click();
        await page.getByRole('heading', { level: 1, name: '予約詳細' }).waitFor();
        await page.getByText(booked.body.reservation_code).waitFor();
        await expectNoAxeViolations(page, `reservation detail (${viewport})`);
        await page.getByRole('button', { name: '確定する' }).click();
        const confirm = page.getByRole('dialog', { name: '確認' });
        await confirm.getByText('この予約を確定しますか？').waitFor();
        await expectNoAxeViolations(page, `confirm dialog (${viewport})`, { dialog: true });
        await confirm.getByRole('button', { name: '確定する' }).click();
        await page.locator('[data-status="confirmed"]').waitFor();
        await expect.poll(() => page.getByRole('button', { name: '確定する' }).count()).toBe(0);
        await dismissNotifications(page, '予約を確定しました。');
        await snap(page, `admin-reservation-confirmed-${viewport}`);

        // The customer hears about it on LINE and by e-mail.
        const line = await eventually(async () => {
          const { body } = await apiJson<{
            messages: Array<{ to: string; messages: unknown[] }>;
          }>(world.server.url, '/dev/line/inbox?format=json');
          return body.messages.find((entry) =>
            entry.messages.some((message) => {
              const text = lineText(message);
              return text.includes('ご予約が確定しました') && text.includes(serviceName);
            }),
          );
        }, 'the LINE confirmation');
        expect(line.to).toMatch(/^U/);
        const mail = await eventually(async () => {
          const { body } = await apiJson<{ messages: Array<{ to: string; subject: string; text: string }> }>(
            world.server.url,
            `/dev/mail?format=json&to=${encodeURIComponent(customerEmail)}`,
          );
          return body.messages.find(
            (message) => message.to === customerEmail && message.subject.includes('ご予約が確定しました'),
          );
        }, 'the confirmation e-mail');
        expect(mail.text).toContain(serviceName);

        const inbox = await context.newPage();
        await inbox.goto(`${world.server.url}/dev/line/inbox`);
        await inbox.getByText('ご予約が確定しました').first().waitFor();
        await snap(inbox, `admin-journey-line-inbox-${viewport}`);
        await inbox.goto(`${world.server.url}/dev/mail`);
        await inbox.getByText(`ご予約が確定しました`).first().waitFor();
        await snap(inbox, `admin-journey-mailbox-${viewport}`);
        await inbox.close();

        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
