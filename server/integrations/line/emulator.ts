/**
 * The built-in LINE emulator (docs/architecture.md#operating-contract), on only while no LINE channel is configured.
 * `GET /dev/line/authorize` takes LINE's own query parameters, lets a person pick or create a test LINE user
 * (or approves at once with `dev_user=<name>`), and redirects to `redirect_uri` with `code` and `state`.
 * The code is exchanged in process, or over HTTP at `/dev/line/oauth2/v2.1/token` exactly as at LINE.
 * `/dev/line/send` lets a test user send the salon a message through the real, signed webhook.
 * Only the app's own callbacks are accepted as `redirect_uri`: anything else is a 400 page, never a redirect,
 * so the emulator cannot hand a code (or a visitor) to another site.
 */
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { devLineUsers } from '../../db/schema';
import { LINE_ISSUER } from './id-token';
import { LineCodeRejectedError, type CodeExchange, type LineLoginClient } from './login-client';
import { signLineWebhookBody } from './webhook-signature';

export const EMULATOR_CHANNEL_ID = '1000000000';
const CODE_TTL_MS = 10 * 60 * 1000;

/** Where the browser app returns from LINE: the customer login (and customer linking) and the staff login. */
const APP_CALLBACK_PATHS = ['/callback', '/admin/callback'];

interface PendingCode {
  lineUserId: string;
  clientId: string;
  redirectUri: string;
  nonce?: string;
  codeChallenge?: string;
  expiresAt: number;
}

export interface LineEmulator {
  client: LineLoginClient;
  register(app: FastifyInstance): void;
}

