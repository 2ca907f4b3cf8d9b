import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc, count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { customers, lineMessages, webhookEvents } from '../../server/db/schema';
import { lineWebhookSecret } from '../../server/integrations/line/webhook-signature';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { emulatorAuthorize, startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer } from '../helpers/factories';
import { startFakeLineMessaging, type FakeLineMessaging } from '../helpers/fake-line-messaging';

const SECRET = 'test-messaging-channel-secret-0123456789';
const ACCESS_TOKEN = 'test-messaging-access-token';
const HANAKO_LINE = 'U4af4980629a1b2c3d4e5f60718293a4b';
const YUI_LINE = 'Ub7c3e2f1a0d9c8b7a6f5e4d3c2b1a0f9';
const STICKER_LINE = 'U1234567890abcdef1234567890abcdef';
const fixtureDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'line-webhook');

/** A fixture's bytes exactly as stored: they are what LINE signed. */
const fixture = (name: string) => fs.readFile(path.join(fixtureDir, name));
const sign = (raw: Buffer | string, secret = SECRET) => createHmac('sha256', secret).update(raw).digest('base64');

interface Delivery {
  status: number;
  body: unknown;
}

async function deliver(baseUrl: string, raw: Buffer | string, signature: string | null): Promise<Delivery> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (signature !== null) headers['x-line-signature'] = signature;
  const response = await fetch(`${baseUrl}/api/line/webhook/`, { method: 'POST', headers, body: raw });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

async function counts(db: Database) {
  const [[messages], [events], [people]] = await Promise.all([
    db.select({ n: count() }).from(lineMessages),
    db.select({ n: count() }).from(webhookEvents),
    db.select({ n: count() }).from(customers),
  ]);
  return { messages: messages!.n, events: events!.n, customers: people!.n };
}

async function messagesOf(db: Database, lineUserId: string) {
  return db
    .select({
      message: lineMessages.message,
      image_url: lineMessages.image_url,
      sender_type: lineMessages.sender_type,
      line_message_id: lineMessages.line_message_id,
      sent_at: lineMessages.sent_at,
      customer_id: lineMessages.customer_id,
    })
    .from(lineMessages)
    .innerJoin(customers, eq(customers.id, lineMessages.customer_id))
    .where(eq(customers.line_user_id, lineUserId))
    .orderBy(asc(lineMessages.sent_at));
}

const customerByLine = async (db: Database, lineUserId: string) =>
  (await db.select().from(customers).where(eq(customers.line_user_id, lineUserId)))[0];

