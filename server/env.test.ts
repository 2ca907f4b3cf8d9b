import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  it('works with nothing set: embedded database, emulator, port 8080', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.lineDevMode).toBe(true);
    expect(env.SALON_TZ).toBe('Asia/Tokyo');
    expect(env.DEMO_DATA).toBe(true);
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SALON_TZ: 'Mars/Olympus', JWT_SECRET: 'short', LINE_LOGIN_CHANNEL_ID: '123' });
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
