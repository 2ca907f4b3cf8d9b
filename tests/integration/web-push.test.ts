import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationsOutbox, staffPushSubscriptions } from '#server/db/schema';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { startFakeLineMessaging, type FakeLineMessaging } from '#tests/helpers/fake-line-messaging';
import {
  fakeBrowser,
  startFakePushService,
  verifyVapid,
  type FakeBrowser,
  type FakePushService,
} from '#tests/helpers/fake-push-service';
import { SERVER_MESSAGES } from '#src/shared/server-messages';

const ACCESS_TOKEN = 'test-messaging-access-token';
const PUBLIC_URL = 'https://salon.example.jp';
const PUSHED_LINE = 'U' + 'a'.repeat(32);
const LINE_ONLY = 'U' + 'b'.repeat(32);
const DAY_A = '2030-01-15';
const DAY_B = '2030-01-16';

/**
 * Staff notices by Web Push (server/outbox/web-push.ts): a staff member who subscribed a browser is pushed there,
 * encrypted to that browser and signed with the server's VAPID key, instead of by LINE. The push service is a
 * local HTTP server (tests/helpers/fake-push-service.ts); the test plays the browser. The worker is driven by hand.
 */
describe(`Web Push for staff on ${testEngine}`, () => {
  let w: BookingWorld;
  let push: FakePushService;
  let line: FakeLineMessaging;
  let pushed: StaffMember;
  let lineOnly: StaffMember;
  let hanako: CustomerMember;
  let gel: ServiceRow;
  let browser: FakeBrowser;
  let vapidKey: string;
  let browserCount = 0;

  const subscriptions = (token: string) => w.api('/api/admin/push-subscriptions/', { token });
  const subscribe = (token: string, json: unknown) =>
    w.api('/api/admin/push-subscriptions/', { method: 'POST', token, json });
  const unsubscribe = (token: string, endpoint: string) =>
    w.api('/api/admin/push-subscriptions/', { method: 'DELETE', token, json: { endpoint } });
  const drain = () => w.t.app.notifications.worker.drainOnce();
  const newBrowser = () => fakeBrowser(`${push.origin}/push/${++browserCount}`);
  const linePushesTo = (to: string) => line.accepted.filter((message) => message.to === to);
  const received = () => push.requests.map((request) => JSON.parse(browser.decrypt(request.body)));

  beforeAll(async () => {
    push = await startFakePushService();
    line = await startFakeLineMessaging({ accessToken: ACCESS_TOKEN });
    w = await startBookingApp({
      env: { LINE_MESSAGING_ACCESS_TOKEN: ACCESS_TOKEN, LINE_API_BASE: line.url, PUBLIC_URL },
      notifications: { autoStart: false, backoffBaseMs: 0, backoffMaxMs: 0 },
    });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    pushed = await w.staff('push-a', '佐藤 美咲');
    lineOnly = await w.staff('push-b', '鈴木 B');
    await w.setStaff(pushed.id, { line_user_id: PUSHED_LINE });
    await w.setStaff(lineOnly.id, { line_user_id: LINE_ONLY });
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    gel = await w.service('ジェルネイル', 60, 6600);
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    // Each staff member works on their own day, so a booking on that day is theirs.
    await w.openSlots(pushed.id, DAY_A, times('10:00', '18:00'));
    await w.openSlots(lineOnly.id, DAY_B, times('10:00', '18:00'));
  });
  afterAll(async () => {
    await w?.close();
    await push?.close();
    await line?.close();
  });
  beforeEach(async () => {
    await drain();
    await w.db.delete(notificationsOutbox);
    await w.db.delete(staffPushSubscriptions);
    push.requests.splice(0);
    line.accepted.splice(0);
    push.plan([]);
    browser = newBrowser();
    const subscribed = await subscribe(pushed.token, browser.subscription);
    expect(subscribed.status).toBe(201);
    vapidKey = (await subscriptions(pushed.token)).body.vapid_public_key as string;
  });

  it('lists the caller’s own browsers (the push service host only) with the key to subscribe with', async () => {
    const mine = await subscriptions(pushed.token);
    expect(mine.status).toBe(200);
    expect(mine.body.vapid_public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(mine.body.subscriptions).toEqual([
      { id: expect.any(Number), endpoint_host: new URL(push.origin).host, created_at: expect.any(String) },
    ]);
    expect((await subscriptions(lineOnly.token)).body.subscriptions).toEqual([]);
    // Subscribing the same browser again (new keys) keeps one row.
    const again = newBrowser();
    again.subscription.endpoint = browser.subscription.endpoint;
    expect((await subscribe(pushed.token, again.subscription)).status).toBe(201);
    expect((await subscriptions(pushed.token)).body.subscriptions).toHaveLength(1);
  });

  it('a new booking reaches the subscribed browser, encrypted and VAPID-signed, and not their LINE', async () => {
    const booking = await w.booked(hanako, gel.id, at(DAY_A, '10:00'));
    const result = await drain();
    expect(result.failed).toBe(0);

    expect(push.requests).toHaveLength(1);
    const [request] = push.requests;
    expect(request!.path).toBe('/push/' + browserCount);
    expect(request!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request!.headers.ttl)).toBeGreaterThan(0);
    const claims = await verifyVapid(request!.headers.authorization, vapidKey, push.origin);
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    expect(received()).toEqual([
      {
        title: '新しいご予約',
        body: `2030年1月15日(火) 10:00〜11:00\nジェルネイル / 山田 花子 様`,
        url: `${PUBLIC_URL}/admin/reservations/${booking.reservation_number}`,
        tag: `reservation-${booking.reservation_number}`,
      },
    ]);
    expect(linePushesTo(PUSHED_LINE)).toEqual([]);
    const [subscription] = await w.db.select().from(staffPushSubscriptions);
    expect(subscription!.last_success_at).not.toBeNull();
  });

  it('a staff member without a subscription still gets the LINE push', async () => {
    await w.booked(hanako, gel.id, at(DAY_B, '10:00'));
    await drain();
    expect(push.requests).toEqual([]);
    expect(linePushesTo(LINE_ONLY)).toHaveLength(1);
  });

  it('cancellations and moves are pushed too', async () => {
    const booking = await w.booked(hanako, gel.id, at(DAY_A, '12:00'));
    const number = booking.reservation_number;
    const moved = await w.api(`/api/reservations/${number}/reschedule/`, {
      method: 'POST',
      token: hanako.token,
      json: { start_time: at(DAY_A, '14:00') },
    });
    expect(moved.status).toBe(200);
    const cancelled = await w.api(`/api/reservations/${number}/cancel/`, { method: 'POST', token: hanako.token });
    expect(cancelled.status).toBe(200);
    await drain();
    // The worker sends a batch's rows in parallel: the push service may receive them in any order.
    expect(received().map((message) => [message.title, message.body])).toEqual(
      expect.arrayContaining([
        ['新しいご予約', '2030年1月15日(火) 12:00〜13:00\nジェルネイル / 山田 花子 様'],
        [
          'ご予約の日時変更',
          '2030年1月15日(火) 14:00〜15:00（変更前: 2030年1月15日(火) 12:00〜13:00）\nジェルネイル / 山田 花子 様',
        ],
        ['ご予約のキャンセル', '2030年1月15日(火) 14:00〜15:00\nジェルネイル / 山田 花子 様'],
      ]),
    );
    expect(received()).toHaveLength(3);
    expect(linePushesTo(PUSHED_LINE)).toEqual([]);
  });

  it('a move to another staff member: the one it was taken from by push, the new one by LINE', async () => {
    const booking = await w.booked(hanako, gel.id, at(DAY_A, '13:00'));
    await drain();
    push.requests.splice(0);
    const moved = await w.api(`/api/admin/reservations/${booking.reservation_number}/reschedule/`, {
      method: 'POST',
      token: w.admin.token,
      json: { start_time: at(DAY_B, '13:00'), staff_id: lineOnly.id },
    });
    expect(moved.status).toBe(200);
    await drain();
    expect(received().map((message) => [message.title, message.body])).toEqual([
      [
        'ご予約の日時変更',
        '2030年1月16日(水) 13:00〜14:00（変更前: 2030年1月15日(火) 13:00〜14:00）\nジェルネイル / 山田 花子 様\n担当: 佐藤 美咲 → 鈴木 B',
      ],
    ]);
    expect(linePushesTo(LINE_ONLY)).toHaveLength(1);
    expect(linePushesTo(PUSHED_LINE)).toEqual([]);
  });

  it('a 410 from the push service removes the subscription; the next notice goes by LINE again', async () => {
    push.plan([410]);
    await w.booked(hanako, gel.id, at(DAY_A, '16:00'));
    const result = await drain();
    expect(result).toMatchObject({ failed: 0, retried: 0 });
    expect(await w.db.select().from(staffPushSubscriptions)).toEqual([]);
    const [row] = await w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.channel, 'webpush'));
    expect(row).toMatchObject({ status: 'sent', last_error: expect.stringContaining('410') });

    await w.booked(hanako, gel.id, at(DAY_A, '17:00'));
    await drain();
    expect(push.requests).toHaveLength(1);
    expect(linePushesTo(PUSHED_LINE)).toHaveLength(1);
  });

  it('a 503 is retried and then delivered once; another 4xx fails without retry', async () => {
    push.plan([503]);
    await w.booked(hanako, gel.id, at(DAY_A, '11:00'));
    expect(await drain()).toMatchObject({ retried: 1, failed: 0 });
    expect(push.requests).toHaveLength(2);
    expect(received()[1].title).toBe('新しいご予約');
    const [delivered] = await w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.channel, 'webpush'));
    expect(delivered).toMatchObject({ status: 'sent', attempts: 2 });
    await w.db.delete(notificationsOutbox);

    push.plan([400]);
    const booking = await w.booked(hanako, gel.id, at(DAY_A, '15:00'));
    expect(await drain()).toMatchObject({ failed: 1, retried: 0 });
    const rows = await w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.status, 'failed'));
    expect(rows.map((row) => row.channel)).toEqual(['webpush']);
    expect(booking.reservation_number).toBeTruthy();
  });

  it('refuses endpoints that are not a browser push service (plain http only to loopback) and keys that are not a P-256 point', async () => {
    const keys = newBrowser().subscription.keys;
    for (const endpoint of [
      'http://push.example.com/x',
      'http://10.0.0.8/x',
      'http://169.254.169.254/latest/meta-data',
      'https://push.example.com/x',
      'https://localhost.:9/push',
      'https://metadata.google.internal/computeMetadata/v1/',
      'ftp://127.0.0.1/x',
      'javascript:alert(1)',
      'not a url',
    ]) {
      const refused = await subscribe(pushed.token, { endpoint, keys });
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body).toMatchObject({ detail: SERVER_MESSAGES.pushEndpointRefused, code: 'invalid' });
    }
    const badKey = await subscribe(pushed.token, {
      endpoint: 'https://fcm.googleapis.com/fcm/send/x',
      keys: { ...keys, p256dh: 'A'.repeat(87) },
    });
    expect(badKey.status).toBe(400);
    const fcm = await subscribe(pushed.token, { endpoint: 'https://fcm.googleapis.com/fcm/send/ok', keys });
    expect(fcm.status).toBe(201);
    expect((await subscriptions(pushed.token)).body.subscriptions).toHaveLength(2);
  });

  it('keeps the ten latest browsers of a staff member: one booking is at most ten push requests', async () => {
    const endpoints = [browser.subscription.endpoint];
    for (let index = 0; index < 11; index += 1) {
      const next = newBrowser();
      expect((await subscribe(pushed.token, next.subscription)).status).toBe(201);
      endpoints.push(next.subscription.endpoint);
    }
    const kept = await w.db.select().from(staffPushSubscriptions).where(eq(staffPushSubscriptions.staff_id, pushed.id));
    expect(kept.map((row) => row.endpoint).sort()).toEqual(endpoints.slice(-10).sort());

    await w.booked(hanako, gel.id, at(DAY_A, '12:00'));
    await drain();
    expect(push.requests.map((request) => request.path).sort()).toEqual(
      endpoints
        .slice(-10)
        .map((endpoint) => new URL(endpoint).pathname)
        .sort(),
    );
  });

  it('a redirect from the push service is not followed, nor retried', async () => {
    const elsewhere = await startFakePushService();
    try {
      push.plan([307]);
      push.redirectTo(`${elsewhere.origin}/internal`);
      await w.booked(hanako, gel.id, at(DAY_A, '14:00'));
      expect(await drain()).toMatchObject({ failed: 1, retried: 0 });
      expect(push.requests).toHaveLength(1);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      push.redirectTo(null);
      await elsewhere.close();
    }
  });

  it('only the owner can remove a subscription', async () => {
    const endpoint = browser.subscription.endpoint;
    expect((await unsubscribe(lineOnly.token, endpoint)).status).toBe(404);
    expect((await unsubscribe(w.admin.token, endpoint)).status).toBe(404);
    expect((await subscriptions(pushed.token)).body.subscriptions).toHaveLength(1);
    expect((await unsubscribe(pushed.token, endpoint)).status).toBe(204);
    expect((await subscriptions(pushed.token)).body.subscriptions).toEqual([]);
  });
});