describe(`LINE webhook on ${testEngine}`, () => {
  let fake: FakeLineMessaging;
  let t: TestApp;
  let db: Database;

  beforeAll(async () => {
    fake = await startFakeLineMessaging({ accessToken: ACCESS_TOKEN });
    t = await startTestApp({
      env: {
        LINE_MESSAGING_CHANNEL_SECRET: SECRET,
        LINE_MESSAGING_ACCESS_TOKEN: ACCESS_TOKEN,
        LINE_API_BASE: fake.url,
        PUBLIC_URL: 'https://salon.example.jp',
      },
    });
    db = t.database.db;
    fake.profiles.set(HANAKO_LINE, { displayName: 'はなこ🌸', pictureUrl: 'https://profile.line-scdn.net/hanako' });
    fake.profiles.set(YUI_LINE, { displayName: 'ゆい', pictureUrl: 'https://profile.line-scdn.net/yui' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('stores a signed Japanese and emoji text once, for a customer created from the LINE profile', async () => {
    const raw = await fixture('text-message.json');
    // The fixture's bytes are not what JSON.stringify makes of them: only the raw bytes carry the signature.
    expect(JSON.stringify(JSON.parse(raw.toString('utf8')))).not.toBe(raw.toString('utf8'));

    const first = await deliver(t.url, raw, sign(raw));
    expect(first).toEqual({ status: 200, body: {} });
    const hanako = await customerByLine(db, HANAKO_LINE);
    expect(hanako).toMatchObject({
      salon_id: t.salonId,
      name: 'はなこ🌸',
      line_display_name: 'はなこ🌸',
      line_picture_url: 'https://profile.line-scdn.net/hanako',
    });
    expect(await messagesOf(db, HANAKO_LINE)).toEqual([
      {
        message: '予約の変更をお願いします🙏💅',
        image_url: '',
        sender_type: 'customer',
        line_message_id: '468789577898262530',
        sent_at: new Date(1767312000123),
        customer_id: hanako!.id,
      },
    ]);
    const before = await counts(db);

    // The same bytes again, and LINE's redelivery of the event (other bytes, same event id): nothing new.
    expect(await deliver(t.url, raw, sign(raw))).toEqual({ status: 200, body: {} });
    const redelivery = raw.toString('utf8').replace('"isRedelivery": false', '"isRedelivery": true');
    expect(redelivery).not.toBe(raw.toString('utf8'));
    expect(await deliver(t.url, redelivery, sign(redelivery))).toEqual({ status: 200, body: {} });
    expect(await counts(db)).toEqual(before);
    expect(await messagesOf(db, HANAKO_LINE)).toHaveLength(1);
  });

  it('refuses a re-serialised body, a wrong or missing signature with 401 and stores nothing', async () => {
    const raw = await fixture('follow-and-messages.json');
    const signature = sign(raw);
    const reserialised = JSON.stringify(JSON.parse(raw.toString('utf8')));
    const before = await counts(db);
    const refused = { status: 401, body: { detail: SERVER_MESSAGES.lineSignatureInvalid, code: 'invalid_signature' } };

    expect(await deliver(t.url, reserialised, signature)).toEqual(refused);
    expect(await deliver(t.url, raw, sign(raw, 'another-channel-secret'))).toEqual(refused);
    expect(await deliver(t.url, raw, null)).toEqual(refused);
    expect(await deliver(t.url, raw, '')).toEqual(refused);
    // The right signature with junk around it (Buffer.from(…, 'base64') would skip the junk).
    expect(await deliver(t.url, raw, `${signature}!!`)).toEqual(refused);
    const tampered = raw.toString('utf8').replace('ジェルネイル', 'ハンドケア');
    expect(await deliver(t.url, tampered, signature)).toEqual(refused);
    expect(await counts(db)).toEqual(before);
    expect(await customerByLine(db, YUI_LINE)).toBeUndefined();

    // The same bytes with their signature are accepted: the refusals above were the signature's doing.
    expect(await deliver(t.url, raw, signature)).toEqual({ status: 200, body: {} });
    const yui = await customerByLine(db, YUI_LINE);
    expect(yui).toMatchObject({
      name: 'ゆい',
      line_display_name: 'ゆい',
      line_picture_url: 'https://profile.line-scdn.net/yui',
    });
    expect((await messagesOf(db, YUI_LINE)).map((row) => row.message)).toEqual([
      'はじめまして！\nジェルネイルの予約をしたいです✨',
      '<script>alert(1)</script> &amp; "引用" 😀',
    ]);
    expect(await counts(db)).toEqual({
      messages: before.messages + 2,
      events: before.events + 3,
      customers: before.customers + 1,
    });
  });

  it('a follow refreshes a known customer’s LINE name and picture but keeps the name staff gave them', async () => {
    const known = await createCustomer(db, t.salonId, {
      name: '佐藤 美咲',
      lineUserId: 'Uaaaabbbbccccddddeeeeffff00001111',
    });
    fake.profiles.set(known.line_user_id!, {
      displayName: 'みさき',
      pictureUrl: 'https://profile.line-scdn.net/misaki',
    });
    const raw = JSON.stringify({
      destination: 'U8e742f61d673b39c7fff3cecb7536ef0',
      events: [
        {
          type: 'follow',
          webhookEventId: '01JFOLLOWKNOWN000000000000',
          deliveryContext: { isRedelivery: false },
          timestamp: 1767312300000,
          source: { type: 'user', userId: known.line_user_id },
          mode: 'active',
        },
      ],
    });
    const before = await counts(db);
    expect(await deliver(t.url, raw, sign(raw))).toEqual({ status: 200, body: {} });
    expect(await customerByLine(db, known.line_user_id!)).toMatchObject({
      id: known.id,
      name: '佐藤 美咲',
      line_display_name: 'みさき',
      line_picture_url: 'https://profile.line-scdn.net/misaki',
    });
    expect(await counts(db)).toEqual({ ...before, events: before.events + 1 });
  });

  it('unfollow, stickers and group messages are marked seen and change nothing else', async () => {
    const raw = await fixture('other-events.json');
    const before = await counts(db);
    const hanakoBefore = await customerByLine(db, HANAKO_LINE);
    expect(await deliver(t.url, raw, sign(raw))).toEqual({ status: 200, body: {} });
    expect(await counts(db)).toEqual({ ...before, events: before.events + 3 });
    expect(await customerByLine(db, HANAKO_LINE)).toEqual(hanakoBefore);
    expect(await customerByLine(db, STICKER_LINE)).toBeUndefined();
  });

  it('fetches images from LINE, re-encodes them and serves them back; a failed fetch still stores the message', async () => {
    const jpeg = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 240, g: 80, b: 160 } } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'EXIF-SECRET-4321' } })
      .toBuffer();
    expect(jpeg.includes('EXIF-SECRET-4321')).toBe(true);
    fake.contents.set('500000000000000001', { status: 200, contentType: 'image/jpeg', body: jpeg });
    fake.contents.set('500000000000000002', {
      status: 500,
      contentType: 'application/json',
      body: Buffer.from('{"message":"error"}'),
    });
    fake.contents.set('500000000000000003', {
      status: 200,
      contentType: 'image/jpeg',
      body: Buffer.from('<html>not an image</html>'),
    });
    const raw = await fixture('image-messages.json');
    const before = await counts(db);

    expect(await deliver(t.url, raw, sign(raw))).toEqual({ status: 200, body: {} });
    const contentGets = fake.gets.filter((get) => get.path.endsWith('/content'));
    expect(contentGets.map((get) => get.path).sort()).toEqual([
      '/v2/bot/message/500000000000000001/content',
      '/v2/bot/message/500000000000000002/content',
      '/v2/bot/message/500000000000000003/content',
    ]);
    expect(contentGets.every((get) => get.authorization === `Bearer ${ACCESS_TOKEN}`)).toBe(true);

    const rows = (await messagesOf(db, HANAKO_LINE)).filter((row) => row.line_message_id?.startsWith('5000'));
    expect(rows.map((row) => [row.line_message_id, row.message])).toEqual([
      ['500000000000000001', ''],
      ['500000000000000002', SERVER_MESSAGES.lineImageNotReceived],
      ['500000000000000003', SERVER_MESSAGES.lineImageNotReceived],
    ]);
    expect(rows[0]!.image_url).toMatch(/^https:\/\/salon\.example\.jp\/media\/[0-9a-f]{32}\.jpg$/);
    expect(rows[1]!.image_url).toBe('');
    expect(rows[2]!.image_url).toBe('');
    expect(await counts(db)).toEqual({ ...before, messages: before.messages + 3, events: before.events + 3 });

    const served = await fetch(new URL(new URL(rows[0]!.image_url).pathname, t.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.includes('EXIF-SECRET-4321')).toBe(false);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 16, height: 12 });

    // A redelivery neither fetches again nor stores a second file.
    const files = await fs.readdir(t.env.uploadDir);
    const redelivery = raw.toString('utf8').replaceAll('"isRedelivery": false', '"isRedelivery": true');
    expect(await deliver(t.url, redelivery, sign(redelivery))).toEqual({ status: 200, body: {} });
    expect(fake.gets.filter((get) => get.path.endsWith('/content'))).toHaveLength(3);
    expect(await fs.readdir(t.env.uploadDir)).toEqual(files);
    expect(await counts(db)).toEqual({ ...before, messages: before.messages + 3, events: before.events + 3 });
  });

  it('the same event delivered side by side is stored once', async () => {
    const raw = JSON.stringify({
      destination: 'U8e742f61d673b39c7fff3cecb7536ef0',
      events: [
        {
          type: 'message',
          message: { type: 'text', id: '468789577898262599', quoteToken: 'race', text: '同時に届いたメッセージ🏁' },
          webhookEventId: '01JRACE0000000000000000000',
          deliveryContext: { isRedelivery: false },
          timestamp: 1767312400000,
          source: { type: 'user', userId: 'Ucccc0000dddd1111eeee2222ffff3333' },
          replyToken: '7a8b9c0d1e2f4d9e9a0b1c2d3e4f5a6b',
          mode: 'active',
        },
      ],
    });
    const before = await counts(db);
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(t.url, raw, sign(raw))));
    expect(results.every((result) => result.status === 200)).toBe(true);
    expect(await counts(db)).toEqual({
      messages: before.messages + 1,
      events: before.events + 1,
      customers: before.customers + 1,
    });
    expect((await messagesOf(db, 'Ucccc0000dddd1111eeee2222ffff3333')).map((row) => row.message)).toEqual([
      '同時に届いたメッセージ🏁',
    ]);
  });

  it('a correctly signed body that is not a LINE delivery is 400 and stores nothing; over 1 MB is 413', async () => {
    const before = await counts(db);
    for (const raw of [
      'not json',
      '{"events": "nope"}',
      '{"events": [{"type": "message", "webhookEventId": "01JBAD", "timestamp": 1767312500000}]}',
      '{"events": [{"type": "follow", "timestamp": 1767312500000}]}',
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    ]) {
      const result = await deliver(t.url, raw, sign(raw));
      expect(result.status, String(raw)).toBe(400);
      expect(result.body).toMatchObject({ code: 'invalid' });
    }
    const big = JSON.stringify({ events: [], padding: 'あ'.repeat(400_000) });
    expect((await deliver(t.url, big, sign(big))).status).toBe(413);
    expect(await counts(db)).toEqual(before);
    // LINE's "verify" button sends no events: a plain 200.
    const verify = '{"destination":"U8e742f61d673b39c7fff3cecb7536ef0","events":[]}';
    expect(await deliver(t.url, verify, sign(verify))).toEqual({ status: 200, body: {} });
    // The bytes are checked whatever the Content-Type says (none at all here), and never parsed first.
    const bare = await fetch(`${t.url}/api/line/webhook/`, {
      method: 'POST',
      headers: { 'x-line-signature': sign(verify) },
      body: new TextEncoder().encode(verify),
    });
    expect(bare.status).toBe(200);
    const unsigned = await fetch(`${t.url}/api/line/webhook/`, {
      method: 'POST',
      body: new TextEncoder().encode(verify),
    });
    expect(unsigned.status).toBe(401);
  });
});

