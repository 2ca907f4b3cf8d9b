import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDateJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { WaitlistEntry } from '#src/shared/schemas/waitlist';
import { lineText } from '#tests/helpers/line-text';
import { launchChromium, screenshotPath } from '../helpers/browser';
import { apiJson, eventually, loginAdmin, navigate } from './helpers/admin-e2e';
import {
  ADMIN_PASSWORD,
  adminToken,
  insertReservation,
  salonDate,
  SALON_TZ,
  startOfflineWorld,
  type OfflineWorld,
} from './helpers/offline-e2e';
import { CustomerApp, PHONE_VIEWPORT } from './pages/customer-app';

/**
 * Issue 16 "Keeping customers" end to end, against `npm start` on a PostgreSQL database of its own (SQL reads the
 * rows and seeds past visits), with the built-in LINE emulator and dev mailbox; customers on 390×844 phones, staff
 * on the same phone size (drawer):
 *   1. キャンセル待ち: a full day, joined from the wizard; staff cancel the blocking booking; the offer card reaches
 *      the customer's LINE chat; its link books the freed start; staff see the entry booked.
 *   2. two customers offered the same start: the second to book reads the 409's message on the time step.
 *   3. the no-show rule set in 設定: a customer with two 無断欠席 (marked in the staff app) books online, reads the
 *      pending wording, and staff see 「要承認」 with the counts.
 *   4. the LINE monthly limit reached: the staff banner, 「メールで送信しました」 on /check and the e-mail itself.
 * Every scenario opens its own day and customers, and puts back the salon settings it changed.
 */

const PID = process.pid;
const SERVICE = 'ジェルネイル';

interface InboxEntry {
  to: string;
  messages: Array<{ type?: string }>;
}

interface AdminReservation {
  reservation_number: string;
  start_time: string;
  status: string;
  customer_id: number;
  customer_name: string;
  needs_approval?: boolean;
}

