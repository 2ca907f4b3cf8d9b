import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { EnvError, fastifyTrustProxy, isLoopbackUrl, loadEnv } from './env';

function problemsOf(source: NodeJS.ProcessEnv): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadEnv', () => {
  it('works with nothing set: embedded database, emulator, port 8080', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.lineDevMode).toBe(true);
    expect(env.SALON_TZ).toBe('Asia/Tokyo');
    expect(env.DEMO_DATA).toBe(true);
  });

  it('refuses the cheap password hashes of the test suite outside NODE_ENV=test', () => {
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(problemsOf({ NODE_ENV, TEST_CHEAP_PASSWORD_HASH: 'true', LINE_EMULATOR: 'true' })).toEqual([
        'TEST_CHEAP_PASSWORD_HASH: only the test suite may set it (NODE_ENV=test); unset it',
      ]);
    }
    expect(problemsOf({ NODE_ENV: 'test', TEST_CHEAP_PASSWORD_HASH: 'true' })).toEqual([]);
  });

  it('takes the VAPID keys of Web Push only as a pair, and a subject that push services accept', () => {
    expect(problemsOf({ VAPID_PUBLIC_KEY: 'public' })).toEqual([
      'VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
    ]);
    expect(problemsOf({ VAPID_SUBJECT: 'owner@example.jp' })).toEqual([
      'VAPID_SUBJECT: must start with mailto: or https:',
    ]);
    expect(
      problemsOf({ VAPID_PUBLIC_KEY: 'p', VAPID_PRIVATE_KEY: 'k', VAPID_SUBJECT: 'mailto:owner@example.jp' }),
    ).toEqual([]);
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadEnv({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SALON_TZ: 'Mars/Olympus',
        JWT_SECRET: 'short',
        LINE_LOGIN_CHANNEL_ID: '123',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const names = (error as EnvError).problems.map((problem) => problem.split(':')[0]);
    expect(names).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'SALON_TZ', 'JWT_SECRET', 'LINE_LOGIN_CHANNEL_SECRET']),
    );
  });

  it('turns the emulator off once a LINE channel is configured', () => {
    const env = loadEnv({ LINE_LOGIN_CHANNEL_ID: '123', LINE_LOGIN_CHANNEL_SECRET: 'abc', DEMO_DATA: 'false' });
    expect(env.lineDevMode).toBe(false);
    expect(env.DEMO_DATA).toBe(false);
  });
});

describe('when the LINE emulator may run', () => {
  const LINE = { LINE_LOGIN_CHANNEL_ID: '123', LINE_LOGIN_CHANNEL_SECRET: 'abc' };
  const WHAT_TO_SET = /set LINE_LOGIN_CHANNEL_ID and LINE_LOGIN_CHANNEL_SECRET, or LINE_EMULATOR=true/;

  it('runs it by itself on a loopback address outside production', () => {
    for (const source of [
      {},
      { PUBLIC_URL: 'http://localhost:5173' },
      { PUBLIC_URL: 'http://[::1]:8080' },
      { HOST: '127.0.0.2' },
      { HOST: '::1', PUBLIC_URL: 'http://[::1]:8080' },
      { HOST: 'localhost', PUBLIC_URL: 'http://localhost:8080' },
    ]) {
      expect(loadEnv(source).lineDevMode, JSON.stringify(source)).toBe(true);
    }
  });

  it('refuses NODE_ENV=production without a LINE channel, even on loopback and even with LINE_EMULATOR=true', () => {
    for (const source of [
      { NODE_ENV: 'production' },
      { NODE_ENV: 'production', PUBLIC_URL: 'https://salon.example.jp' },
      { NODE_ENV: 'production', PUBLIC_URL: 'https://staging.example.jp', LINE_EMULATOR: 'true' },
      { NODE_ENV: 'production', LINE_EMULATOR: 'true' },
    ]) {
      const problems = problemsOf(source);
      expect(problems, JSON.stringify(source)).toHaveLength(1);
      expect(problems[0]).toMatch(/NODE_ENV=production/);
      expect(problems[0]).toMatch(/set LINE_LOGIN_CHANNEL_ID and LINE_LOGIN_CHANNEL_SECRET/);
      expect(problems[0]).not.toMatch(/or LINE_EMULATOR=true/);
    }
  });

  it('refuses a public address without a LINE channel or the flag, and an explicit LINE_EMULATOR=false', () => {
    for (const source of [
      { PUBLIC_URL: 'https://salon.example.jp' },
      { HOST: '0.0.0.0' },
      { PUBLIC_URL: 'http://192.168.1.20:8080' },
      { PUBLIC_URL: 'http://localhost.evil.example' },
      { LINE_EMULATOR: 'false' },
    ]) {
      const problems = problemsOf(source);
      expect(problems, JSON.stringify(source)).toHaveLength(1);
      expect(problems[0]).toMatch(WHAT_TO_SET);
    }
  });

  it('refuses a loopback PUBLIC_URL on a HOST other machines reach', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'salon.local']) {
      const problems = problemsOf({ HOST, PUBLIC_URL: 'http://localhost:8080' });
      expect(problems, HOST).toEqual([expect.stringContaining(`HOST=${HOST} is not a loopback address`)]);
      expect(problems[0]).toMatch(WHAT_TO_SET);
    }
    expect(loadEnv({ HOST: '0.0.0.0', PUBLIC_URL: 'http://localhost:8080', LINE_EMULATOR: 'true' }).lineDevMode).toBe(
      true,
    );
  });

  it('runs it on any address with LINE_EMULATOR=true outside production, and never beside a LINE channel', () => {
    expect(loadEnv({ PUBLIC_URL: 'https://staging.example.jp', LINE_EMULATOR: 'true' }).lineDevMode).toBe(true);
    expect(loadEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://salon.example.jp', ...LINE }).lineDevMode).toBe(
      false,
    );
    expect(loadEnv({ ...LINE }).lineDevMode).toBe(false);
    expect(problemsOf({ ...LINE, LINE_EMULATOR: 'true' })).toEqual([expect.stringMatching(/^LINE_EMULATOR: /)]);
  });

  it('knows loopback addresses', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://127.1', 'http://localhost', 'https://[::1]:3000/']) {
      expect(isLoopbackUrl(url), url).toBe(true);
    }
    for (const url of [
      'http://0.0.0.0:8080',
      'https://salon.example.jp',
      'http://128.0.0.1',
      'http://localhost.example',
      'http://[::2]',
      'not a url',
    ]) {
      expect(isLoopbackUrl(url), url).toBe(false);
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is false by default and takes true, false or a hop count', () => {
    expect(loadEnv({}).trustProxy).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadEnv({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    for (const bad of ['yes', '0', '-1', '1.5', '10.0.0.1']) {
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
    }
  });

  it('makes Fastify take the client address that many hops back', async () => {
    const ipWith = async (trustProxy: boolean | number) => {
      const app = Fastify({ trustProxy: fastifyTrustProxy(trustProxy) });
      app.get('/', (request) => request.ip);
      const response = await app.inject({ url: '/', headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' } });
      await app.close();
      return response.body;
    };
    expect(await ipWith(false)).toBe('127.0.0.1');
    expect(await ipWith(1)).toBe('198.51.100.7');
    // true is one proxy, never "every hop": the client's own X-Forwarded-For entries are not believed.
    expect(await ipWith(true)).toBe('198.51.100.7');
    expect(await ipWith(2)).toBe('203.0.113.9');
  });
});
