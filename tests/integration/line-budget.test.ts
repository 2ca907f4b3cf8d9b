import { createHmac } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { customers, linePushCounts, notificationsOutbox, reservations } from '#server/db/schema';
import { lineUsage, reserveBatchPushes, reservePushes } from '#server/outbox/line-budget';
import { enqueueNotifications, type NewNotification } from '#server/outbox/outbox';
import { createOutboxWorker, type OutboxWorker } from '#server/outbox/worker';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { at, startBookingApp, TZ, type BookingWorld } from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { startFakeLineMessaging, type FakeLineMessaging } from '#tests/helpers/fake-line-messaging';
import { startFakeSmtp, type FakeSmtpServer } from '#tests/helpers/fake-smtp';
import { lineTexts } from '#tests/helpers/line-text';

const ACCESS_TOKEN = 'test-messaging-access-token';
const SALON_NAME = 'ネイルサロン花';
const SECRET = 'test-messaging-channel-secret-0123456789';
const HANAKO_LINE = 'U' + '1'.repeat(32);
const YUI_LINE = 'U' + '2'.repeat(32);
const NO_MAIL_LINE = 'U' + '3'.repeat(32);
const sign = (raw: string) => createHmac('sha256', SECRET).update(raw).digest('base64');
const lineUser = (n: number) => 'U' + n.toString(16).padStart(32, '0');

/**
 * The LINE plan's monthly budget (server/outbox/line-budget.ts): pushes counted per salon-local month (a multicast
 * per recipient, a retry once), customer notices by e-mail at the limit, the count in 設定, and 予約確認 answered
 * by a free reply. The app's clock is fixed at 2030-01-10 09:00 Tokyo; its worker is driven by hand.
 */
