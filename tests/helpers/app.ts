import type { NotificationsOptions } from '../../server/outbox/notifications';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { buildApp, type App, type BuildAppOptions } from '../../server/app';
import { ensureInitialData } from '../../server/db/seed';
import { loadEnv, type Env } from '../../server/env';
import { createAuthService, type AuthService } from '../../server/features/auth/auth.service';
import { createTokenSigner, type TokenSigner } from '../../server/features/auth/tokens';
import type { LineLoginClient } from '../../server/integrations/line/login-client';
import { tokenPairSchema, type TokenPair } from '../../src/shared/schemas/auth';
import { createTestDatabase } from './database';

export const TEST_ADMIN_USERNAME = 'admin';
export const TEST_ADMIN_PASSWORD = 'test-admin-password-0123';

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

export interface TestAppOptions {
  /** Extra environment variables (strings, as in a real environment); they override the test defaults. */
  env?: Record<string, string>;
  now?: () => Date;
  lineLogin?: LineLoginClient;
  jwtSecret?: string;
  /** Outbox worker knobs (short timeouts and backoff for tests against failing fakes). */
  notifications?: NotificationsOptions;
  /** The server's logger (default: none), e.g. `{ level: 'info', stream }` to read what it writes. */
  logger?: BuildAppOptions['logger'];
}

/** One HTTP answer, read once: `body` is the parsed JSON when the response is JSON, else `{}`. */
export interface ApiResult {
  status: number;
  headers: Headers;
  /** Parsed JSON body (an object for every body this suite reads field by field; compare arrays with toEqual). */
  body: Record<string, unknown>;
  text: string;
}

/**
 * An answer's body as the browser app reads it: checked against its schema from src/shared/schemas and typed by
 * it, so that a test reads fields without casts and fails when the server's answer leaves its contract.
 */
export function answerOf<T>(result: Pick<ApiResult, 'body'>, schema: { parse(data: unknown): T }): T {
  return schema.parse(result.body);
}

