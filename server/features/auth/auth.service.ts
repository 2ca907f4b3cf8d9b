import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { TOKEN_AUDIENCES, type TokenAudience } from '../../../src/shared/constants';
import { MESSAGES } from '../../../src/shared/messages';
import type { TokenPair } from '../../../src/shared/schemas/auth';
import type { Database } from '../../db/client';
import { ApiHttpError, tokenNotValid } from '../../http-errors';
import * as repo from './auth.repository';
import { decoyPasswordHash, verifyPassword } from './passwords';
import type { TokenSigner } from './tokens';

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: { db: Database; tokens: TokenSigner; now: () => Date }) {
  const { db, tokens, now } = deps;

  /** A new access token and a refresh token that starts (or continues) a family: one family per login. */
  async function issueTokenPair(audience: TokenAudience, subjectId: number, familyId: string = randomUUID()): Promise<TokenPair> {
    const access = await tokens.sign({ audience, subjectId, tokenType: 'access' });
    const refresh = await tokens.sign({ audience, subjectId, tokenType: 'refresh', familyId });
    await repo.insertRefreshToken(db, {
      jti: refresh.jti,
      family_id: familyId,
      audience,
      subject_id: subjectId,
      expires_at: refresh.expiresAt,
    });
    return { access: access.token, refresh: refresh.token };
  }

  return {
    issueTokenPair,

    /** Same answer, and about the same time, for an unknown login ID and a wrong password. */
    async loginWithPassword(username: string, password: string): Promise<TokenPair> {
      const staff = await repo.findStaffByUsername(db, username);
      const passwordOk = await verifyPassword(password, staff?.password_hash ?? (await decoyPasswordHash()));
      if (!staff || !staff.password_hash || !staff.is_active || !passwordOk) {
        throw new ApiHttpError(401, 'authentication_failed', MESSAGES.passwordLoginFailed);
      }
      return issueTokenPair(TOKEN_AUDIENCES.staff, staff.id);
    },

    /**
     * Rotation with reuse detection: each refresh token works once. Presenting one that was already used
     * revokes its whole family, so a stolen token dies together with the legitimate session.
     */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const audience = readAudience(refreshToken);
      const verified = await tokens.verify(refreshToken, { audience, tokenType: 'refresh' });
      const consumed = await repo.consumeRefreshToken(db, verified.jti, now());
      if (!consumed) {
        const row = await repo.findRefreshToken(db, verified.jti);
        if (row?.used_at && !row.revoked_at) await repo.revokeRefreshFamily(db, row.family_id, now());
        throw tokenNotValid();
      }
      if (audience === TOKEN_AUDIENCES.staff) {
        const staff = await repo.findStaffById(db, consumed.subject_id);
        if (!staff?.is_active) throw tokenNotValid();
      }
      return issueTokenPair(audience, consumed.subject_id, consumed.family_id);
    },
  };
}

/** The audience claim decides which verification applies; the signature is checked right after. */
function readAudience(token: string): TokenAudience {
  try {
    const { aud } = decodeJwt(token);
    if (aud === TOKEN_AUDIENCES.staff || aud === TOKEN_AUDIENCES.customer) return aud;
  } catch {
    // fall through: not a JWT
  }
  throw tokenNotValid();
}