describe(`LINE message budget on ${testEngine}`, () => {
  let w: BookingWorld;
  let smtp: FakeSmtpServer;
  let line: FakeLineMessaging;
  const workers: OutboxWorker[] = [];

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    line = await startFakeLineMessaging({ accessToken: ACCESS_TOKEN });
    w = await startBookingApp({
      env: {
        SMTP_URL: smtp.url,
        LINE_MESSAGING_ACCESS_TOKEN: ACCESS_TOKEN,
        LINE_MESSAGING_CHANNEL_SECRET: SECRET,
        LINE_API_BASE: line.url,
        PUBLIC_URL: 'https://salon.example.jp',
      },
      notifications: { autoStart: false, backoffBaseMs: 0, backoffMaxMs: 0 },
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await w?.close();
    await smtp?.close();
    await line?.close();
  });
  beforeEach(async () => {
    await w.db.delete(notificationsOutbox);
    await w.db.delete(linePushCounts);
    await w.setSalon({ line_monthly_push_limit: 200, name: SALON_NAME });
    for (const list of [line.requests, line.accepted, line.multicasts, line.acceptedMulticasts, line.replies])
      list.splice(0);
    smtp.received.splice(0);
    line.planPerMessage([]);
  });

  /** A worker on the app's database and transports with its own clock (the app's worker has the fixed one). */
  function workerAt(clock: { now: Date }) {
    const { mailer, line: pusher, publicUrl } = w.t.app.notifications;
    const worker = createOutboxWorker({
      db: w.db,
      mailer,
      line: pusher,
      publicUrl,
      timeZone: TZ,
      now: () => clock.now,
      reminders: false,
      backoffBaseMs: 0,
      backoffMaxMs: 0,
    });
    workers.push(worker);
    return worker;
  }

  const push = (recipient: string, text: string): NewNotification => ({
    salonId: w.t.salonId,
    channel: 'line',
    kind: 'staff_message',
    recipient,
    payload: { messages: [{ type: 'text', text }] },
  });
  const drain = () => w.t.app.notifications.worker.drainOnce();
  const usage = (month: string) => lineUsage(w.db, w.t.salonId, month);

  it('counts pushes per salon-local month: a multicast per recipient, a retried push once', async () => {
    // 23:50 on 31 January in Tokyo (14:50 UTC): still January for the plan.
    const clock = { now: new Date('2030-01-31T14:50:00Z') };
    const worker = workerAt(clock);
    line.planPerMessage([500]); // every message fails once, then goes through with the same retry key
    await enqueueNotifications(w.db, [
      push(HANAKO_LINE, 'one'),
      push(YUI_LINE, 'two'),
      {
        ...push('broadcast:1:0', 'everyone'),
        kind: 'bulk_message',
        payload: { messages: [{ type: 'text', text: 'everyone' }], to: [lineUser(1), lineUser(2), lineUser(3)] },
      },
    ]);
    await worker.drainOnce();
    await worker.drainOnce();
    expect(line.accepted).toHaveLength(2);
    expect(line.acceptedMulticasts).toHaveLength(1);
    expect(line.requests.length + line.multicasts.length).toBe(6); // each tried twice
    expect(await usage('2030-01')).toEqual({ month: '2030-01', pushes_sent: 5, limit: 200 });

    // 00:10 on 1 February in Tokyo (still 31 January in UTC): a new month starts from zero.
    clock.now = new Date('2030-01-31T15:10:00Z');
    await enqueueNotifications(w.db, [push(HANAKO_LINE, 'three')]);
    await worker.drainOnce();
    await worker.drainOnce();
    expect(line.accepted).toHaveLength(3);
    expect(await usage('2030-02')).toEqual({ month: '2030-02', pushes_sent: 1, limit: 200 });
    expect((await usage('2030-01')).pushes_sent).toBe(5);
  });

  it('GET /api/admin/line-usage/ answers this month’s count and the limit; the superuser edits the limit', async () => {
    await enqueueNotifications(w.db, [push(HANAKO_LINE, 'a'), push(YUI_LINE, 'b')]);
    await drain();
    expect(line.accepted).toHaveLength(2);
    const answer = await w.api('/api/admin/line-usage/', { token: w.admin.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ month: '2030-01', pushes_sent: 2, limit: 200 });

    const changed = await w.api('/api/admin/settings/', {
      method: 'PATCH',
      token: w.admin.token,
      json: { line_monthly_push_limit: 1000 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.line_monthly_push_limit).toBe(1000);
    expect((await w.api('/api/admin/line-usage/', { token: w.admin.token })).body).toMatchObject({ limit: 1000 });

    for (const bad of [-1, 1_000_001, 1.5, 'abc']) {
      const refused = await w.api('/api/admin/settings/', {
        method: 'PATCH',
        token: w.admin.token,
        json: { line_monthly_push_limit: bad },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.fields).toEqual({ line_monthly_push_limit: [MESSAGES.lineMonthlyLimitRange] });
    }
    expect((await w.api('/api/admin/settings/', { token: w.admin.token })).body.line_monthly_push_limit).toBe(1000);
    // 0: no limit.
    await w.setSalon({ line_monthly_push_limit: 0 });
    await enqueueNotifications(w.db, [push(HANAKO_LINE, 'c')]);
    await drain();
    expect(line.accepted).toHaveLength(3);
    expect(await usage('2030-01')).toEqual({ month: '2030-01', pushes_sent: 3, limit: 0 });
  });

  it('at the limit a reservation notice goes by e-mail only, and a LINE-only notice falls back to e-mail', async () => {
    const staff = await w.staff('budget-staff');
    const service = await w.service('ワンカラー', 60);
    await w.openSlots(staff.id, '2030-01-20', ['10:00', '10:30', '11:00', '11:30']);
    const hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com', lineUserId: HANAKO_LINE });
    const booking = await w.booked(hanako, service.id, at('2030-01-20', '10:00'));
    await drain();
    expect(line.accepted.map((p) => p.to)).toEqual([HANAKO_LINE]); // the acceptance, by LINE too
    expect(smtp.received).toHaveLength(1);
    expect((await usage('2030-01')).pushes_sent).toBe(1);

    // The plan is used up: the confirmation reaches Hanako once, by the e-mail it already had, and no push.
    await w.setSalon({ line_monthly_push_limit: 1 });
    const confirmed = await w.api(`/api/admin/reservations/${booking.reservation_number}/confirm/`, {
      method: 'POST',
      token: w.admin.token,
    });
    expect(confirmed.status).toBe(200);
    await drain();
    expect(line.requests).toHaveLength(1);
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[1]!.envelopeTo).toEqual(['hanako@example.com']);
    expect(smtp.received[1]!.subject).toContain('確定');
    const [lineRow] = await w.db
      .select()
      .from(notificationsOutbox)
      .where(and(eq(notificationsOutbox.kind, 'reservation_confirmed'), eq(notificationsOutbox.channel, 'line')));
    expect(lineRow).toMatchObject({ status: 'sent', last_error: SERVER_MESSAGES.lineBudgetAlreadyByEmail });

    // 予約確認 on the check page would push; at the limit it goes by e-mail at once, and the answer says so.
    const sent = await w.api('/api/confirm-reservation-and-notify/', { method: 'POST', token: hanako.token });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      detail: SERVER_MESSAGES.latestReservationSent.email,
      reservation_number: booking.reservation_number,
      channel: 'email',
    });
    await drain();
    expect(line.requests).toHaveLength(1);
    expect(smtp.received).toHaveLength(3);
    const fallback = smtp.received[2]!;
    expect(fallback.envelopeTo).toEqual(['hanako@example.com']);
    // The customer's e-mail template (ご予約内容のご案内), not the LINE text.
    expect(fallback.subject).toBe(`【${SALON_NAME}】ご予約内容のご案内`);
    expect(fallback.text).toContain(`予約番号: ${booking.reservation_number}`);
    expect(fallback.text).toContain('ご予約の確認・キャンセルはこちらから:');
    const latestRows = await w.db
      .select()
      .from(notificationsOutbox)
      .where(eq(notificationsOutbox.kind, 'latest_reservation'));
    expect(latestRows.map((row) => [row.channel, row.status])).toEqual([['email', 'sent']]);

    // A customer without an e-mail address: nothing is sent, and the row says why (not lost silently).
    await w.customer({ name: '田中 一郎', lineUserId: NO_MAIL_LINE });
    await enqueueNotifications(w.db, [push(NO_MAIL_LINE, 'お知らせ')]);
    expect(await drain()).toMatchObject({ sent: 0, failed: 1 });
    expect(line.requests).toHaveLength(1);
    const [unsent] = await w.db
      .select()
      .from(notificationsOutbox)
      .where(eq(notificationsOutbox.recipient, NO_MAIL_LINE));
    expect(unsent).toMatchObject({ status: 'failed', last_error: SERVER_MESSAGES.lineBudgetNotSent });
    expect(await usage('2030-01')).toEqual({ month: '2030-01', pushes_sent: 1, limit: 1 });
  });

  it('check page: LINE while the budget lasts; a push the worker stops at the limit still goes as the e-mail template', async () => {
    const staff = await w.staff('check-staff');
    const service = await w.service('フットジェル', 60);
    await w.openSlots(staff.id, '2030-01-22', ['10:00', '10:30', '11:00', '11:30']);
    const hanako = await w.customer({ name: '山田 花子', email: 'hanako2@example.com', lineUserId: lineUser(900) });
    const booking = await w.booked(hanako, service.id, at('2030-01-22', '10:00'));
    await w.db.delete(notificationsOutbox);
    await w.setSalon({ line_monthly_push_limit: 2 });

    const sent = await w.api('/api/confirm-reservation-and-notify/', { method: 'POST', token: hanako.token });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      detail: SERVER_MESSAGES.latestReservationSent.line,
      reservation_number: booking.reservation_number,
      channel: 'line',
    });
    await drain();
    expect(line.accepted).toHaveLength(1);
    const card = line.accepted[0]!.messages[0]!;
    expect(card.type).toBe('flex');
    expect(lineTexts(line.accepted[0])).toContain(
      `予約を確認する: https://salon.example.jp/reservations/${booking.reservation_number}`,
    );

    // Queued while one push was left, but the last one went elsewhere before the worker came: the worker's
    // count decides, and the notice goes as the customer's e-mail for it.
    const again = await w.api('/api/confirm-reservation-and-notify/', { method: 'POST', token: hanako.token });
    expect(again.body.channel).toBe('line');
    await w.db.update(linePushCounts).set({ pushes: 2 }).where(eq(linePushCounts.salon_id, w.t.salonId));
    await drain();
    expect(line.accepted).toHaveLength(1);
    const mail = smtp.received.at(-1)!;
    expect(mail.envelopeTo).toEqual(['hanako2@example.com']);
    expect(mail.subject).toBe(`【${SALON_NAME}】ご予約内容のご案内`);
    expect(mail.text).toContain('山田 花子 様');
    expect(mail.text).toContain('ご予約の確認・キャンセルはこちらから:');
    expect(mail.text).not.toContain('予約を確認する');
  });

  it('at the limit a reservation notice for a customer reached only through their profile uses the e-mail template', async () => {
    const staff = await w.staff('profile-staff');
    const service = await w.service('ケア', 30);
    await w.openSlots(staff.id, '2030-01-23', ['10:00', '10:30']);
    const hanako = await w.customer({ name: '山田 花子', email: 'hanako3@example.com', lineUserId: lineUser(901) });
    const booking = await w.booked(hanako, service.id, at('2030-01-23', '10:00'));
    // Booked without an address (as at the front desk): only the customer's profile has one.
    await w.db
      .update(reservations)
      .set({ customer_email: '' })
      .where(eq(reservations.reservation_number, booking.reservation_number));
    await w.db.delete(notificationsOutbox);
    smtp.received.splice(0);
    await w.setSalon({ line_monthly_push_limit: 1 });
    await w.db.insert(linePushCounts).values({ salon_id: w.t.salonId, month: '2030-01', pushes: 1 });

    const confirmed = await w.api(`/api/admin/reservations/${booking.reservation_number}/confirm/`, {
      method: 'POST',
      token: w.admin.token,
    });
    expect(confirmed.status).toBe(200);
    await drain();
    expect(line.requests).toHaveLength(0);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(['hanako3@example.com']);
    expect(mail.subject).toBe(`【${SALON_NAME}】ご予約が確定しました`);
    expect(mail.text).toContain('以下のご予約が確定しました。');
    expect(mail.text).toContain(`予約番号: ${booking.reservation_number}`);
    const rows = await w.db
      .select()
      .from(notificationsOutbox)
      .where(eq(notificationsOutbox.kind, 'reservation_confirmed'));
    expect(rows.find((row) => row.channel === 'line')).toMatchObject({
      status: 'sent',
      last_error: SERVER_MESSAGES.lineBudgetDivertedToEmail,
    });

    // Other kinds keep a plain text under the salon's お知らせ subject.
    await enqueueNotifications(w.db, [push(lineUser(901), 'ネイルケアのお知らせ')]);
    await drain();
    const plain = smtp.received.at(-1)!;
    expect(plain.subject).toBe(SERVER_MESSAGES.lineBudgetFallbackSubject(SALON_NAME));
    expect(plain.text).toContain('ネイルケアのお知らせ');
  });

  it('two workers draining side by side never push past the limit', async () => {
    await w.setSalon({ line_monthly_push_limit: 5 });
    line.delayMs = 20;
    try {
      await enqueueNotifications(
        w.db,
        Array.from({ length: 12 }, (_, i) => push(lineUser(100 + i), `message ${i}`)),
      );
      const clock = { now: new Date('2030-01-10T00:00:00Z') };
      const [a, b] = [workerAt(clock), workerAt(clock)];
      await Promise.all([a.drainOnce(), b.drainOnce()]);
    } finally {
      line.delayMs = 0;
    }
    expect(line.accepted).toHaveLength(5);
    expect((await usage('2030-01')).pushes_sent).toBe(5);
    const rows = await w.db.select().from(notificationsOutbox);
    expect(rows.filter((row) => row.last_error === SERVER_MESSAGES.lineBudgetNotSent)).toHaveLength(7);
  });

  it("reserving a row's pushes: counted once per claim, never for a claim that is gone, and a refused row stays unmarked", async () => {
    await w.setSalon({ line_monthly_push_limit: 1 });
    const [first, second] = await enqueueNotifications(w.db, [push(lineUser(1), 'one'), push(lineUser(2), 'two')]);
    const rowOf = async (id: number) =>
      (await w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.id, id)))[0]!;
    // A claim whose lease ran out and was taken over (the attempt count moved on) counts nothing.
    const stale = { ...(await rowOf(first!)), attempts: 7 };
    expect(await reservePushes(w.db, stale, '2030-01')).toBe(true);
    expect((await usage('2030-01')).pushes_sent).toBe(0);
    expect((await rowOf(first!)).line_push_month).toBeNull();
    // The claim that holds the row counts it and marks it; asked again with the same claim, it counts nothing more.
    expect(await reservePushes(w.db, await rowOf(first!), '2030-01')).toBe(true);
    expect((await rowOf(first!)).line_push_month).toBe('2030-01');
    expect(await reservePushes(w.db, { ...(await rowOf(first!)), line_push_month: null }, '2030-01')).toBe(true);
    expect((await usage('2030-01')).pushes_sent).toBe(1);
    // At the limit: refused, and the row is not marked as counted.
    expect(await reservePushes(w.db, await rowOf(second!), '2030-01')).toBe(false);
    expect((await rowOf(second!)).line_push_month).toBeNull();
    expect((await usage('2030-01')).pushes_sent).toBe(1);
  });

  describe('予約確認 in the LINE chat', () => {
    const deliver = async (userId: string, text: string, eventId: string, replyToken: string) => {
      const raw = JSON.stringify({
        destination: 'U8e742f61d673b39c7fff3cecb7536ef0',
        events: [
          {
            type: 'message',
            mode: 'active',
            timestamp: 1894237200000,
            source: { type: 'user', userId },
            webhookEventId: eventId,
            deliveryContext: { isRedelivery: false },
            replyToken,
            message: { id: `5${eventId.length}${Date.now()}`, type: 'text', quoteToken: 'q', text },
          },
        ],
      });
      return fetch(`${w.t.url}/api/line/webhook/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-line-signature': sign(raw) },
        body: raw,
      });
    };

    it('is answered with the next reservation by the reply token, free: no push and nothing counted', async () => {
      const staff = await w.staff('reply-staff');
      const service = await w.service('ジェルネイル', 90);
      await w.openSlots(staff.id, '2030-01-21', ['10:00', '10:30', '11:00', '11:30']);
      const yui = await w.customer({ name: '佐藤 結衣', email: 'yui@example.com', lineUserId: YUI_LINE });
      const booking = await w.booked(yui, service.id, at('2030-01-21', '10:00'));
      await w.setSalon({ line_monthly_push_limit: 1 });
      await w.db.insert(linePushCounts).values({ salon_id: w.t.salonId, month: '2030-01', pushes: 1 });

      const answer = await deliver(YUI_LINE, '  予約確認\n', '01JRESERVATIONCHECK0000001', 'reply-token-yui-1');
      expect(answer.status).toBe(200);
      expect(line.replies).toHaveLength(1);
      const [reply] = line.replies;
      expect(reply).toMatchObject({ replyToken: 'reply-token-yui-1', status: 200 });
      expect(reply!.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
      const text = lineTexts(reply!.messages);
      expect(text).toContain(booking.reservation_number);
      expect(text).toContain('ジェルネイル');
      expect(line.requests).toHaveLength(0);
      expect(await usage('2030-01')).toEqual({ month: '2030-01', pushes_sent: 1, limit: 1 });

      // A redelivery of the same event is not answered again; an ordinary message is not answered at all.
      await deliver(YUI_LINE, '予約確認', '01JRESERVATIONCHECK0000001', 'reply-token-yui-1');
      await deliver(YUI_LINE, '予約確認をお願いします', '01JRESERVATIONCHECK0000002', 'reply-token-yui-2');
      expect(line.replies).toHaveLength(1);
      // The message itself is kept like any other for staff.
      const [customer] = await w.db.select().from(customers).where(eq(customers.line_user_id, YUI_LINE));
      expect(customer).toBeDefined();
    });

    it('tells a customer with nothing booked that there is no reservation', async () => {
      await deliver(HANAKO_LINE + 'x', '予約確認', '01JRESERVATIONCHECK0000003', 'reply-token-new');
      expect(line.replies).toHaveLength(1);
      expect(line.replies[0]!.replyToken).toBe('reply-token-new');
      const text = lineTexts(line.replies[0]!.messages);
      expect(text).toContain('予約');
      expect(line.requests).toHaveLength(0);
    });
  });

  it("a batch's pushes in one transaction: counted in order while they fit, the rest refused and left unmarked", async () => {
    await w.setSalon({ line_monthly_push_limit: 3 });
    const ids = await enqueueNotifications(
      w.db,
      Array.from({ length: 5 }, (_, i) => push(lineUser(300 + i), `batch ${i}`)),
    );
    const rows = await w.db.select().from(notificationsOutbox).where(inArray(notificationsOutbox.id, ids));
    rows.sort((a, b) => a.id - b.id);
    // The first row was counted by an earlier attempt of this claim: not again. A stale claim counts nothing.
    await w.db
      .update(notificationsOutbox)
      .set({ line_push_month: '2030-01' })
      .where(eq(notificationsOutbox.id, rows[0]!.id));
    await w.db.insert(linePushCounts).values({ salon_id: w.t.salonId, month: '2030-01', pushes: 1 });
    const batch = [
      { ...rows[0]!, line_push_month: '2030-01' },
      { ...rows[1]!, attempts: 9 },
      rows[2]!,
      rows[3]!,
      rows[4]!,
    ];
    const decided = await reserveBatchPushes(w.db, batch, '2030-01');
    expect(batch.map((row) => decided.get(row.id))).toEqual([true, true, true, true, false]);
    expect((await usage('2030-01')).pushes_sent).toBe(3);
    const marked = await w.db.select().from(notificationsOutbox).where(inArray(notificationsOutbox.id, ids));
    expect(marked.sort((a, b) => a.id - b.id).map((row) => row.line_push_month)).toEqual([
      '2030-01',
      null,
      '2030-01',
      '2030-01',
      null,
    ]);
  });

  it('the emulator (dev mode) takes the reply and shows it in its inbox as a reply, not a push', async () => {
    const dev = await startBookingApp();
    try {
      const sent = await dev.api('/dev/line/send', {
        method: 'POST',
        body: `new_user=${encodeURIComponent('予約確認テスト')}&text=${encodeURIComponent('予約確認')}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        redirect: 'manual',
      });
      expect(sent.status).toBe(303);
      const inbox = await dev.api('/dev/line/inbox?format=json');
      const entries = inbox.body.messages as Array<{ to: string; reply_token: string | null; messages: unknown[] }>;
      expect(entries).toHaveLength(1);
      expect(entries[0]!.reply_token).toMatch(/^[0-9a-f]{32}$/);
      expect(entries[0]!.to).toMatch(/^U[0-9a-f]{32}$/);
      expect(JSON.stringify(entries[0]!.messages)).toContain('予約');
      expect(await dev.db.select().from(linePushCounts)).toEqual([]);
      const page = await dev.api('/dev/line/inbox');
      expect(page.text).toContain('応答メッセージ');
    } finally {
      await dev.close();
    }
  });
});