export interface ApiInit extends Omit<RequestInit, 'body'> {
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  /** A raw body (for malformed JSON and forms). */
  body?: string;
  /** Sent as multipart/form-data (fetch sets the content type with its boundary). */
  form?: FormData;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

export interface TestApp {
  url: string;
  app: App;
  database: TestDatabase;
  env: Env;
  jwtSecret: string;
  salonId: number;
  /** A token signer with the app's secret and TTLs (pass `now` to sign in the past). */
  signer(now?: () => Date): TokenSigner;
  /** The app's auth service logic on the same database: issues real token pairs with refresh rows. */
  auth: AuthService;
  api(pathname: string, init?: ApiInit): Promise<ApiResult>;
  /** POST /api/token/ as is. */
  login(username: string, password: string): Promise<ApiResult>;
  /** POST /api/token/ that must succeed. */
  tokensFor(username: string, password: string): Promise<TokenPair>;
  close(): Promise<void>;
}

/**
 * A real app on a fresh database, listening on 127.0.0.1 on a free port. No LINE channel in the env means
 * LINE dev mode (the built-in emulator). Call `close()` in afterAll: it stops the server and drops the database.
 */
/**
 * How customers log in, unless the test says: the LINE emulator whatever PUBLIC_URL a test picks, or, for a
 * NODE_ENV=production start (which never runs the emulator: server/env.ts), a made-up channel that no test of a
 * production start logs in with.
 */
function testLineLogin(env: Record<string, string> | undefined): Record<string, string> {
  if (env?.LINE_LOGIN_CHANNEL_ID || env?.LINE_EMULATOR !== undefined) return {};
  if (env?.NODE_ENV === 'production') {
    return { LINE_LOGIN_CHANNEL_ID: '1234567890', LINE_LOGIN_CHANNEL_SECRET: 'production-test-secret' };
  }
  return { LINE_EMULATOR: 'true' };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'salon-test-'));
  const database = await createTestDatabase();
  let app: App | undefined;
  try {
    const env = loadEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      ADMIN_USERNAME: TEST_ADMIN_USERNAME,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      // High enough that no test trips them by accident; the rate-limit tests set their own.
      LOGIN_RATE_LIMIT: '1000',
      BOOKING_RATE_LIMIT: '100000',
      BOOKING_EMAIL_ADDRESS_LIMIT: '100000',
      PHOTO_UPLOAD_RATE_LIMIT: '100000',
      ...testLineLogin(options.env),
      ...options.env,
    });
    const { salonId } = await ensureInitialData({
      db: database.db,
      dataDir: env.dataDir,
      timeZone: env.SALON_TZ,
      adminUsername: env.ADMIN_USERNAME,
      adminPassword: env.ADMIN_PASSWORD,
      demoData: false,
    });
    const jwtSecret = options.jwtSecret ?? randomBytes(36).toString('base64url'); // 48 characters
    app = await buildApp({
      env,
      database,
      jwtSecret,
      staticDir: null,
      now: options.now,
      lineLogin: options.lineLogin,
      notifications: options.notifications,
      logger: options.logger,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    const now = options.now ?? (() => new Date());
    const signer = (signAt: () => Date = now) =>
      createTokenSigner({
        secret: jwtSecret,
        accessTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
        refreshTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
        now: signAt,
      });
    const auth = createAuthService({ db: database.db, tokens: signer(), now });

    const api = (pathname: string, init: ApiInit = {}) => request(url, pathname, init);
    const login = (username: string, password: string) =>
      api('/api/token/', { method: 'POST', json: { username, password } });
    const started = app;
    return {
      url,
      app: started,
      database,
      env,
      jwtSecret,
      salonId,
      signer,
      auth,
      api,
      login,
      async tokensFor(username, password) {
        const result = await login(username, password);
        if (result.status !== 200) throw new Error(`login as ${username} failed: ${result.status} ${result.text}`);
        return answerOf(result, tokenPairSchema);
      },
      async close() {
        await started.close();
        await database.drop();
        await fs.rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.close();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export async function request(baseUrl: string, pathname: string, init: ApiInit = {}): Promise<ApiResult> {
  const { json, token, body, form, headers: extraHeaders, ...rest } = init;
  const headers = new Headers(extraHeaders);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  let payload: string | FormData | undefined = form ?? body;
  if (json !== undefined) {
    headers.set('content-type', 'application/json');
    payload = JSON.stringify(json);
  }
  const response = await fetch(new URL(pathname, baseUrl), { ...rest, headers, body: payload });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  return {
    status: response.status,
    headers: response.headers,
    body: isJson && text ? (JSON.parse(text) as Record<string, unknown>) : {},
    text,
  };
}

/** A PKCE pair as a browser makes it: a 43-character verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The `fam` (refresh family id) and `jti` claims of a refresh token, read without verifying it. */
export function refreshClaims(token: string): { familyId: string; jti: string } {
  const payload = decodeJwt(token);
  return { familyId: String(payload.fam), jti: String(payload.jti) };
}

/**
 * The LINE emulator's authorize step with `dev_user` (instant approval). Returns the redirect, which the
 * caller checks, and the code from it.
 */
export async function emulatorAuthorize(
  testApp: Pick<TestApp, 'url'>,
  input: { devUser: string; state?: string; nonce?: string; challenge?: string; redirectUri?: string },
): Promise<{ status: number; location: string | null; code: string | null }> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: '1000000000',
    redirect_uri: input.redirectUri ?? `${testApp.url}/callback`,
    state: input.state ?? 'xyz',
    scope: 'profile openid',
  });
  if (input.nonce !== undefined) query.set('nonce', input.nonce);
  if (input.challenge !== undefined) {
    query.set('code_challenge', input.challenge);
    query.set('code_challenge_method', 'S256');
  }
  query.set('dev_user', input.devUser);
  const response = await fetch(`${testApp.url}/dev/line/authorize?${query.toString()}`, { redirect: 'manual' });
  await response.arrayBuffer();
  const location = response.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  return { status: response.status, location, code };
}

/** The whole emulator login as a browser does it; must succeed. Returns customer tokens. */
export async function loginWithEmulator(testApp: Pick<TestApp, 'url' | 'api'>, devUser: string): Promise<TokenPair> {
  const { verifier, challenge } = pkcePair();
  const nonce = randomBytes(8).toString('hex');
  const { code } = await emulatorAuthorize(testApp, { devUser, nonce, challenge });
  if (!code) throw new Error('the emulator gave no code');
  const result = await testApp.api('/api/line/callback/', {
    method: 'POST',
    json: { code, code_verifier: verifier, nonce, redirect_uri: `${testApp.url}/callback` },
  });
  if (result.status !== 200) throw new Error(`emulator login failed: ${result.status} ${result.text}`);
  return answerOf(result, tokenPairSchema);
}
