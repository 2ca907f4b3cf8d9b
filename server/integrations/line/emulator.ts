/**
 * The built-in LINE emulator (DESIGN.md §4), on only while no LINE channel is configured.
 * `GET /dev/line/authorize` takes LINE's own query parameters, lets a person pick or create a test LINE user
 * (or approves at once with `dev_user=<name>`), and redirects to `redirect_uri` with `code` and `state`.
 * The code is exchanged in process, or over HTTP at `/dev/line/oauth2/v2.1/token` exactly as at LINE.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { devLineUsers } from '../../db/schema';
import { LINE_ISSUER } from './id-token';
import { LineCodeRejectedError, type CodeExchange, type LineLoginClient } from './login-client';

export const EMULATOR_CHANNEL_ID = '1000000000';
const CODE_TTL_MS = 10 * 60 * 1000;

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

export function createLineEmulator(options: { db: Database; secretSeed: string; now?: () => Date }): LineEmulator {
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
    if (!pending || pending.expiresAt < Date.now()) throw new LineCodeRejectedError('invalid_grant: unknown or expired code');
    if (pending.clientId !== input.clientId) throw new LineCodeRejectedError('invalid_client');
    if (pending.redirectUri !== input.redirectUri) throw new LineCodeRejectedError('invalid_grant: redirect_uri mismatch');
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
        return reply.code(400).type('text/html; charset=utf-8').send(page('エラー', `<p>認可リクエストが不正です: ${escapeHtml(parsed.error.issues.map((i) => i.path.join('.')).join(', '))}</p>`));
      }
      if (parsed.data.dev_user) return reply.redirect(await approve(parsed.data, parsed.data.dev_user));
      const users = await db.select().from(devLineUsers).orderBy(devLineUsers.created_at);
      const hidden = Object.entries(parsed.data)
        .filter(([key, value]) => key !== 'dev_user' && value !== undefined)
        .map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(String(value))}">`)
        .join('');
      const userButtons = users
        .map((user) => `<button type="submit" name="dev_user" value="${escapeHtml(user.name)}">${escapeHtml(user.display_name)} としてログイン</button>`)
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
        return { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 2592000, scope: 'profile openid', id_token: idToken };
      } catch (error) {
        if (error instanceof LineCodeRejectedError) return reply.code(400).send({ error: 'invalid_grant', error_description: error.message });
        throw error;
      }
    });
  }

  return { client, register };
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
