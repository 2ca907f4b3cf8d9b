import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { and, asc, count, eq, inArray, like } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import {
  broadcastRecipients,
  broadcasts,
  customers,
  devLineInbox,
  lineMessages,
  notificationsOutbox,
  salons,
  staffUsers,
} from '../../server/db/schema';
import { createLinePusher } from '../../server/integrations/line/pusher';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { localDateTimeToInstant } from '../../src/shared/time';
import { startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USERNAME, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer, createStaff } from '../helpers/factories';
import { startFakeLineMessaging, type FakeLineMessaging } from '../helpers/fake-line-messaging';

const PUBLIC_URL = 'https://salon.example.jp';
const ACCESS_TOKEN = 'test-messaging-access-token';
const TZ = 'Asia/Tokyo';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MEDIA_URL = /^https:\/\/salon\.example\.jp\/media\/[0-9a-f]{32}\.png$/;
const lineId = (n: number) => `U${n.toString(16).padStart(32, '0')}`;

interface HistoryItem {
  id: string;
  sent_at: string;
  sender_type: string;
  customer_id: number | null;
  customer_name: string;
  customer_line_picture_url: string;
  message: string;
  image_url: string;
  broadcast_id: number | null;
  recipient_count: number | null;
}

/** docs/screens.md#message-history messages: send-message, bulk send (multicast in batches of 500), history; docs/architecture.md#roles-and-scope scope. */
describe(`LINE messages from staff on ${testEngine}`, () => {
  let t: TestApp;
  let db: Database;
  let line: FakeLineMessaging;
  let clock = localDateTimeToInstant('2030-03-01T10:00:00', TZ).getTime();
  const tick = () => (clock += 10_000);
  let tokens: { admin: string; a: string; b: string; loner: string };
  let ids: { a: number; b: number; admin: number };
  let hanako: typeof customers.$inferSelect; // staff A's, linked, with a picture
  let taro: typeof customers.$inferSelect; // staff B's, linked
  let walkIn: typeof customers.$inferSelect; // staff A's, no LINE
  let png: Buffer;

  beforeAll(async () => {
    line = await startFakeLineMessaging({ accessToken: ACCESS_TOKEN });
    t = await startTestApp({
      env: { PUBLIC_URL, LINE_MESSAGING_ACCESS_TOKEN: ACCESS_TOKEN, LINE_API_BASE: line.url },
      now: () => new Date(clock),
      notifications: { autoStart: false, backoffBaseMs: 1, backoffMaxMs: 1 },
    });
    db = t.database.db;
    const [staffA, staffB] = await Promise.all([
      createStaff(db, t.salonId, { username: 'staff-a', password: 'password-a-123', fullName: '佐藤 A' }),
      createStaff(db, t.salonId, { username: 'staff-b', password: 'password-b-123', fullName: '鈴木 B' }),
      createStaff(db, t.salonId, { username: 'loner', password: 'password-c-123', fullName: '一人 C' }),
    ]);
    const [adminRow] = await db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
    ids = { a: staffA!.id, b: staffB!.id, admin: adminRow!.id };
    const [admin, a, b, loner] = await Promise.all([
      t.tokensFor(TEST_ADMIN_USERNAME, TEST_ADMIN_PASSWORD),
      t.tokensFor('staff-a', 'password-a-123'),
      t.tokensFor('staff-b', 'password-b-123'),
      t.tokensFor('loner', 'password-c-123'),
    ]);
    tokens = { admin: admin.access, a: a.access, b: b.access, loner: loner.access };
    hanako = await createCustomer(db, t.salonId, { name: '山田 花子', lineUserId: lineId(1) });
    taro = await createCustomer(db, t.salonId, { name: '田中 太郎', lineUserId: lineId(2) });
    walkIn = await createCustomer(db, t.salonId, { name: '来店 のみ' });
    await db
      .update(customers)
      .set({ assigned_staff_id: staffA!.id, line_picture_url: 'https://profile.line-scdn.net/hanako' })
      .where(eq(customers.id, hanako.id));
    await db.update(customers).set({ assigned_staff_id: staffB!.id }).where(eq(customers.id, taro.id));
    await db.update(customers).set({ assigned_staff_id: staffA!.id }).where(eq(customers.id, walkIn.id));
    hanako = (await db.select().from(customers).where(eq(customers.id, hanako.id)))[0]!;
    png = await sharp({ create: { width: 6, height: 6, channels: 3, background: '#9c27b0' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await t?.close();
    await line?.close();
  });
  beforeEach(() => {
    tick();
    line.planPerMessage([]);
  });

  function messageForm(input: { text?: string; image?: Buffer }) {
    const form = new FormData();
    if (input.text !== undefined) form.set('text', input.text);
    if (input.image) form.set('image', new Blob([new Uint8Array(input.image)], { type: 'image/png' }), 'photo.png');
    return form;
  }
  const sendTo = (token: string, customerId: number, input: { text?: string; image?: Buffer }) =>
    t.api(`/api/admin/customers/${customerId}/send-message/`, { method: 'POST', token, form: messageForm(input) });
  const sendBulk = (token: string, input: { text?: string; image?: Buffer }) =>
    t.api('/api/admin/send-bulk-message/', { method: 'POST', token, form: messageForm(input) });
  const history = async (token: string, query: Record<string, string> = {}) => {
    const result = await t.api(`/api/admin/line-history/?${new URLSearchParams(query).toString()}`, { token });
    return { ...result, items: result.body as unknown as HistoryItem[] };
  };
  const snapshot = async () => ({
    messages: (await db.select({ value: count() }).from(lineMessages))[0]!.value,
    outbox: (await db.select({ value: count() }).from(notificationsOutbox))[0]!.value,
    broadcasts: (await db.select({ value: count() }).from(broadcasts))[0]!.value,
    files: (await fs.readdir(t.env.uploadDir).catch(() => [] as string[])).length,
  });

  describe('send-message', () => {
    it('stores the message, queues it, and the worker pushes text and image to LINE', async () => {
      const pushesBefore = line.requests.length;
      const result = await sendTo(tokens.a, hanako.id, { text: '  ご来店ありがとうございました 💅  ', image: png });
      expect(result.status).toBe(201);
      expect(result.body).toMatchObject({
        sender_type: 'admin',
        customer_id: hanako.id,
        customer_name: '山田 花子',
        customer_line_picture_url: 'https://profile.line-scdn.net/hanako',
        message: 'ご来店ありがとうございました 💅',
        broadcast_id: null,
        recipient_count: null,
        sent_at: '2030-03-01T10:00:10+09:00',
      });
      expect(String(result.body.id)).toMatch(/^m\d+$/);
      const imageUrl = String(result.body.image_url);
      expect(imageUrl).toMatch(MEDIA_URL);

      const [row] = await db
        .select()
        .from(lineMessages)
        .where(eq(lineMessages.id, Number(String(result.body.id).slice(1))));
      expect(row).toMatchObject({ customer_id: hanako.id, staff_id: ids.a, sender_type: 'admin', image_url: imageUrl });
      const [queued] = await db.select().from(notificationsOutbox).where(eq(notificationsOutbox.kind, 'staff_message'));
      expect(queued).toMatchObject({ channel: 'line', recipient: lineId(1), status: 'pending' });

      expect(await t.app.notifications.worker.drainOnce()).toMatchObject({ sent: 1, failed: 0 });
      const pushes = line.requests.slice(pushesBefore);
      expect(pushes).toHaveLength(1);
      expect(pushes[0]).toMatchObject({
        path: '/v2/bot/message/push',
        authorization: `Bearer ${ACCESS_TOKEN}`,
        to: lineId(1),
        status: 200,
        messages: [
          { type: 'text', text: 'ご来店ありがとうございました 💅' },
          { type: 'image', originalContentUrl: imageUrl, previewImageUrl: imageUrl.replace(/\.png$/, '-preview.jpg') },
        ],
      });
      expect(pushes[0]!.retryKey).toBe(queued!.retry_key);
      expect(pushes[0]!.retryKey).toMatch(UUID);
      // The URL LINE is given serves the image.
      const media = await fetch(`${t.url}${new URL(imageUrl).pathname}`);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe('image/png');
    });

    it('text only and image only are both fine', async () => {
      const textOnly = await sendTo(tokens.admin, taro.id, { text: 'テキストのみ' });
      const imageOnly = await sendTo(tokens.admin, taro.id, { image: png });
      expect([textOnly.status, imageOnly.status]).toEqual([201, 201]);
      expect(textOnly.body).toMatchObject({ message: 'テキストのみ', image_url: '' });
      expect(imageOnly.body).toMatchObject({ message: '' });
      const pushesBefore = line.requests.length;
      await t.app.notifications.worker.drainOnce();
      // Sent side by side: in either order.
      expect(
        line.requests
          .slice(pushesBefore)
          .map((push) => push.messages.map((m) => m.type).join())
          .sort(),
      ).toEqual(['image', 'text']);
    });

    it('blank text and no image is 400 with the SPEC message; text over 5000 characters is 400; nothing is stored', async () => {
      const before = await snapshot();
      for (const input of [{}, { text: '' }, { text: ' \n\t　 ' }]) {
        const result = await sendTo(tokens.a, hanako.id, input);
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({ detail: 'メッセージまたは画像を入力してください。' });
      }
      const long = await sendTo(tokens.a, hanako.id, { text: 'あ'.repeat(5001) });
      expect(long.status).toBe(400);
      expect(long.body).toMatchObject({ detail: SERVER_MESSAGES.messageTooLong });
      expect((await sendTo(tokens.a, hanako.id, { text: 'あ'.repeat(5000) })).status).toBe(201);
      expect(await snapshot()).toEqual({ ...before, messages: before.messages + 1, outbox: before.outbox + 1 });
    });

    it('a JSON body is not a message form (415)', async () => {
      const result = await t.api(`/api/admin/customers/${hanako.id}/send-message/`, {
        method: 'POST',
        token: tokens.a,
        json: { text: 'JSONで送信' },
      });
      expect(result.status).toBe(415);
    });

    it('a customer without LINE is 400; a missing customer is 404', async () => {
      const before = await snapshot();
      const unlinked = await sendTo(tokens.a, walkIn.id, { text: 'こんにちは' });
      expect(unlinked.status).toBe(400);
      expect(unlinked.body).toMatchObject({ detail: MESSAGES.customerNotLineLinked });
      expect((await sendTo(tokens.admin, 999_999, { text: 'こんにちは' })).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it('staff A cannot send to staff B’s customer: 404, nothing stored or queued, no file kept', async () => {
      const before = await snapshot();
      const result = await sendTo(tokens.a, taro.id, { text: '他の担当のお客様へ', image: png });
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ detail: MESSAGES.customerNotFound });
      expect(await snapshot()).toEqual(before);
    });

    it('anonymous and customer tokens are 401 and nothing is stored', async () => {
      const before = await snapshot();
      const customerToken = (await t.signer().sign({ audience: 'customer', subjectId: hanako.id, tokenType: 'access' }))
        .token;
      for (const token of [undefined, customerToken]) {
        const path = `/api/admin/customers/${hanako.id}/send-message/`;
        expect((await t.api(path, { method: 'POST', token, form: messageForm({ text: 'x' }) })).status).toBe(401);
        expect(
          (await t.api('/api/admin/send-bulk-message/', { method: 'POST', token, form: messageForm({ text: 'x' }) }))
            .status,
        ).toBe(401);
        expect((await t.api('/api/admin/line-history/', { token })).status).toBe(401);
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('bulk send', () => {
    it('staff A’s bulk send reaches only A’s linked customers, stored once, in one multicast', async () => {
      const before = await snapshot();
      const result = await sendBulk(tokens.a, { text: '今月のキャンペーンのお知らせ' });
      expect(result.status).toBe(201);
      expect(result.body).toMatchObject({ queued: 1, batches: 1 });
      const broadcastId = Number(result.body.broadcast_id);
      const [stored] = await db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
      expect(stored).toMatchObject({ staff_id: ids.a, message: '今月のキャンペーンのお知らせ', recipient_count: 1 });
      const recipients = await db
        .select()
        .from(broadcastRecipients)
        .where(eq(broadcastRecipients.broadcast_id, broadcastId));
      expect(recipients.map((r) => r.customer_id)).toEqual([hanako.id]);
      // Stored once: no per-customer message rows.
      expect(await snapshot()).toMatchObject({
        messages: before.messages,
        broadcasts: before.broadcasts + 1,
        outbox: before.outbox + 1,
      });

      const multicastsBefore = line.multicasts.length;
      await t.app.notifications.worker.drainOnce();
      const sent = line.multicasts.slice(multicastsBefore);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        path: '/v2/bot/message/multicast',
        authorization: `Bearer ${ACCESS_TOKEN}`,
        to: [lineId(1)],
        messages: [{ type: 'text', text: '今月のキャンペーンのお知らせ' }],
        status: 200,
      });
    });

    it('a staff member with no linked customers queues nothing: 200 {queued: 0} and nothing stored', async () => {
      const before = await snapshot();
      const result = await sendBulk(tokens.loner, { text: 'だれにも届かない', image: png });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ broadcast_id: null, queued: 0, batches: 0 });
      expect(await snapshot()).toEqual(before);
    });

    it('needs text or an image (400, nothing stored)', async () => {
      const before = await snapshot();
      const result = await sendBulk(tokens.admin, { text: '   ' });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ detail: MESSAGES.messageOrImageRequired });
      expect(await snapshot()).toEqual(before);
    });

    it('a batch LINE refuses once is retried with the same retry key and delivered once', async () => {
      line.planPerMessage([500]);
      const result = await sendBulk(tokens.b, { text: '再送テスト' });
      expect(result.body).toMatchObject({ queued: 1, batches: 1 });
      const multicastsBefore = line.multicasts.length;
      const acceptedBefore = line.acceptedMulticasts.length;
      for (let i = 0; i < 5 && line.acceptedMulticasts.length === acceptedBefore; i += 1) {
        await t.app.notifications.worker.drainOnce();
        tick(); // past the (1 ms) backoff on the app's clock
      }
      const attempts = line.multicasts.slice(multicastsBefore);
      expect(attempts.map((a) => a.status)).toEqual([500, 200]);
      expect(new Set(attempts.map((a) => a.retryKey)).size).toBe(1);
      expect(attempts[0]!.to).toEqual([lineId(2)]);
      expect(line.acceptedMulticasts.length).toBe(acceptedBefore + 1);
    });

    it('a superuser reaches every linked customer: 1,200 customers go out as 3 multicasts of 500/500/200', async () => {
      const linked = (await db.select({ value: count() }).from(customers).where(like(customers.line_user_id, 'U%')))[0]!
        .value;
      const extra = Array.from({ length: 1200 - linked }, (_, i) => ({
        salon_id: t.salonId,
        name: `顧客 ${i + 1}`,
        line_user_id: lineId(1000 + i),
      }));
      await db.insert(customers).values(extra);
      // A LINE plan without a monthly limit: 1,200 messages are past the free plan's 200 (server/outbox/line-budget.ts).
      await db.update(salons).set({ line_monthly_push_limit: 0 }).where(eq(salons.id, t.salonId));
      const before = await snapshot();

      const result = await sendBulk(tokens.admin, { text: '年末年始の営業のお知らせ', image: png });
      expect(result.status).toBe(201);
      expect(result.body).toMatchObject({ queued: 1200, batches: 3 });
      const broadcastId = Number(result.body.broadcast_id);
      const [stored] = await db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
      expect(stored).toMatchObject({ staff_id: ids.admin, recipient_count: 1200 });
      expect(stored!.image_url).toMatch(MEDIA_URL);
      const [recipientCount] = await db
        .select({ value: count() })
        .from(broadcastRecipients)
        .where(eq(broadcastRecipients.broadcast_id, broadcastId));
      expect(recipientCount!.value).toBe(1200);
      expect(await snapshot()).toMatchObject({
        messages: before.messages,
        broadcasts: before.broadcasts + 1,
        outbox: before.outbox + 3,
      });
      const rows = await db
        .select()
        .from(notificationsOutbox)
        .where(
          and(
            eq(notificationsOutbox.kind, 'bulk_message'),
            like(notificationsOutbox.recipient, `broadcast:${broadcastId}:%`),
          ),
        )
        .orderBy(asc(notificationsOutbox.id));
      expect(rows.map((row) => row.recipient)).toEqual([1, 2, 3].map((n) => `broadcast:${broadcastId}:${n}`));

      const multicastsBefore = line.multicasts.length;
      await t.app.notifications.worker.drainOnce();
      const sent = line.multicasts.slice(multicastsBefore);
      expect(sent.map((request) => request.to.length).sort((x, y) => y - x)).toEqual([500, 500, 200]);
      expect(sent.every((request) => request.status === 200)).toBe(true);
      expect(new Set(sent.map((request) => request.retryKey)).size).toBe(3);
      expect(sent.map((request) => request.retryKey).sort()).toEqual(rows.map((row) => row.retry_key).sort());
      const everyone = await db
        .select({ id: customers.line_user_id })
        .from(customers)
        .where(like(customers.line_user_id, 'U%'));
      expect(new Set(sent.flatMap((request) => request.to))).toEqual(new Set(everyone.map((row) => row.id)));
      expect(sent.flatMap((request) => request.to)).toHaveLength(1200);
      for (const request of sent) {
        expect(request.messages).toEqual([
          { type: 'text', text: '年末年始の営業のお知らせ' },
          {
            type: 'image',
            originalContentUrl: stored!.image_url,
            previewImageUrl: stored!.image_url!.replace(/\.png$/, '-preview.jpg'),
          },
        ]);
      }
      expect(
        (
          await db
            .select()
            .from(notificationsOutbox)
            .where(
              inArray(
                notificationsOutbox.id,
                rows.map((row) => row.id),
              ),
            )
        ).map((row) => row.status),
      ).toEqual(['sent', 'sent', 'sent']);
    });
  });

  describe('line-history', () => {
    it('returns direct messages and bulk sends in chat order, with the customer’s picture, bounded by limit', async () => {
      // A message from the customer (the webhook stores these) and one from an earlier day.
      tick();
      await db.insert(lineMessages).values([
        {
          salon_id: t.salonId,
          customer_id: hanako.id,
          sender_type: 'customer',
          message: 'ありがとうございます！',
          sent_at: new Date(clock),
        },
        {
          salon_id: t.salonId,
          customer_id: hanako.id,
          sender_type: 'customer',
          message: '予約の時間を変更したいです 50%OFF_ですか',
          sent_at: localDateTimeToInstant('2030-02-16T00:30:00', TZ),
        },
      ]);
      const all = await history(tokens.admin);
      expect(all.status).toBe(200);
      expect(Number(all.headers.get('x-total-count'))).toBe(all.items.length);
      const times = all.items.map((item) => item.sent_at);
      expect([...times].sort()).toEqual(times);
      expect(all.items[0]).toMatchObject({
        message: '予約の時間を変更したいです 50%OFF_ですか',
        sent_at: '2030-02-16T00:30:00+09:00',
      });
      const last = all.items.at(-1)!;
      expect(last).toMatchObject({
        sender_type: 'customer',
        customer_id: hanako.id,
        customer_name: '山田 花子',
        customer_line_picture_url: 'https://profile.line-scdn.net/hanako',
        message: 'ありがとうございます！',
        broadcast_id: null,
      });
      const bulk = all.items.filter((item) => item.broadcast_id !== null);
      expect(bulk.map((item) => item.customer_name)).toEqual([
        '一斉送信（1名）',
        '一斉送信（1名）',
        '一斉送信（1200名）',
      ]);
      expect(bulk.every((item) => item.id === `b${item.broadcast_id}` && item.sender_type === 'admin')).toBe(true);
      expect(new Set(all.items.map((item) => item.id)).size).toBe(all.items.length);

      const latestTwo = await history(tokens.admin, { limit: '2' });
      expect(latestTwo.items.map((item) => item.id)).toEqual(all.items.slice(-2).map((item) => item.id));
      expect(latestTwo.headers.get('x-total-count')).toBe(String(all.items.length));
      const older = await history(tokens.admin, { limit: '2', offset: '2' });
      expect(older.items.map((item) => item.id)).toEqual(all.items.slice(-4, -2).map((item) => item.id));
    });

    it('filters by salon-local dates (inclusive), by text or customer name, and escapes LIKE wildcards', async () => {
      const onDay = await history(tokens.admin, { start_date: '2030-02-16', end_date: '2030-02-16' });
      expect(onDay.items.map((item) => item.message)).toEqual(['予約の時間を変更したいです 50%OFF_ですか']);
      // 00:30 in Tokyo is the previous day in UTC: it must not leak into 02-15.
      expect((await history(tokens.admin, { end_date: '2030-02-15' })).items).toEqual([]);
      expect((await history(tokens.admin, { start_date: '2030-03-02' })).items).toEqual([]);

      const percent = await history(tokens.admin, { query: '%' });
      expect(percent.items.map((item) => item.message)).toEqual(['予約の時間を変更したいです 50%OFF_ですか']);
      expect((await history(tokens.admin, { query: '_' })).items).toHaveLength(1);
      expect((await history(tokens.admin, { query: 'off_' })).items).toHaveLength(1);
      const byName = await history(tokens.admin, { query: '田中' });
      expect(byName.items.length).toBeGreaterThan(0);
      expect(byName.items.every((item) => item.customer_name === '田中 太郎')).toBe(true);
      const campaign = await history(tokens.admin, { query: 'キャンペーン' });
      expect(campaign.items.map((item) => item.customer_name)).toEqual(['一斉送信（1名）']);
    });

    it('customer_id: that customer’s messages and the bulk sends they received', async () => {
      const result = await history(tokens.admin, { customer_id: String(taro.id) });
      expect(result.items.length).toBeGreaterThan(0);
      for (const item of result.items) {
        if (item.broadcast_id === null) expect(item.customer_id).toBe(taro.id);
      }
      // B's retry test send and the superuser's 1,200 send reached Taro; A's campaign did not.
      expect(result.items.filter((item) => item.broadcast_id !== null).map((item) => item.message)).toEqual([
        '再送テスト',
        '年末年始の営業のお知らせ',
      ]);
    });

    it('staff A sees only A’s customers and A’s bulk sends; user_id is ignored; B’s customer is 404', async () => {
      const own = await history(tokens.a);
      expect(own.items.length).toBeGreaterThan(0);
      expect(own.items.every((item) => item.customer_id === hanako.id || item.broadcast_id !== null)).toBe(true);
      expect(own.items.filter((item) => item.broadcast_id !== null).map((item) => item.message)).toEqual([
        '今月のキャンペーンのお知らせ',
      ]);
      const asB = await history(tokens.a, { user_id: String(ids.b) });
      expect(asB.items.map((item) => item.id)).toEqual(own.items.map((item) => item.id));
      expect(JSON.stringify(own.items)).not.toContain('田中');

      const foreign = await history(tokens.a, { customer_id: String(taro.id) });
      expect(foreign.status).toBe(404);
      expect(JSON.stringify(foreign.body)).not.toContain('田中');

      // A superuser may look through B's eyes.
      const viaUserId = await history(tokens.admin, { user_id: String(ids.b) });
      expect(viaUserId.items.every((item) => item.customer_id === taro.id || item.broadcast_id !== null)).toBe(true);
      expect(viaUserId.items.filter((item) => item.broadcast_id !== null).map((item) => item.message)).toEqual([
        '再送テスト',
      ]);
    });

    it('bad query values are 400', async () => {
      const queries: Array<Record<string, string>> = [
        { start_date: '2030-02-30' },
        { limit: '1001' },
        { limit: '0' },
        { customer_id: 'abc' },
      ];
      for (const query of queries) {
        expect((await history(tokens.admin, query)).status, JSON.stringify(query)).toBe(400);
      }
    });
  });

  describe('the emulator inbox (no Messaging API token)', () => {
    it('stores a multicast once per recipient, and a repeat of the same retry key adds nothing', async () => {
      const pusher = createLinePusher(
        { LINE_MESSAGING_ACCESS_TOKEN: undefined, LINE_API_BASE: 'http://127.0.0.1:1' },
        db,
      );
      expect(pusher.mode).toBe('dev');
      const retryKey = randomUUID();
      const input = {
        to: [lineId(1), lineId(2), lineId(3)],
        messages: [{ type: 'text' as const, text: '一斉送信' }],
        retryKey,
      };
      await pusher.multicast!(input);
      await pusher.multicast!(input);
      const rows = await db.select().from(devLineInbox).where(inArray(devLineInbox.to, input.to));
      expect(rows.map((row) => row.to).sort()).toEqual([...input.to].sort());
      expect(new Set(rows.map((row) => row.retry_key)).size).toBe(3);
      expect(rows.every((row) => UUID.test(row.retry_key))).toBe(true);
      await pusher.multicast!({ ...input, retryKey: randomUUID() });
      expect(await db.select().from(devLineInbox).where(inArray(devLineInbox.to, input.to))).toHaveLength(6);
    });
  });
});
