import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { pkcePair } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { randomLineUserId, useLiveLineLogin } from '../helpers/fake-line';

/**
 * The customer LINE login callback is limited per address like the password login (server/plugins/login-limits.ts):
 * with LOGIN_RATE_LIMIT=3, the 4th refused code from one address in the window is a 429 that never reaches LINE's
 * token endpoint. Against a fake LINE server, which records every token request it gets.
 */
describe(`LINE login callback limits on ${testEngine}`, () => {
  const line = useLiveLineLogin({
    PUBLIC_URL: 'https://salon.example',
    LOGIN_RATE_LIMIT: '3',
    LOGIN_RATE_WINDOW_SECONDS: '600',
    TRUST_PROXY: 'true',
  });

  const redirectUri = () => `${line.app.url}/callback`;
  const callbackFrom = (address: string, body: Record<string, unknown>) =>
    line.app.api('/api/line/callback/', {
      method: 'POST',
      json: { nonce: 'n', redirect_uri: redirectUri(), ...body },
      headers: { 'x-forwarded-for': address },
    });
  const bogus = (attempt: number) => ({ code: `bogus-code-${attempt}`, code_verifier: pkcePair().verifier });

  it('refuses bogus codes from one address after the limit with a Japanese 429, without asking LINE', async () => {
    const before = line.fake.requests.length;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await callbackFrom('198.51.100.40', bogus(attempt));
      expect(result.status, `attempt ${attempt}`).toBe(401);
    }
    expect(line.fake.requests.length - before).toBe(3);
    for (let attempt = 4; attempt <= 40; attempt += 1) {
      const result = await callbackFrom('198.51.100.40', bogus(attempt));
      expect(result.status, `attempt ${attempt}`).toBe(429);
      expect(result.body).toEqual({ detail: SERVER_MESSAGES.tooManyLoginAttempts, code: 'throttled' });
      expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Only the first three codes went on to LINE's token endpoint.
    expect(line.fake.requests.length - before).toBe(3);

    // A customer behind another address still logs in.
    const { verifier } = pkcePair();
    const idToken = await line.fake.signIdToken({ sub: randomLineUserId(), nonce: 'n' });
    const code = line.fake.issueCode({ idToken, redirectUri: redirectUri(), codeVerifier: verifier });
    expect((await callbackFrom('198.51.100.41', { code, code_verifier: verifier })).status).toBe(200);
  });

  it('does not count successful logins, nor LINE failing', async () => {
    for (let login = 1; login <= 5; login += 1) {
      const { verifier } = pkcePair();
      const idToken = await line.fake.signIdToken({ sub: randomLineUserId(), nonce: 'n' });
      const code = line.fake.issueCode({ idToken, redirectUri: redirectUri(), codeVerifier: verifier });
      expect((await callbackFrom('198.51.100.50', { code, code_verifier: verifier })).status, `login ${login}`).toBe(
        200,
      );
    }
    for (let failure = 1; failure <= 4; failure += 1) {
      line.fake.failNext(500, { error: 'server_error' });
      expect((await callbackFrom('198.51.100.50', bogus(100 + failure))).status, `LINE down ${failure}`).toBe(502);
    }
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await callbackFrom('198.51.100.50', bogus(200 + attempt))).status, `refused ${attempt}`).toBe(401);
    }
    expect((await callbackFrom('198.51.100.50', bogus(300))).status).toBe(429);
  });
});
