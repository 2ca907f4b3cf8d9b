import { randomUUID, webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { TokenAudience } from '#src/shared/constants';
import { tokenNotValid } from '../../http-errors';

const ISSUER = 'salon-reservations';
/** The only algorithm ever accepted: `alg: none`, RS256-with-HMAC-key tricks and the like all fail. */
const ALGORITHM = 'HS256';

type TokenType = 'access' | 'refresh';

export interface VerifiedToken {
  audience: TokenAudience;
  subjectId: number;
  tokenType: TokenType;
  jti: string;
  familyId?: string;
  /** The staff member's token_version when the token was issued (0 for customers and for older tokens). */
  version: number;
  expiresAt: Date;
}

export interface TokenSigner {
  /**
   * Signing is deterministic: the same input (jti and issuedAt included) gives the same token, which is how a
   * refresh repeated within the grace window gets its successor again without the token ever being stored.
   */
  sign(input: {
    audience: TokenAudience;
    subjectId: number;
    tokenType: TokenType;
    familyId?: string;
    jti?: string;
    version?: number;
    /** Defaults to now. */
    issuedAt?: Date;
  }): Promise<{
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
  // Imported once: given the raw secret, jose imports it as a CryptoKey on every call, which was half of a verify's CPU
  // (~35 of ~60 µs; every authenticated request verifies one token).
  const importedKey = webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const now = options.now ?? (() => new Date());
  const verified = verifiedTokens();

  return {
    async sign({ audience, subjectId, tokenType, familyId, jti = randomUUID(), version = 0, issuedAt: at }) {
      const issuedAt = Math.floor((at ?? now()).getTime() / 1000);
      const ttl = tokenType === 'access' ? options.accessTtlSeconds : options.refreshTtlSeconds;
      const expiresAt = new Date((issuedAt + ttl) * 1000);
      const claims: Record<string, string | number> = { token_type: tokenType };
      if (familyId) claims.fam = familyId;
      if (version !== 0) claims.ver = version;
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setSubject(String(subjectId))
        .setJti(jti)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttl)
        .sign(await importedKey);
      return { token, jti, expiresAt };
    },

    async verify(token, expected) {
      const key = `${expected.audience} ${expected.tokenType} ${token}`;
      const known = verified.get(key, now());
      if (known) return known;
      try {
        const { payload } = await jwtVerify(token, await importedKey, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: expected.audience,
          currentDate: now(),
          requiredClaims: ['sub', 'jti', 'exp', 'iat'],
        });
        const subjectId = Number(payload.sub);
        if (payload.token_type !== expected.tokenType || !Number.isSafeInteger(subjectId)) throw tokenNotValid();
        return verified.add(key, {
          audience: expected.audience,
          subjectId,
          tokenType: expected.tokenType,
          jti: payload.jti!,
          familyId: typeof payload.fam === 'string' ? payload.fam : undefined,
          version: Number.isSafeInteger(payload.ver) ? (payload.ver as number) : 0,
          expiresAt: new Date(payload.exp! * 1000),
        });
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw tokenNotValid();
        throw error;
      }
    },
  };
}

/** Tokens remembered as verified, at most this many (the oldest is forgotten first). */
const MAX_VERIFIED_TOKENS = 10_000;

/**
 * Tokens already verified, by audience, type and the token's exact text: a phone or tablet sends the same access
 * token with every request until it expires, and checking its signature again (an HMAC through WebCrypto, a job on
 * libuv's thread pool) was about a tenth of a booking's server CPU on PostgreSQL (docs/BENCHMARKS.md). Only a token
 * that passed every check is remembered, and only until its `exp`, which is checked again on every use, as jose
 * checks it: any other text (a forgery differs in at least its signature) is verified in full. What a signature
 * cannot tell (a staff member's token version, a refresh token's family) is checked by the callers on every request,
 * as before.
 */
function verifiedTokens() {
  const tokens = new Map<string, VerifiedToken>();
  return {
    get(key: string, at: Date): VerifiedToken | undefined {
      const token = tokens.get(key);
      if (!token) return undefined;
      if (token.expiresAt.getTime() > at.getTime()) return token;
      tokens.delete(key);
      return undefined;
    },
    add(key: string, token: VerifiedToken): VerifiedToken {
      if (tokens.size >= MAX_VERIFIED_TOKENS) tokens.delete(tokens.keys().next().value!);
      // Shared by every request that shows this token: nobody may change it.
      tokens.set(key, Object.freeze(token));
      return token;
    },
  };
}
