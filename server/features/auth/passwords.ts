import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt as docs/architecture.md#sessions-and-tokens describes it: N = 2^16, r = 8, p = 1 (64 MiB of memory per hash). */
const PARAMS = { N: 2 ** 16, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/**
 * For the test suite only (vitest.config.ts sets it to `true` for the integration projects): a hash at N = 2^16
 * costs about 250 ms of CPU, paid for every test app's superuser and every login, a large part of `npm test`.
 * What the tests check (salting, verification, equal work for unknown users) does not depend on N. It is honoured
 * only under NODE_ENV=test (vitest's default) and throws otherwise; server/env.ts refuses to start with it set, so
 * a production server never hashes with weaker parameters.
 */
export const TEST_CHEAP_PASSWORD_HASH = 'TEST_CHEAP_PASSWORD_HASH';
const TEST_PARAMS = { N: 2 ** 10, r: 8, p: 1 } as const;
export const cheapHashProblem = `${TEST_CHEAP_PASSWORD_HASH}: only the test suite may set it (NODE_ENV=test); unset it`;

/** The parameters of new hashes: the production ones unless the test suite asked for cheap ones. */
export function hashParams(env: NodeJS.ProcessEnv = process.env): { N: number; r: number; p: number } {
  if (!env[TEST_CHEAP_PASSWORD_HASH]) return PARAMS;
  if (env.NODE_ENV !== 'test' || env[TEST_CHEAP_PASSWORD_HASH] !== 'true') throw new Error(cheapHashProblem);
  return TEST_PARAMS;
}

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const maxmem = (N: number, r: number) => 256 * N * r; // twice what scrypt needs, so Node never refuses

/** Returns `scrypt$N$r$p$salt$hash` (base64url parts). The parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = hashParams();
  const key = await scrypt(password, salt, KEY_LENGTH, { ...params, maxmem: maxmem(params.N, params.r) });
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((value) => Number.isInteger(value) && value > 0)) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const key = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
    ...params,
    maxmem: maxmem(params.N, params.r),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a random password, verified against when the login ID does not exist, so that an unknown
 * user takes as long as a wrong password and the two cannot be told apart.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

/** A readable random password for first-start and demo accounts. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}
