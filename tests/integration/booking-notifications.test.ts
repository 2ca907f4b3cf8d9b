import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsOutbox, services, staffUsers } from '../../server/db/schema';
import { formatDateTimeRangeJa } from '../../src/shared/format';
import { addDaysToDate, localDateOf } from '../../src/shared/time';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USERNAME, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer } from '../helpers/factories';
import { startFakeLineMessaging, type FakeLineMessaging } from '../helpers/fake-line-messaging';
import { startFakeSmtp, type FakeSmtpServer } from '../helpers/fake-smtp';
import { lineTexts } from '#tests/helpers/line-text';

const LINE_TOKEN = 'test-messaging-token';

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Bookings and the outbox together, on a real clock: SMTP and LINE fail, then hang, then succeed, and the
 * booking answers at once while every message still arrives exactly once.
 */
describe(`booking notifications through the outbox on ${testEngine}`, () => {
  let t: TestApp;
  let smtp: FakeSmtpServer;
  let line: FakeLineMessaging;
  let adminToken: string;
  let customerToken: string;
  let serviceId: number;
  const date = addDaysToDate(localDateOf(new Date(), 'Asia/Tokyo'), 3);

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    line = await startFakeLineMessaging({ accessToken: LINE_TOKEN });
    t = await startTestApp({
      env: {
        SMTP_URL: smtp.url,
        LINE_MESSAGING_ACCESS_TOKEN: LINE_TOKEN,
        LINE_API_BASE: line.url,
        PUBLIC_URL: 'https://salon.example.jp',
      },
      notifications: { sendTimeoutMs: 300, backoffBaseMs: 50, backoffMaxMs: 200, pollIntervalMs: 50 },
    });
    const db = t.database.db;
    adminToken = (await t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD)).access;
    await db
      .update(staffUsers)
      .set({ line_user_id: 'U' + 'a'.repeat(32) })
      .where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
    const opened = await t.api('/api/admin/available-slots/', {
      method: 'POST',
      token: adminToken,
      json: { date, times: ['10:00', '10:30', '11:00', '11:30'] },
    });
    expect(opened.status).toBe(200);
    const [service] = await db
      .insert(services)
      .values({ salon_id: t.salonId, name: 'グラデーションジェル', price: 6600, duration_minutes: 90 })
      .returning();
    serviceId = service!.id;
    const customer = await createCustomer(db, t.salonId, { lineUserId: 'U' + 'b'.repeat(32) });
    customerToken = (await t.auth.issueTokenPair('customer', customer.id)).access;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await line?.close();
  });

  it('answers 201 at once while SMTP and LINE fail, then delivers each message exactly once', async () => {
    smtp.script(['refuse', 'hang', 'accept']);
    line.planPerMessage([500, 'hang', 'ok']);

    const booking = await t.api('/api/reservations/', {
      method: 'POST',
      token: customerToken,
      json: {
        salon: t.salonId,
        service: serviceId,
        start_time: `${date}T10:00`,
        customer_name: '山田 花子',
        customer_furigana: 'ヤマダ ハナコ',
        customer_email: 'hanako@example.com',
        customer_phone: '09012345678',
      },
    });
    expect(booking.status).toBe(201);
    // The answer did not wait for any delivery: nothing had arrived when it came back.
    expect(smtp.received).toHaveLength(0);
    expect(line.accepted).toHaveLength(0);
    const number = booking.body.reservation_number as string;

    const rows = () => t.database.db.select().from(notificationsOutbox);
    await waitFor(async () => (await rows()).every((row) => row.status === 'sent'));
    await new Promise((resolve) => setTimeout(resolve, 300)); // room for any duplicate to show up

    // E-mail: one acceptance mail, in Japanese, with the number, date, service, price and detail URL.
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(['hanako@example.com']);
    expect(mail.subject).toContain('ご予約を受け付けました');
    expect(mail.text).toContain(number);
    expect(mail.text).toContain(`${formatDateTimeRangeJa(`${date}T10:00`, `${date}T11:30`)}\n`);
    expect(mail.text).toContain('グラデーションジェル');
    expect(mail.text).toContain('¥6,600');
    expect(mail.text).toContain(`https://salon.example.jp/reservations/${number}`);
    expect(smtp.connections.slice(0, 3)).toEqual(['refuse', 'hang', 'accept']);

    // LINE: the customer and the staff member, each once, after 3 attempts with one retry key each.
    expect(line.accepted.map((push) => push.to).sort()).toEqual(['U' + 'a'.repeat(32), 'U' + 'b'.repeat(32)]);
    for (const push of line.accepted) {
      const attempts = line.requests.filter((request) => request.to === push.to);
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      expect(new Set(attempts.map((attempt) => attempt.retryKey))).toEqual(new Set([push.retryKey]));
    }
    // The booking queued one event, which the worker expanded into the three messages (reservation-events.ts).
    const all = await rows();
    expect(all.filter((row) => row.channel === 'event').map((row) => row.status)).toEqual(['sent']);
    const outbox = all.filter((row) => row.channel !== 'event');
    expect(outbox).toHaveLength(3);
    expect(outbox.every((row) => row.reservation_id === booking.body.id)).toBe(true);
  });

  it('queues the confirmation for the customer when staff confirm, and sends it once', async () => {
    const list = await t.api('/api/admin/reservations/', { token: adminToken });
    expect(list.headers.get('x-total-count')).toBe('1');
    const number = (list.body as unknown as Array<{ reservation_number: string }>)[0]!.reservation_number;
    const before = { mails: smtp.received.length, pushes: line.accepted.length };
    const confirmed = await t.api(`/api/admin/reservations/${number}/confirm/`, { method: 'POST', token: adminToken });
    expect(confirmed.status).toBe(200);
    await waitFor(() => smtp.received.length === before.mails + 1 && line.accepted.length === before.pushes + 1);
    expect(smtp.received.at(-1)!.subject).toContain('ご予約が確定しました');
    expect(line.accepted.at(-1)!.to).toBe('U' + 'b'.repeat(32));
    expect(lineTexts(line.accepted.at(-1))).toContain(number);
  });

  it('pushes the next reservation to the customer chat from the check page, and says so when there is none', async () => {
    const before = line.accepted.length;
    const found = await t.api('/api/confirm-reservation-and-notify/', { method: 'POST', token: customerToken });
    expect(found.status).toBe(200);
    expect(found.body.channel).toBe('line');
    await waitFor(() => line.accepted.length === before + 1);
    expect(lineTexts(line.accepted.at(-1))).toContain(found.body.reservation_number as string);

    const lonely = await createCustomer(t.database.db, t.salonId, { lineUserId: 'U' + 'c'.repeat(32) });
    const lonelyToken = (await t.auth.issueTokenPair('customer', lonely.id)).access;
    const none = await t.api('/api/confirm-reservation-and-notify/', { method: 'POST', token: lonelyToken });
    expect(none.status).toBe(404);
    await waitFor(() => line.accepted.length === before + 2);
    expect(line.accepted.at(-1)!.to).toBe('U' + 'c'.repeat(32));
    expect(lineTexts(line.accepted.at(-1))).toContain('見つかりませんでした');
  });
});
