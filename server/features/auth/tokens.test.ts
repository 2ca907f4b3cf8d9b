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

describe('token verification, remembered until the token expires', () => {
  it('answers a token verified before again, and refuses it from its exp on', async () => {
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

  it('refuses the same token for another audience or type, and any other text, after it was verified', async () => {
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

  it('gives every request the same answer, which nobody can change', async () => {
    const { signer } = signerAt('2030-01-10T00:00:00Z');
    const { token } = await signer.sign({ audience: CUSTOMER, subjectId: 3, tokenType: 'access' });
    const answer = await signer.verify(token, { audience: CUSTOMER, tokenType: 'access' });
    expect(() => Object.assign(answer, { subjectId: 4 })).toThrow(TypeError);
    expect((await signer.verify(token, { audience: CUSTOMER, tokenType: 'access' })).subjectId).toBe(3);
  });
});
