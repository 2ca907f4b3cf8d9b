import { createHmac, randomUUID, timingSafeEqual, webcrypto } from 'node:crypto';
import { SignJWT } from 'jose';
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
  // Imported once for signing: given the raw secret, jose imports it as a CryptoKey on every call.
  const importedKey = webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const now = options.now ?? (() => new Date());
  const secret = Buffer.from(options.secret, 'utf8');

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
      const payload = verifiedClaims(token, secret, expected.audience, now());
      const subjectId = Number(payload?.sub);
      if (!payload || payload.token_type !== expected.tokenType || !Number.isSafeInteger(subjectId)) {
        throw tokenNotValid();
      }
      return {
        audience: expected.audience,
        subjectId,
        tokenType: expected.tokenType,
        jti: payload.jti as string,
        familyId: typeof payload.fam === 'string' ? payload.fam : undefined,
        version: Number.isSafeInteger(payload.ver) ? (payload.ver as number) : 0,
        expiresAt: new Date((payload.exp as number) * 1000),
      };
    },
  };
}

/** Three base64url parts: a compact JWS and nothing else (no padding, no whitespace), and not absurdly long. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN_LENGTH = 4096;

/**
 * The claims of an HS256 token signed with `secret` whose issuer, audience and times hold at `at` (as jose's
 * jwtVerify checks them, with sub, jti, exp and iat required); null for anything else. Verified here with node:crypto's
 * HMAC, synchronously: jose verifies through WebCrypto, whose every call is a job handed to libuv's thread pool, and
 * that was about a tenth of a booking's server CPU (docs/BENCHMARKS.md; jose still signs, sign() above). The header
 * must say HS256 and carry nothing that changes how the token is read (`crit`, `b64`): the algorithm is pinned, so
 * `none`, HS512 and public-key tricks all fail, and the signature is compared in constant time.
 */
function verifiedClaims(
  token: string,
  secret: Buffer,
  audience: TokenAudience,
  at: Date,
): Record<string, unknown> | null {
  if (token.length > MAX_TOKEN_LENGTH || !COMPACT_JWS.test(token)) return null;
  const [header, body, signature] = token.split('.') as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${body}`).digest();
  // Compared as bytes in constant time, and the text must be the bytes' one encoding: base64url's last character
  // has bits that decode to nothing, and a token with them changed would otherwise pass as another text.
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (given.toString('base64url') !== signature) return null;
  const protectedHeader = jsonObject(header);
  if (!protectedHeader || protectedHeader.alg !== ALGORITHM || 'crit' in protectedHeader || 'b64' in protectedHeader) {
    return null;
  }
  const claims = jsonObject(body);
  if (!claims) return null;
  const now = Math.floor(at.getTime() / 1000);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  const valid =
    claims.iss === ISSUER &&
    audiences.includes(audience) &&
    typeof claims.sub === 'string' &&
    typeof claims.jti === 'string' &&
    typeof claims.iat === 'number' &&
    typeof claims.exp === 'number' &&
    claims.exp > now &&
    (claims.nbf === undefined || (typeof claims.nbf === 'number' && claims.nbf <= now));
  return valid ? claims : null;
}

/** A base64url part as a JSON object, or null. */
function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
