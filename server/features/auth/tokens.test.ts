import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCES } from '#src/shared/constants';
import { createTokenSigner } from './tokens';

const STAFF = TOKEN_AUDIENCES.staff;
const CUSTOMER = TOKEN_AUDIENCES.customer;

/** A signer on a clock the test moves; access tokens live 60 s. */
function signerAt(start: string) {
  let clock = new Date(start);
  const signer = createTokenSigner({
    secret: 'a-test-secret-of-enough-length-0123456789',
    accessTtlSeconds: 60,
    refreshTtlSeconds: 3600,
    now: () => clock,
  });
  return { signer, move: (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000)) };
}

const refused = { statusCode: 401, code: 'token_not_valid' };

describe('token verification (HS256 with node:crypto, claims as jose checks them)', () => {
  it('accepts a token until its exp and refuses it from then on', async () => {
    const { signer, move } = signerAt('2030-01-10T00:00:00Z');
    const { token, expiresAt } = await signer.sign({ audience: STAFF, subjectId: 7, tokenType: 'access' });
    const access = { audience: STAFF, tokenType: 'access' } as const;
    const first = await signer.verify(token, access);
    expect(first).toMatchObject({ subjectId: 7, audience: STAFF, tokenType: 'access', expiresAt });
    move(59);
    expect(await signer.verify(token, access)).toEqual(first);
    move(1);
    await expect(signer.verify(token, access)).rejects.toMatchObject(refused);
  });

  it('refuses the token for another audience or type, and with a changed signature', async () => {
    const { signer } = signerAt('2030-01-10T00:00:00Z');
    const { token } = await signer.sign({ audience: STAFF, subjectId: 7, tokenType: 'access' });
    await signer.verify(token, { audience: STAFF, tokenType: 'access' });
    await expect(signer.verify(token, { audience: CUSTOMER, tokenType: 'access' })).rejects.toMatchObject(refused);
    await expect(signer.verify(token, { audience: STAFF, tokenType: 'refresh' })).rejects.toMatchObject(refused);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    await expect(
      signer.verify(token.slice(0, -1) + last, { audience: STAFF, tokenType: 'access' }),
    ).rejects.toMatchObject(refused);
  });
});

describe('token verification refuses what jose would refuse', () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const secret = 'a-test-secret-of-enough-length-0123456789';
  const access = { audience: STAFF, tokenType: 'access' } as const;
  const signed = (header: object, claims: object) => {
    const unsigned = `${b64(header)}.${b64(claims)}`;
    return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
  };
  const claims = {
    iss: 'salon-reservations',
    aud: STAFF,
    sub: '7',
    jti: 'j',
    iat: 1_893_456_000,
    exp: 1_893_456_060,
    token_type: 'access',
  };

  it.each([
    ['alg none', { alg: 'none', typ: 'JWT' }, claims],
    ['HS512 in the header over an HS256 signature', { alg: 'HS512', typ: 'JWT' }, claims],
    ['a crit header', { alg: 'HS256', typ: 'JWT', crit: ['exp'] }, claims],
    ['an unencoded payload (b64: false)', { alg: 'HS256', typ: 'JWT', b64: false }, claims],
    ['another issuer', { alg: 'HS256', typ: 'JWT' }, { ...claims, iss: 'someone-else' }],
    ['no iat', { alg: 'HS256', typ: 'JWT' }, { ...claims, iat: undefined }],
    ['no jti', { alg: 'HS256', typ: 'JWT' }, { ...claims, jti: undefined }],
    ['a subject that is not a string', { alg: 'HS256', typ: 'JWT' }, { ...claims, sub: 7 }],
    ['not valid before a later time', { alg: 'HS256', typ: 'JWT' }, { ...claims, nbf: 1_893_456_030 }],
  ])('refuses %s', async (_name, header, body) => {
    const { signer } = signerAt('2030-01-01T00:00:10Z');
    await expect(signer.verify(signed(header, body), access)).rejects.toMatchObject(refused);
  });

  it('accepts the same claims signed as it signs them, and refuses padding, spaces and a fourth part', async () => {
    const { signer } = signerAt('2030-01-01T00:00:10Z');
    const token = signed({ alg: 'HS256', typ: 'JWT' }, claims);
    expect(await signer.verify(token, access)).toMatchObject({ subjectId: 7, jti: 'j' });
    for (const bad of [`${token}=`, ` ${token}`, `${token}.x`, token.replace('.', '..')]) {
      await expect(signer.verify(bad, access)).rejects.toMatchObject(refused);
    }
  });
});
