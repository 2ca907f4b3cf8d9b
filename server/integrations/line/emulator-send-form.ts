/** The LINE emulator's /dev/line/send: a test LINE user writes to the salon through the real, signed webhook. */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { devLineUsers } from '../../db/schema';
import { escapeHtml, page } from './emulator-page';
import { signLineWebhookBody } from './webhook-signature';

const sendFormBody = z.object({
  line_user_id: z.string().max(100).default(''),
  new_user: z.string().trim().max(50).default(''),
  // Browsers send textarea line breaks as CRLF; LINE's text has LF.
  text: z
    .string()
    .max(5000)
    .transform((text) => text.replace(/\r\n?/g, '\n'))
    .refine((text) => text.trim().length > 0),
});

/**
 * GET/POST /dev/line/send (docs/architecture.md#operating-contract): a test LINE user "sends" a text to the salon. The form builds the
 * event LINE would send, signs its bytes with the webhook's secret and delivers it to the real webhook route,
 * so everything after LINE (signature, parsing, storage) runs as in production.
 */
export function registerSendForm(
  app: FastifyInstance,
  deps: {
    db: Database;
    webhookSecret: string;
    now: () => Date;
    findOrCreateUser(name: string): Promise<typeof devLineUsers.$inferSelect>;
  },
) {
  const destination = `U${createHash('sha256').update(deps.webhookSecret).digest('hex').slice(0, 32)}`;

  app.get('/dev/line/send', async (request, reply) => {
    const query = request.query as { sent?: string; user?: string };
    const users = await deps.db.select().from(devLineUsers).orderBy(devLineUsers.created_at);
    const options = users
      .map(
        (user) =>
          `<option value="${escapeHtml(user.line_user_id)}"${user.line_user_id === query.user ? ' selected' : ''}>${escapeHtml(user.display_name)}</option>`,
      )
      .join('');
    const body = `
      <p>テスト用のLINEユーザーとして、サロンのLINE公式アカウントにメッセージを送ります（開発モード）。署名付きのWebhookとしてサーバーに届きます。</p>
      ${query.sent === '1' ? '<p role="status"><strong>メッセージを送信しました。</strong></p>' : ''}
      <form method="post" action="/dev/line/send">
        <p><label for="line_user_id">送信者（テスト用LINEユーザー）</label>
        <select id="line_user_id" name="line_user_id" style="font-size:1rem;width:100%">${options || '<option value="">（まだいません）</option>'}</select></p>
        <p><label for="new_user">または新しいテストユーザーの名前</label>
        <input id="new_user" name="new_user" maxlength="50"></p>
        <p><label for="text">メッセージ</label>
        <textarea id="text" name="text" required maxlength="5000" rows="4" style="font-size:1rem;width:100%;box-sizing:border-box"></textarea></p>
        <button type="submit">送信</button>
      </form>
      <p><a href="/dev/line/inbox">LINE受信箱（サロンから送られたメッセージ）</a></p>`;
    reply.header('cache-control', 'no-store');
    return reply
      .type('text/html; charset=utf-8')
      .send(page('お客様としてLINEメッセージを送る（エミュレーター）', body));
  });

  app.post('/dev/line/send', async (request, reply) => {
    const parsed = sendFormBody.safeParse(request.body);
    const fail = (status: number, message: string) =>
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(page('エラー', `<p>${escapeHtml(message)}</p><p><a href="/dev/line/send">戻る</a></p>`));
    if (!parsed.success) return fail(400, 'メッセージを入力してください（5000文字以内）。');
    const { new_user: newUser, text } = parsed.data;
    const [existing] = newUser
      ? [await deps.findOrCreateUser(newUser)]
      : await deps.db.select().from(devLineUsers).where(eq(devLineUsers.line_user_id, parsed.data.line_user_id));
    if (!existing) return fail(400, '送信者のテストユーザーを選ぶか、新しい名前を入力してください。');

    // The bytes are serialised once and signed as they are sent, exactly as LINE does.
    const raw = Buffer.from(
      JSON.stringify({ destination, events: [textEvent(existing.line_user_id, text, deps.now())] }),
      'utf8',
    );
    const delivered = await app.inject({
      method: 'POST',
      url: '/api/line/webhook/',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'x-line-signature': signLineWebhookBody(raw, deps.webhookSecret),
      },
      payload: raw,
    });
    if (delivered.statusCode !== 200)
      return fail(502, `Webhookが送信を受け付けませんでした（HTTP ${delivered.statusCode}）。`);
    return reply.redirect(`/dev/line/send?sent=1&user=${encodeURIComponent(existing.line_user_id)}`, 303);
  });
}

/** A text message event as LINE sends it (ids in LINE's formats: a ULID-like event id, numeric message id). */
function textEvent(userId: string, text: string, at: Date) {
  const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const time = at.getTime();
  const eventId =
    Array.from({ length: 10 }, (_, i) => crockford[Math.floor(time / 32 ** (9 - i)) % 32]).join('') +
    Array.from(randomBytes(16), (byte) => crockford[byte % 32]).join('');
  return {
    type: 'message',
    mode: 'active',
    timestamp: time,
    source: { type: 'user', userId },
    webhookEventId: eventId,
    deliveryContext: { isRedelivery: false },
    replyToken: randomBytes(16).toString('hex'),
    message: {
      id: `${randomInt(1, 1_000_000_000)}${randomInt(0, 1_000_000_000).toString().padStart(9, '0')}`,
      type: 'text',
      quoteToken: randomBytes(24).toString('base64url'),
      text,
    },
  };
}