export function createLineEmulator(options: {
  db: Database;
  secretSeed: string;
  now?: () => Date;
  /** The webhook's channel secret (webhook-signature.ts): the "send as customer" form signs with it. */
  webhookSecret?: string | null;
  /** The app's address (PUBLIC_URL): redirect_uri must be one of its callbacks. */
  publicUrl: string;
}): LineEmulator {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  // Derived from the server's own secret: stable across restarts, never committed.
  const channelSecret = createHmac('sha256', options.secretSeed).update('line-emulator-channel').digest('hex');
  const codes = new Map<string, PendingCode>();

  async function findOrCreateUser(name: string) {
    const lineUserId = `U${createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
    await db
      .insert(devLineUsers)
      .values({ line_user_id: lineUserId, name, display_name: name, email: `${lineUserId.slice(1, 9)}@line.example` })
      .onConflictDoNothing();
    const [user] = await db.select().from(devLineUsers).where(eq(devLineUsers.line_user_id, lineUserId));
    return user!;
  }

  function issueCode(pending: Omit<PendingCode, 'expiresAt'>): string {
    for (const [code, entry] of codes) if (entry.expiresAt < Date.now()) codes.delete(code);
    const code = randomBytes(16).toString('base64url');
    codes.set(code, { ...pending, expiresAt: Date.now() + CODE_TTL_MS });
    return code;
  }

  /** LINE's token exchange: one use per code, same redirect URI, PKCE checked when a challenge was sent. */
  async function exchange(input: CodeExchange & { clientId: string }): Promise<{ idToken: string }> {
    const pending = codes.get(input.code);
    codes.delete(input.code);
    if (!pending || pending.expiresAt < Date.now())
      throw new LineCodeRejectedError('invalid_grant: unknown or expired code');
    if (pending.clientId !== input.clientId) throw new LineCodeRejectedError('invalid_client');
    if (pending.redirectUri !== input.redirectUri)
      throw new LineCodeRejectedError('invalid_grant: redirect_uri mismatch');
    if (pending.codeChallenge) {
      const computed = input.codeVerifier ? createHash('sha256').update(input.codeVerifier).digest('base64url') : '';
      if (computed !== pending.codeChallenge) throw new LineCodeRejectedError('invalid_grant: code_verifier mismatch');
    }
    const [user] = await db.select().from(devLineUsers).where(eq(devLineUsers.line_user_id, pending.lineUserId));
    if (!user) throw new LineCodeRejectedError('invalid_grant: user gone');
    const issuedAt = Math.floor(now().getTime() / 1000);
    const claims: Record<string, unknown> = { name: user.display_name, picture: '', email: user.email, amr: ['pwd'] };
    if (pending.nonce) claims.nonce = pending.nonce;
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(LINE_ISSUER)
      .setSubject(user.line_user_id)
      .setAudience(pending.clientId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 3600)
      .sign(new TextEncoder().encode(channelSecret));
    return { idToken };
  }

  const client: LineLoginClient = {
    mode: 'dev',
    channelId: EMULATOR_CHANNEL_ID,
    channelSecret,
    authorizeUrl: '/dev/line/authorize',
    exchangeCode: (input) => exchange({ ...input, clientId: EMULATOR_CHANNEL_ID }),
  };

  const authorizeQuery = z.object({
    response_type: z.literal('code'),
    client_id: z.literal(EMULATOR_CHANNEL_ID),
    redirect_uri: z.url({ protocol: /^https?$/ }),
    state: z.string().max(512).default(''),
    scope: z.string().max(512).default('profile openid'),
    nonce: z.string().max(256).optional(),
    code_challenge: z.string().max(128).optional(),
    code_challenge_method: z.literal('S256').optional(),
    bot_prompt: z.string().optional(),
    dev_user: z.string().trim().min(1).max(50).optional(),
  });

  /**
   * One of the app's callbacks, on PUBLIC_URL's origin or on the origin this request came in on (the same
   * server: Vite's dev server on :5173 proxying it, localhost for 127.0.0.1, a test on its own port). A link
   * someone else made cannot change the Host its visitor's browser sends, so neither can lead off the app.
   */
  const ownOrigin = new URL(options.publicUrl).origin;
  function isAppCallback(uri: string, requestOrigin: string): boolean {
    const url = new URL(uri);
    if (!APP_CALLBACK_PATHS.includes(url.pathname) || url.search || url.hash || url.username || url.password)
      return false;
    return url.origin === ownOrigin || url.origin === requestOrigin;
  }

  async function approve(query: z.infer<typeof authorizeQuery>, name: string): Promise<string> {
    const user = await findOrCreateUser(name);
    const code = issueCode({
      lineUserId: user.line_user_id,
      clientId: query.client_id,
      redirectUri: query.redirect_uri,
      nonce: query.nonce,
      codeChallenge: query.code_challenge,
    });
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', query.state);
    return target.toString();
  }

  function register(app: FastifyInstance) {
    app.get('/dev/line/authorize', async (request, reply) => {
      const parsed = authorizeQuery.safeParse(request.query);
      if (!parsed.success) {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(
            page(
              'エラー',
              `<p>認可リクエストが不正です: ${escapeHtml(parsed.error.issues.map((i) => i.path.join('.')).join(', '))}</p>`,
            ),
          );
      }
      if (!isAppCallback(parsed.data.redirect_uri, `${request.protocol}://${request.host}`)) {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(page('エラー', '<p>redirect_uri がこのアプリのコールバックではありません。</p>'));
      }
      if (parsed.data.dev_user) return reply.redirect(await approve(parsed.data, parsed.data.dev_user));
      const users = await db.select().from(devLineUsers).orderBy(devLineUsers.created_at);
      const hidden = Object.entries(parsed.data)
        .filter(([key, value]) => key !== 'dev_user' && value !== undefined)
        .map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(String(value))}">`)
        .join('');
      const userButtons = users
        .map(
          (user) =>
            `<button type="submit" name="dev_user" value="${escapeHtml(user.name)}">${escapeHtml(user.display_name)} としてログイン</button>`,
        )
        .join('');
      const body = `
        <p>これはLINEログインのエミュレーターです（開発モード）。テスト用のLINEユーザーを選ぶか、新しく作成してください。</p>
        <form method="get" action="/dev/line/authorize">${hidden}
          <fieldset><legend>既存のテストユーザー</legend>${userButtons || '<p>まだいません。</p>'}</fieldset>
        </form>
        <form method="get" action="/dev/line/authorize">${hidden}
          <label for="dev_user">新しいテストユーザーの名前</label>
          <input id="dev_user" name="dev_user" required maxlength="50">
          <button type="submit">作成してログイン</button>
        </form>`;
      return reply.type('text/html; charset=utf-8').send(page('LINEログイン（エミュレーター）', body));
    });

    const tokenForm = z.object({
      grant_type: z.literal('authorization_code'),
      code: z.string().min(1),
      redirect_uri: z.string().min(1),
      client_id: z.string().min(1),
      client_secret: z.string().min(1),
      code_verifier: z.string().optional(),
    });
    app.post('/dev/line/oauth2/v2.1/token', async (request, reply) => {
      const parsed = tokenForm.safeParse(request.body);
      if (!parsed.success || parsed.data.client_secret !== channelSecret) {
        return reply.code(400).send({ error: 'invalid_request' });
      }
      try {
        const { idToken } = await exchange({
          code: parsed.data.code,
          redirectUri: parsed.data.redirect_uri,
          codeVerifier: parsed.data.code_verifier,
          clientId: parsed.data.client_id,
        });
        return {
          access_token: randomBytes(16).toString('hex'),
          token_type: 'Bearer',
          expires_in: 2592000,
          scope: 'profile openid',
          id_token: idToken,
        };
      } catch (error) {
        if (error instanceof LineCodeRejectedError)
          return reply.code(400).send({ error: 'invalid_grant', error_description: error.message });
        throw error;
      }
    });

    if (options.webhookSecret)
      registerSendForm(app, { db, webhookSecret: options.webhookSecret, now, findOrCreateUser });
  }

  return { client, register };
}

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
function registerSendForm(
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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}
button{display:block;margin:.5rem 0;padding:.6rem 1rem;background:#06c755;color:#fff;border:0;border-radius:6px;font-size:1rem}
input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}fieldset{border:1px solid #ccc;margin-bottom:1rem}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
