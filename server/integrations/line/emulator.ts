/**
 * The built-in LINE emulator (docs/architecture.md#operating-contract), on only while no LINE channel is configured.
 * `GET /dev/line/authorize` takes LINE's own query parameters, lets a person pick or create a test LINE user
 * (or approves at once with `dev_user=<name>`), and redirects to `redirect_uri` with `code` and `state`.
 * The code is exchanged in process, or over HTTP at `/dev/line/oauth2/v2.1/token` exactly as at LINE.
 * `/dev/line/send` lets a test user send the salon a message through the real, signed webhook.
 * Only the app's own callbacks are accepted as `redirect_uri`: anything else is a 400 page, never a redirect,
 * so the emulator cannot hand a code (or a visitor) to another site.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { devLineUsers } from '../../db/schema';
import { escapeHtml, page } from './emulator-page';
import { registerSendForm } from './emulator-send-form';
import { LINE_ISSUER } from './id-token';
import { LineCodeRejectedError, type CodeExchange, type LineLoginClient } from './login-client';

export { escapeHtml } from './emulator-page';

const EMULATOR_CHANNEL_ID = '1000000000';
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
type AuthorizeQuery = z.infer<typeof authorizeQuery>;

interface LineEmulator {
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

  async function approve(query: AuthorizeQuery, name: string): Promise<string> {
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
    registerAuthorizePage(app, { db, publicUrl: options.publicUrl, approve });
    registerTokenEndpoint(app, { channelSecret, exchange });

    if (options.webhookSecret)
      registerSendForm(app, { db, webhookSecret: options.webhookSecret, now, findOrCreateUser });
  }

  return { client, register };
}

/**
 * One of the app's callbacks, on PUBLIC_URL's origin or on the origin this request came in on (the same
 * server: Vite's dev server on :5173 proxying it, localhost for 127.0.0.1, a test on its own port). A link
 * someone else made cannot change the Host its visitor's browser sends, so neither can lead off the app.
 */
function isAppCallback(uri: string, requestOrigin: string, ownOrigin: string): boolean {
  const url = new URL(uri);
  if (!APP_CALLBACK_PATHS.includes(url.pathname) || url.search || url.hash || url.username || url.password)
    return false;
  return url.origin === ownOrigin || url.origin === requestOrigin;
}

/** GET /dev/line/authorize: LINE's consent page, as a list of test users (or at once with `dev_user`). */
function registerAuthorizePage(
  app: FastifyInstance,
  deps: { db: Database; publicUrl: string; approve(query: AuthorizeQuery, name: string): Promise<string> },
) {
  const ownOrigin = new URL(deps.publicUrl).origin;
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
    if (!isAppCallback(parsed.data.redirect_uri, `${request.protocol}://${request.host}`, ownOrigin)) {
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(page('エラー', '<p>redirect_uri がこのアプリのコールバックではありません。</p>'));
    }
    if (parsed.data.dev_user) return reply.redirect(await deps.approve(parsed.data, parsed.data.dev_user));
    const users = await deps.db.select().from(devLineUsers).orderBy(devLineUsers.created_at);
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
}

const tokenForm = z.object({
  grant_type: z.literal('authorization_code'),
  code: z.string().min(1),
  redirect_uri: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  code_verifier: z.string().optional(),
});

/** POST /dev/line/oauth2/v2.1/token: the code exchange over HTTP, as LINE's own endpoint answers it. */
function registerTokenEndpoint(
  app: FastifyInstance,
  deps: {
    channelSecret: string;
    exchange(input: CodeExchange & { clientId: string }): Promise<{ idToken: string }>;
  },
) {
  app.post('/dev/line/oauth2/v2.1/token', async (request, reply) => {
    const parsed = tokenForm.safeParse(request.body);
    if (!parsed.success || parsed.data.client_secret !== deps.channelSecret) {
      return reply.code(400).send({ error: 'invalid_request' });
    }
    try {
      const { idToken } = await deps.exchange({
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
}
