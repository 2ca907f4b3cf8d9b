import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { TokenAudience } from '../../../src/shared/constants';
import { tokenNotValid } from '../../http-errors';

const ISSUER = 'salon-reservations';
/** The only algorithm ever accepted: `alg: none`, RS256-with-HMAC-key tricks and the like all fail. */
const ALGORITHM = 'HS256';

export type TokenType = 'access' | 'refresh';

export interface VerifiedToken {
  audience: TokenAudience;
  subjectId: number;
  tokenType: TokenType;
  jti: string;
  familyId?: string;
  expiresAt: Date;
}

export interface TokenSigner {
  sign(input: { audience: TokenAudience; subjectId: number; tokenType: TokenType; familyId?: string; jti?: string }): Promise<{
    token: string;
    jti: string;
    expiresAt: Date;
  }>;
  /** Throws the 401 `token_not_valid` error for anything but a valid token of this audience and type. */
  verify(token: string, expected: { audience: TokenAudience; tokenType: TokenType }): Promise<VerifiedToken>;
}

export function createTokenSigner(options: {
  secret: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  now?: () => Date;
}): TokenSigner {
  const key = new TextEncoder().encode(options.secret);
  const now = options.now ?? (() => new Date());

  return {
    async sign({ audience, subjectId, tokenType, familyId, jti = randomUUID() }) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const ttl = tokenType === 'access' ? options.accessTtlSeconds : options.refreshTtlSeconds;
      const expiresAt = new Date((issuedAt + ttl) * 1000);
      const claims: Record<string, string> = { token_type: tokenType };
      if (familyId) claims.fam = familyId;
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setSubject(String(subjectId))
        .setJti(jti)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttl)
        .sign(key);
      return { token, jti, expiresAt };
    },

    async verify(token, expected) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: expected.audience,
          currentDate: now(),
          requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        });
        const subjectId = Number(payload.sub);
        if (payload.token_type !== expected.tokenType || !Number.isSafeInteger(subjectId)) throw tokenNotValid();
        return {
          audience: expected.audience,
          subjectId,
          tokenType: expected.tokenType,
          jti: payload.jti!,
          familyId: typeof payload.fam === 'string' ? payload.fam : undefined,
          expiresAt: new Date(payload.exp! * 1000),
        };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw tokenNotValid();
        throw error;
      }
    },
  };
}