describe('keeping customers (npm start on PostgreSQL, Chromium at 390×844)', () => {
  let world: OfflineWorld;
  let url = '';
  let browser: Browser;
  let admin = '';
  const pageErrors: string[] = [];

  beforeAll(async () => {
    world = await startOfflineWorld();
    // The browser talks to the server itself: the links in messages carry its address (PUBLIC_URL's default).
    url = world.server.url;
    admin = await adminToken(world);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await world?.stop();
  });

  // --- setup through the API ------------------------------------------------------------------------------------

  /** The superuser's half-hour slots on a day: with 10:00 and 10:30 only, the 60-minute menu has one start. */
  async function openSlots(date: string, times: string[]) {
    const answer = await apiJson(url, '/api/admin/available-slots/', {
      method: 'POST',
      token: admin,
      json: { date, times, user_id: world.adminId },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }

  async function bookByApi(token: string, date: string, time: string, name: string, email: string) {
    const answer = await apiJson<{ reservation_number: string; status: string }>(url, '/api/reservations/', {
      method: 'POST',
      token,
      json: {
        salon: world.salonId,
        service: world.serviceId,
        start_time: `${date}T${time}:00`,
        customer_name: name,
        customer_furigana: '',
        customer_email: email,
        customer_phone: '09012345678',
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.reservation_number;
  }

  const reservationOf = async (number: string) =>
    (await apiJson<AdminReservation>(url, `/api/admin/reservations/${number}/`, { token: admin })).body;

  async function patchSettings(json: Record<string, unknown>) {
    const answer = await apiJson(url, '/api/admin/settings/', { method: 'PATCH', token: admin, json });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }

  async function inbox(): Promise<InboxEntry[]> {
    return (await apiJson<{ messages: InboxEntry[] }>(url, '/dev/line/inbox?format=json')).body.messages;
  }

  const lineUserOf = async (name: string) =>
    (await world.db.query<{ line_user_id: string }>('select line_user_id from customers where name = $1', [name]))
      .rows[0]!.line_user_id;

  /** The キャンセル待ち offer card for this entry in the LINE emulator's inbox: its text, as the inbox page reads it. */
  async function offerCard(entryId: number) {
    return eventually(
      async () => {
        for (const entry of await inbox()) {
          const message = entry.messages.find((item) => lineText(item).includes(`/reserve?waitlist=${entryId}`));
          if (message) return { to: entry.to, type: message.type, text: lineText(message) };
        }
        return undefined;
      },
      `the waitlist offer for entry ${entryId}`,
      30_000,
    );
  }

  // --- browsers -------------------------------------------------------------------------------------------------

  async function phone(): Promise<Page> {
    const context = await browser.newContext({
      viewport: PHONE_VIEWPORT,
      locale: 'ja-JP',
      timezoneId: SALON_TZ,
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }

  /** A new LINE user signs in through the emulator; returns the page object and the customer's access token. */
  async function customer(lineUser: string): Promise<{ app: CustomerApp; token: string }> {
    const app = new CustomerApp(await phone(), url);
    await app.goto('/login');
    await app.loginWithLineEmulator(lineUser);
    await app.waitForPath('/reserve');
    await app.heading('メニューを選ぶ', 2).waitFor();
    const [token] = await app.storedTokens();
    return { app, token: token! };
  }

  async function staff(): Promise<Page> {
    const page = await phone();
    await loginAdmin(page, url, 'admin', ADMIN_PASSWORD);
    return page;
  }

  /** From the menu to the date step, then to `date`'s month of the calendar. */
  async function toDateStep(app: CustomerApp, date: string) {
    await app.button(new RegExp(`^${SERVICE}`)).click();
    await app.heading('オプション・指名を選ぶ', 2).waitFor();
    await app.button('この内容で日付を選ぶ').click();
    await app.heading('日付を選ぶ', 2).waitFor();
    if (date.slice(0, 7) !== salonDate(0).slice(0, 7)) await app.button('次の月').click();
    await app.page
      .getByText(/^(枠で囲まれた日がご予約いただける日です。|この月に予約可能な日はありません。)/)
      .waitFor();
    await app.page.getByText('予約できる日を読み込み中…').waitFor({ state: 'detached' });
  }

  /** The time step's start, the details and the confirmation: returns the confirmation step's button. */
  async function fillUntilConfirm(app: CustomerApp, time: string, person: { name: string; email: string }) {
    const { page } = app;
    await app.heading('時間を選ぶ', 2).waitFor();
    await page.getByRole('group', { name: '開始時刻' }).getByRole('button', { name: time }).click();
    await app.heading('お客様情報の入力', 2).waitFor();
    await page.getByLabel('お名前').fill(person.name);
    await page.getByLabel('フリガナ').fill('テスト');
    await page.getByLabel('メールアドレス').fill(person.email);
    await app.button('予約内容を確認する').click();
    await app.heading('予約内容の確認', 2).waitFor();
    return app.button('この内容で予約する');
  }

  async function completedNumber(app: CustomerApp): Promise<string> {
    await app.waitForPath(/^\/reservation-complete\//);
    return decodeURIComponent((await app.path()).split('/').pop()!);
  }

  /** The staff app's confirmation dialog of a reservation action, answered yes. */
  async function staffAction(page: Page, number: string, action: string, question: string, done: string) {
    await page.goto(`${url}/admin/reservations/${number}`);
    await page.getByRole('heading', { level: 1, name: '予約詳細' }).waitFor();
    await page.getByRole('button', { name: action, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(question).waitFor();
    await dialog
      .getByRole('button', { name: action === 'キャンセル' ? 'キャンセルする' : action, exact: true })
      .click();
    await page.getByText(done).first().waitFor();
  }

  it('offers a freed start to a waiting customer by LINE, whose link books it; staff see the entry booked', async () => {
    const day = salonDate(5);
    // A day of the same month with a free start: the calendar offers it, and not the full one.
    const open = [salonDate(4), salonDate(6)].find((date) => date.slice(0, 7) === day.slice(0, 7))!;
    const name = `e2e-wait-${PID}`;
    await openSlots(day, ['10:00', '10:30']);
    await openSlots(open, ['10:00', '10:30']);
    const blockerToken = (await customer(`e2e-blocker-${PID}`)).token;
    const blocking = await bookByApi(blockerToken, day, '10:00', '先約 様', `blocker-${PID}@example.com`);

    // The day is full: not offered in the calendar; the customer joins its キャンセル待ち from the date step.
    const { app, token } = await customer(name);
    const { page } = app;
    await toDateStep(app, day);
    await app.button(`${formatCalendarDay(open)}（予約できます）`).waitFor();
    const dayButton = page.getByRole('button', { name: formatCalendarDay(day), exact: true });
    expect(await dayButton.isDisabled()).toBe(true);
    expect(await app.button(`${formatCalendarDay(day)}（予約できます）`).count()).toBe(0);
    await app.button(MESSAGES.waitlistJoin).click();
    await page.getByLabel('ご希望の日').fill(day);
    await page.getByRole('button', { name: '登録する', exact: true }).click();
    const ask = page.getByRole('dialog');
    await ask.getByText(MESSAGES.waitlistJoinQuestion(formatDateJa(day), SERVICE)).waitFor();
    await ask.getByRole('button', { name: '登録する', exact: true }).click();
    await page.getByText('キャンセル待ちに登録しました', { exact: true }).waitFor();
    await app.screenshot('keeping-01-waitlist-joined');
    await page.getByRole('link', { name: '予約一覧で確認する' }).click();
    await app.waitForPath('/reservations');
    const mine = page.getByRole('region', { name: 'キャンセル待ち' });
    await mine.getByText(SERVICE).first().waitFor();
    expect(await mine.textContent()).toContain(formatDateJa(day));
    await app.record('keeping-02-my-waitlist');

    const entries = (await apiJson<WaitlistEntry[]>(url, '/api/waitlist/', { token })).body;
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(entry).toMatchObject({ date: day, service_id: world.serviceId, status: 'waiting' });

    // Staff cancel the blocking booking in the admin app, after its confirmation.
    const desk = await staff();
    await staffAction(desk, blocking, 'キャンセル', MESSAGES.adminCancelQuestion, '予約をキャンセルしました。');
    expect((await reservationOf(blocking)).status).toBe('cancelled');

    // The offer reaches this customer's LINE chat as a card whose button links to the wizard.
    const offer = await offerCard(entry.id);
    expect(offer.to).toBe(await lineUserOf(name));
    expect(offer.type).toBe('flex');
    expect(offer.text).toContain(`${url}/reserve?waitlist=${entry.id}`);
    expect(offer.text).toContain('10:00');
    expect(offer.text).toContain(SERVICE);

    // The link opens the wizard on that day, with the freed start.
    await page.goto(`${url}/reserve?waitlist=${entry.id}`);
    await app.heading('時間を選ぶ', 2).waitFor();
    const starts = page.getByRole('group', { name: '開始時刻' }).getByRole('button');
    await starts.first().waitFor();
    expect(await starts.allTextContents()).toEqual([expect.stringContaining('10:00')]);
    const book = await fillUntilConfirm(app, '10:00', { name, email: `wait-${PID}@example.com` });
    expect((await page.locator('dl').first().textContent()) ?? '').toContain(SERVICE);
    await book.click();
    const number = await completedNumber(app);
    const booked = await reservationOf(number);
    expect(booked.start_time).toBe(`${day}T10:00:00`);
    expect(booked.customer_name).toBe(name);

    // Staff's キャンセル待ち panel of that day: offered once, now booked.
    await eventually(
      async () => {
        await desk.goto(`${url}/admin/reservations?from=${day}`);
        const panel = desk.getByRole('region', { name: 'キャンセル待ち' });
        await panel.getByRole('button', { name: /キャンセル待ち/ }).click();
        const row = panel.getByRole('row', { name: new RegExp(name) });
        await row.waitFor({ timeout: 5_000 });
        const text = (await row.textContent()) ?? '';
        return text.includes('予約済み') ? text : undefined;
      },
      'the entry shown as booked to staff',
      30_000,
    ).then((text) => expect(text).toMatch(/案内済み（1回/));
    // The panel opens with a height transition (Mantine's Collapse, driven from script): let it end before the photo.
    await desk.waitForTimeout(400);
    await desk.screenshot({ path: screenshotPath('keeping-03-staff-waitlist-booked'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('gives one start offered to two customers to the first who books; the second reads why', async () => {
    const day = salonDate(6);
    await openSlots(day, ['10:00', '10:30']);
    const blockerToken = (await customer(`e2e-blocker2-${PID}`)).token;
    const blocking = await bookByApi(blockerToken, day, '10:00', '先約 様', `blocker2-${PID}@example.com`);
    const first = await customer(`e2e-first-${PID}`);
    const second = await customer(`e2e-second-${PID}`);
    const join = async (token: string) => {
      const answer = await apiJson<WaitlistEntry>(url, '/api/waitlist/', {
        method: 'POST',
        token,
        json: { service_id: world.serviceId, date: day },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.id;
    };
    const [firstEntry, secondEntry] = [await join(first.token), await join(second.token)];

    const cancelled = await apiJson(url, `/api/reservations/${blocking}/cancel/`, { method: 'POST', token: admin });
    expect(cancelled.status).toBe(200);
    for (const entry of [firstEntry, secondEntry]) {
      expect((await offerCard(entry)).text).toContain(`${url}/reserve?waitlist=${entry}`);
    }

    // Both open their offer and reach the confirmation of the same start.
    const buttons = [];
    for (const [who, entry] of [
      [first, firstEntry],
      [second, secondEntry],
    ] as const) {
      await who.app.goto(`/reserve?waitlist=${entry}`);
      buttons.push(
        await fillUntilConfirm(who.app, '10:00', { name: `客 ${entry}`, email: `race-${entry}@example.com` }),
      );
    }
    await buttons[0]!.click();
    const won = await completedNumber(first.app);
    expect((await reservationOf(won)).start_time).toBe(`${day}T10:00:00`);

    // The second booking is refused (409): the wizard goes back to the times and says why, on screen.
    await buttons[1]!.click();
    await second.app.page.getByText(MESSAGES.slotUnavailable).waitFor();
    await second.app.heading('時間を選ぶ', 2).waitFor();
    expect(await second.app.path()).toBe('/reserve');
    await second.app.screenshot('keeping-04-offer-lost');
    const { rows } = await world.db.query<{ customer_name: string }>(
      `select customer_name from reservations where start_time = ($1::date + time '10:00') at time zone $2
         and status in ('pending', 'confirmed')`,
      [day, SALON_TZ],
    );
    expect(rows).toEqual([{ customer_name: `客 ${firstEntry}` }]);
    expect(pageErrors).toEqual([]);
  });

  it('holds back the online booking of a customer with two 無断欠席 under the rule set in 設定', async () => {
    const day = salonDate(7);
    const name = `e2e-repeat-${PID}`;
    await openSlots(day, ['10:00', '10:30', '11:00', '11:30']);
    const desk = await staff();
    try {
      // 設定: online bookings confirm themselves, except from 2 無断欠席・直前キャンセル on.
      await desk.goto(`${url}/admin/settings`);
      await desk.getByText('無断欠席・直前キャンセル', { exact: true }).waitFor();
      await desk.getByLabel('オンライン予約を自動で確定する').check();
      await desk.getByLabel('無断欠席・直前キャンセルが多いお客様の予約は承認制にする').check();
      await desk.getByLabel('承認制にする回数（無断欠席と直前キャンセルの合計）').fill('2');
      await desk.getByRole('button', { name: '保存する' }).click();
      await eventually(async () => {
        const { body } = await apiJson<Record<string, unknown>>(url, '/api/admin/settings/', { token: admin });
        return body.auto_confirm_online_bookings === true && body.approval_after_incidents === 2 ? true : undefined;
      }, 'the saved rule');

      // Two past visits of the customer, marked 無断欠席 by staff.
      const { app } = await customer(name);
      const customerId = (await world.db.query<{ id: number }>('select id from customers where name = $1', [name]))
        .rows[0]!.id;
      for (const days of [-9, -8]) {
        const visit = await insertReservation(world, {
          customerId,
          customerName: name,
          date: salonDate(days),
          time: '10:00',
          status: 'confirmed',
        });
        await staffAction(desk, visit.number, '無断欠席', MESSAGES.adminNoShowQuestion, '無断欠席にしました。');
      }

      // The customer books online and is told the salon will confirm.
      const { page } = app;
      await toDateStep(app, day);
      await app.button(`${formatCalendarDay(day)}（予約できます）`).click();
      await (await fillUntilConfirm(app, '10:00', { name, email: `repeat-${PID}@example.com` })).click();
      const number = await completedNumber(app);
      await page.getByText('サロンでご予約を確認しましたら、改めてご連絡いたします。').waitFor();
      expect(await page.getByText('ご予約は確定しています。').count()).toBe(0);
      await app.record('keeping-05-pending');
      expect(await reservationOf(number)).toMatchObject({ status: 'pending', needs_approval: true });

      // Staff see 「要承認」 and the counts on the reservation and on the customer.
      const summary = MESSAGES.incidentSummary(2, 0);
      await desk.goto(`${url}/admin/reservations/${number}`);
      await desk.getByRole('heading', { level: 1, name: '予約詳細' }).waitFor();
      await desk.getByText(MESSAGES.needsApproval, { exact: true }).waitFor();
      await desk.getByText(summary).first().waitFor();
      await desk.screenshot({ path: screenshotPath('keeping-06-staff-needs-approval'), fullPage: true });
      await desk.goto(`${url}/admin/customers/${customerId}`);
      await desk.getByText(summary).first().waitFor();
      await desk.getByText(MESSAGES.needsApproval, { exact: true }).waitFor();
      expect(pageErrors).toEqual([]);
    } finally {
      await patchSettings({ auto_confirm_online_bookings: false, approval_after_incidents: 2 });
    }
  });

  it('at the LINE monthly limit warns staff and sends the check page by e-mail', async () => {
    const day = salonDate(8);
    const name = `e2e-limit-${PID}`;
    const email = `limit-${PID}@example.com`;
    await openSlots(day, ['10:00', '10:30']);
    const { app, token } = await customer(name);
    const number = await bookByApi(token, day, '10:00', name, email);
    const lineUser = await lineUserOf(name);
    // The booking's own notice is a push: at least one is counted this month.
    const sent = await eventually(async () => {
      const { body } = await apiJson<{ pushes_sent: number }>(url, '/api/admin/line-usage/', { token: admin });
      return body.pushes_sent > 0 ? body.pushes_sent : undefined;
    }, 'a counted push');
    const desk = await staff();
    try {
      // 設定: the limit is what has been sent, so it is reached.
      await desk.goto(`${url}/admin/settings`);
      await desk.getByLabel('LINEの月間送信上限（通）').fill(String(sent));
      await desk.getByRole('button', { name: '保存する' }).click();
      await eventually(async () => {
        const { body } = await apiJson<{ limit: number }>(url, '/api/admin/line-usage/', { token: admin });
        return body.limit === sent ? true : undefined;
      }, 'the saved limit');

      // The shell shows the warning, also right after a reload whose persisted cache was saved before the limit
      // changed (line-budget-banner.tsx), and on every other staff screen.
      const banner = desk.getByRole('alert').filter({ hasText: '今月のLINE送信数が上限' });
      await desk.goto(`${url}/admin`);
      await desk.getByRole('heading', { level: 1, name: '予約確認' }).waitFor();
      await banner.waitFor({ timeout: 10_000 });
      await navigate(desk, 'phone', '設定');
      await desk.getByLabel('LINEの月間送信上限（通）').waitFor();
      await banner.waitFor();
      expect(await banner.textContent()).toContain(`上限（${sent.toLocaleString('ja-JP')}通）に達しました`);
      await desk.screenshot({ path: screenshotPath('keeping-07-staff-line-limit'), fullPage: true });

      // The customer's check page sends by e-mail instead, and says so; nothing more reaches the LINE chat.
      const pushesBefore = (await inbox()).filter((entry) => entry.to === lineUser).length;
      await app.goto('/check');
      await app.page.getByText('メールで送信しました').waitFor();
      await app.record('keeping-08-check-by-email');
      const mail = await eventually(async () => {
        const { body } = await apiJson<{ messages: Array<{ to: string; subject: string; text: string }> }>(
          url,
          `/dev/mail?format=json&to=${encodeURIComponent(email)}`,
        );
        // The check page's own message (the booking's acceptance mail names the reservation too).
        return body.messages.find(
          (message) =>
            message.to === email &&
            message.text.includes('ご予約内容をお知らせします') &&
            message.text.includes(number),
        );
      }, 'the e-mail of the check page');
      expect(mail.text).toContain(SERVICE);
      expect((await inbox()).filter((entry) => entry.to === lineUser).length).toBe(pushesBefore);
      expect(pageErrors).toEqual([]);
    } finally {
      await patchSettings({ line_monthly_push_limit: 0 });
    }
  });
});
