import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from './app';

/** Every request the fake received, as it received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string;
  /** The form fields of an application/x-www-form-urlencoded body; {} for anything else. */
  form: Record<string, string>;
  rawBody: string;
  /** What the fake answered. */
  responseStatus: number;
}

/** One authorization code the fake will accept once, with what LINE bound it to when it was issued. */
export interface FakeCode {
  redirectUri: string;
  codeVerifier?: string;
  idToken: string;
}

export interface FakeLineServer {
  /** Base URL: use it as LINE_API_BASE and LINE_AUTH_BASE. */
  url: string;
  channelId: string;
  channelSecret: string;
  requests: RecordedRequest[];
  /** Registers a code (random unless given) that the token endpoint accepts exactly once. */
  issueCode(code: FakeCode & { code?: string }): string;
  /** The next token request gets this answer instead of the normal one (to simulate a LINE outage). */
  failNext(status: number, body: unknown): void;
  /** An ID token as LINE would sign it: HS256 with the channel secret unless `secret`/`alg` say otherwise. */
  signIdToken(claims: IdTokenClaims, options?: { secret?: string; alg?: 'HS256' | 'HS512' }): Promise<string>;
  close(): Promise<void>;
}

export interface IdTokenClaims {
  iss?: string;
  aud?: string;
  sub: string;
  name?: string;
  picture?: string;
  email?: string;
  nonce?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  /** Seconds since the epoch; default an hour from now. */
  exp?: number;
}

/** A LINE user id as LINE makes them: 'U' and 32 hex digits. */
export const randomLineUserId = () => `U${randomBytes(16).toString('hex')}`;

/**
 * A local stand-in for LINE Login's token endpoint (POST /oauth2/v2.1/token), strict like LINE: the
 * client id and secret, grant type, redirect URI and PKCE verifier must all match what the code was issued
 * for, and a code works once; anything else is 400 {error: 'invalid_grant'}.
 */
export async function startFakeLine(options: { channelId: string; channelSecret: string }): Promise<FakeLineServer> {
  const { channelId, channelSecret } = options;
  const requests: RecordedRequest[] = [];
  const codes = new Map<string, FakeCode>();
  let nextFailure: { status: number; body: unknown } | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const contentType = req.headers['content-type'] ?? '';
      const url = new URL(req.url ?? '/', 'http://fake-line');
      const form = contentType.startsWith('application/x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(rawBody))
        : {};
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        contentType,
        form,
        rawBody,
        responseStatus: 0,
      };
      requests.push(recorded);

      const send = (status: number, body: unknown) => {
        recorded.responseStatus = status;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || url.pathname !== '/oauth2/v2.1/token') return send(404, { error: 'not_found' });
      if (nextFailure) {
        const failure = nextFailure;
        nextFailure = null;
        return send(failure.status, failure.body);
      }
      const issued = form.code ? codes.get(form.code) : undefined;
      if (form.code) codes.delete(form.code);
      const ok =
        contentType.startsWith('application/x-www-form-urlencoded') &&
        form.grant_type === 'authorization_code' &&
        form.client_id === channelId &&
        form.client_secret === channelSecret &&
        issued !== undefined &&
        form.redirect_uri === issued.redirectUri &&
        form.code_verifier === issued.codeVerifier;
      if (!ok) return send(400, { error: 'invalid_grant', error_description: 'invalid authorization code' });
      return send(200, {
        access_token: randomBytes(16).toString('hex'),
        token_type: 'Bearer',
        refresh_token: randomBytes(16).toString('hex'),
        expires_in: 2592000,
        scope: 'profile openid',
        id_token: issued.idToken,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    channelId,
    channelSecret,
    requests,
    issueCode({ code = randomBytes(16).toString('base64url'), ...issued }) {
      codes.set(code, issued);
      return code;
    },
    failNext(status, body) {
      nextFailure = { status, body };
    },
    async signIdToken(claims, signOptions = {}) {
      const nowSeconds = Math.floor(Date.now() / 1000);
      const {
        iss = 'https://access.line.me',
        aud = channelId,
        sub,
        iat = nowSeconds,
        exp = nowSeconds + 3600,
        ...rest
      } = claims;
      const alg = signOptions.alg ?? 'HS256';
      return new SignJWT({ ...rest, amr: ['linesso'] })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setIssuer(iss)
        .setAudience(aud)
        .setSubject(sub)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(signOptions.secret ?? channelSecret));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The channel of the live-mode suites: the fake LINE server and the app are both given it. */
export const FAKE_LINE_CHANNEL = { channelId: '1234567890', channelSecret: 'fake-channel-secret-7f3a9c' } as const;

export interface LiveLineLogin {
  app: TestApp;
  fake: FakeLineServer;
}

/**
 * The app in live LINE mode (FAKE_LINE_CHANNEL) against a fake LINE server, both started before the suite's tests
 * and stopped after them; `env` adds to the app's environment. Call it in the describe; the fields are there once
 * beforeAll has run.
 */
export function useLiveLineLogin(env: Record<string, string> = {}): LiveLineLogin {
  const line = {} as LiveLineLogin;
  beforeAll(async () => {
    line.fake = await startFakeLine(FAKE_LINE_CHANNEL);
    line.app = await startTestApp({
      env: {
        LINE_LOGIN_CHANNEL_ID: FAKE_LINE_CHANNEL.channelId,
        LINE_LOGIN_CHANNEL_SECRET: FAKE_LINE_CHANNEL.channelSecret,
        LINE_API_BASE: line.fake.url,
        LINE_AUTH_BASE: line.fake.url,
        ...env,
      },
    });
  });
  afterAll(async () => {
    await line.app?.close();
    await line.fake?.close();
  });
  return line;
}