describe(`LINE dev mode: the emulator's send form on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('delivers a signed customer message into the webhook; the form escapes test user names', async () => {
    const { db } = t.database;
    await emulatorAuthorize(t, { devUser: '<b>テスト</b> 花子' });
    const page = await fetch(`${t.url}/dev/line/send`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('&#60;b&#62;テスト&#60;/b&#62; 花子');
    expect(html).not.toContain('<b>テスト</b>');
    const lineUserId = /<option value="(U[0-9a-f]{32})"/.exec(html)?.[1];
    expect(lineUserId).toBeDefined();

    const sent = await fetch(`${t.url}/dev/line/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        line_user_id: lineUserId!,
        text: '予約の変更をお願いします🙏💅\r\n明日でも大丈夫です',
      }),
      redirect: 'manual',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/dev/line/send?sent=1&user=${lineUserId}`);
    const confirmation = await (await fetch(new URL(sent.headers.get('location')!, t.url))).text();
    expect(confirmation).toContain('メッセージを送信しました。');

    const customer = await customerByLine(db, lineUserId!);
    // No Messaging API token in dev mode: the name comes from the emulator's test user.
    expect(customer).toMatchObject({
      salon_id: t.salonId,
      name: '<b>テスト</b> 花子',
      line_display_name: '<b>テスト</b> 花子',
    });
    expect((await messagesOf(db, lineUserId!)).map((row) => [row.message, row.sender_type])).toEqual([
      ['予約の変更をお願いします🙏💅\n明日でも大丈夫です', 'customer'],
    ]);

    // A new test user typed into the form; an empty text is refused.
    const created = await fetch(`${t.url}/dev/line/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ new_user: 'ゆい', text: 'はじめまして' }),
      redirect: 'manual',
    });
    expect(created.status).toBe(303);
    const empty = await fetch(`${t.url}/dev/line/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ line_user_id: lineUserId!, text: '   ' }),
      redirect: 'manual',
    });
    expect(empty.status).toBe(400);
    expect(await counts(db)).toMatchObject({ messages: 2, customers: 2 });
  });

  it('the webhook checks the dev secret derived from the server secret, not any other', async () => {
    const raw = (await fixture('text-message.json')).toString('utf8');
    const before = await counts(t.database.db);
    expect((await deliver(t.url, raw, sign(raw))).status).toBe(401);
    expect(await counts(t.database.db)).toEqual(before);
    const devSecret = lineWebhookSecret(t.env, t.jwtSecret)!;
    expect((await deliver(t.url, raw, sign(raw, devSecret))).status).toBe(200);
    expect(await counts(t.database.db)).toMatchObject({ messages: before.messages + 1, events: before.events + 1 });
  });
});

describe(`LINE live mode without a Messaging channel secret on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { LINE_LOGIN_CHANNEL_ID: '1234567890', LINE_LOGIN_CHANNEL_SECRET: 'live-channel-secret' },
    });
  });
  afterAll(() => t?.close());

  it('refuses every webhook call and has no send form', async () => {
    const raw = await fixture('text-message.json');
    // What dev mode would accept (the secret derived from the server secret) is refused in live mode.
    const devSecret = lineWebhookSecret({ lineDevMode: true }, t.jwtSecret)!;
    for (const signature of [sign(raw, devSecret), sign(raw, ''), sign(raw, 'live-channel-secret'), null]) {
      expect((await deliver(t.url, raw, signature)).status).toBe(401);
    }
    expect(await counts(t.database.db)).toEqual({ messages: 0, events: 0, customers: 0 });
    expect((await fetch(`${t.url}/dev/line/send`)).status).toBe(404);
    const post = await fetch(`${t.url}/dev/line/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ new_user: 'x', text: 'y' }),
    });
    expect(post.status).toBe(404);
  });
});
