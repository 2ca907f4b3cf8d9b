import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsOutbox } from '../../server/db/schema';
import { listInbox } from '../../server/integrations/line/inbox';
import { LinePushError } from '../../server/integrations/line/messaging';
import { createLinePusher } from '../../server/integrations/line/pusher';
import { FLEX_ALT_TEXT_MAX } from '#server/integrations/line/flex';
import { linkCard } from '#server/outbox/line-cards';
import { enqueueNotifications } from '../../server/outbox/outbox';
import { startTestApp, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';

const CUSTOMER_LINE = 'U0123456789abcdef0123456789abcdef';
const STAFF_LINE = 'Ufedcba9876543210fedcba9876543210';

describe(`dev mailbox and LINE inbox in the app on ${testEngine}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('the app’s worker delivers queued messages to /dev/mail and /dev/line/inbox, listed newest first and escaped', async () => {
    const { db } = t.database;
    const hostile = '<script>alert(1)</script> & "引用"';
    const deliver = async (rows: Parameters<typeof enqueueNotifications>[1]) => {
      const queued = await enqueueNotifications(db, rows);
      t.app.notifications.worker.wake();
      await waitFor(async () => {
        const sent = await db.select().from(notificationsOutbox).where(inArray(notificationsOutbox.id, queued));
        return sent.every((row) => row.status === 'sent');
      });
    };
    // One after the other, so that "newest first" has one answer (a batch is sent side by side).
    await deliver([
      {
        salonId: t.salonId,
        channel: 'email',
        kind: 'reservation_accepted',
        recipient: 'first@example.com',
        payload: { subject: '最初のメール', text: '一通目' },
      },
    ]);
    await deliver([
      {
        salonId: t.salonId,
        channel: 'email',
        kind: 'reservation_accepted',
        recipient: 'second@example.com',
        payload: { subject: `件名 ${hostile}`, text: `本文 ${hostile}\n二行目` },
      },
      {
        salonId: t.salonId,
        channel: 'line',
        kind: 'reservation_accepted',
        recipient: CUSTOMER_LINE,
        payload: { messages: [{ type: 'text', text: `LINE ${hostile}` }] },
      },
    ]);

    const mailJson = await t.api('/dev/mail?format=json');
    expect(mailJson.status).toBe(200);
    const mails = mailJson.body.messages as Array<{ to: string; subject: string; text: string }>;
    expect(mails.map((mail) => mail.to)).toEqual(['second@example.com', 'first@example.com']);
    expect(mails[0]).toMatchObject({ subject: `件名 ${hostile}`, text: `本文 ${hostile}\n二行目` });
    const filtered = await t.api('/dev/mail?format=json&to=first%40example.com');
    expect((filtered.body.messages as unknown[]).length).toBe(1);

    const mailPage = await t.api('/dev/mail');
    expect(mailPage.status).toBe(200);
    expect(mailPage.headers.get('content-type')).toMatch(/^text\/html/);
    expect(mailPage.text).toContain('開発用メールボックス');
    expect(mailPage.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;引用&#34;');
    expect(mailPage.text).not.toContain('<script>alert');
    expect(mailPage.text.indexOf('second@example.com')).toBeLessThan(mailPage.text.indexOf('first@example.com'));

    const inboxJson = await t.api('/dev/line/inbox?format=json');
    const pushes = inboxJson.body.messages as Array<{
      to: string;
      retry_key: string;
      messages: Array<{ text: string }>;
    }>;
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ to: CUSTOMER_LINE, messages: [{ type: 'text', text: `LINE ${hostile}` }] });
    const [lineRow] = await db.select().from(notificationsOutbox).where(eq(notificationsOutbox.channel, 'line'));
    expect(pushes[0]!.retry_key).toBe(lineRow!.retry_key);
    const inboxPage = await t.api('/dev/line/inbox');
    expect(inboxPage.text).toContain('LINE受信箱');
    expect(inboxPage.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(inboxPage.text).not.toContain('<script>alert');
  });

  it('the emulator inbox, like LINE, accepts a retry key once', async () => {
    const pusher = createLinePusher(
      { LINE_MESSAGING_ACCESS_TOKEN: undefined, LINE_API_BASE: 'http://unused' },
      t.database.db,
    );
    expect(pusher.mode).toBe('dev');
    const push = {
      to: STAFF_LINE,
      messages: [{ type: 'text' as const, text: '一度だけ' }],
      retryKey: crypto.randomUUID(),
    };
    await pusher.push(push);
    await pusher.push(push);
    expect((await listInbox(t.database.db, { to: STAFF_LINE })).length).toBe(1);
  });

  it('the emulator inbox takes Flex cards, shows them readably, and refuses what LINE would refuse', async () => {
    const pusher = createLinePusher(
      { LINE_MESSAGING_ACCESS_TOKEN: undefined, LINE_API_BASE: 'http://unused' },
      t.database.db,
      { appOrigin: 'http://localhost:5173' },
    );
    const to = 'U' + 'c'.repeat(32);
    const card = linkCard({
      altText: '【サロン】\nご予約が確定しました。',
      title: '【サロン】',
      lines: ['ご予約が確定しました。', '', '予約番号: R-1'],
      button: { label: '予約を確認する', url: 'http://localhost:5173/reservations/R-1' },
    });
    await pusher.push({ to, messages: [card], retryKey: crypto.randomUUID() });
    const [entry] = await listInbox(t.database.db, { to });
    expect(entry!.messages).toEqual([card]);
    const page = await t.api(`/dev/line/inbox?to=${to}`);
    expect(page.text).toContain('ご予約が確定しました。');
    expect(page.text).toContain('予約番号: R-1');
    expect(page.text).toContain('予約を確認する: http://localhost:5173/reservations/R-1');
    expect(page.text).not.toContain('&#34;type&#34;'); // not raw JSON

    const refused = async (message: typeof card) => {
      const error = await pusher.push({ to, messages: [message], retryKey: crypto.randomUUID() }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LinePushError);
      expect(error).toMatchObject({ status: 400, permanent: true });
    };
    await refused({ ...card, altText: '' });
    await refused({ ...card, altText: 'あ'.repeat(FLEX_ALT_TEXT_MAX + 1) });
    await refused(
      linkCard({ altText: 'a', title: 't', lines: [], button: { label: 'b', url: 'http://evil.example/x' } }),
    );
    expect(await listInbox(t.database.db, { to })).toHaveLength(1);
  });

  it('has no dev pages outside dev mode', async () => {
    const live = await startTestApp({
      env: { LINE_LOGIN_CHANNEL_ID: '1234567890', LINE_LOGIN_CHANNEL_SECRET: 'channel-secret' },
    });
    try {
      expect((await live.api('/dev/mail')).status).toBe(404);
      expect((await live.api('/dev/line/inbox?format=json')).status).toBe(404);
    } finally {
      await live.close();
    }
  });
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
