import { describe, expect, it } from 'vitest';
import { hashParams, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$65536\$8\$1\$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct hors', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('never matches a malformed stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$0$8$1$AA$AA')).toBe(false);
  });

  it('hashes at N = 2^16 unless the test suite asks for cheap hashes, and never cheaply outside NODE_ENV=test', () => {
    expect(hashParams({})).toEqual({ N: 2 ** 16, r: 8, p: 1 });
    expect(hashParams({ NODE_ENV: 'test', TEST_CHEAP_PASSWORD_HASH: 'true' })).toEqual({ N: 2 ** 10, r: 8, p: 1 });
    for (const env of [
      { NODE_ENV: 'production', TEST_CHEAP_PASSWORD_HASH: 'true' },
      { TEST_CHEAP_PASSWORD_HASH: 'true' },
      { NODE_ENV: 'test', TEST_CHEAP_PASSWORD_HASH: 'yes' },
    ]) {
      expect(() => hashParams(env), JSON.stringify(env)).toThrow(/TEST_CHEAP_PASSWORD_HASH: only the test suite/);
    }
  });
});
