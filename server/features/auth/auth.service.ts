import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { TOKEN_AUDIENCES, type TokenAudience } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { TokenPair } from '#src/shared/schemas/auth';
import type { Database, Executor } from '../../db/client';
import { ApiHttpError, tokenNotValid } from '../../http-errors';
import * as repo from './auth.repository';
import { decoyPasswordHash, verifyPassword } from './passwords';
import type { TokenSigner } from './tokens';

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * How long a used refresh token still gets its successor again instead of counting as stolen. Two admin tabs (or
 * a tab and the service worker) whose access tokens run out together refresh with the same stored refresh token
 * within a second or two of each other; without this window the second one looked like theft and ended the
 * session in every tab. Twenty seconds covers a slow phone network. The cost: a copy of the token replayed within
 * those seconds gets the owner's session instead of revoking it, as any stolen token does before its owner's next
 * refresh; a use after the window still revokes the family.
 */
export const REFRESH_REUSE_GRACE_MS = 20_000;

interface IssueOptions {
  /** Continue this family (a refresh); a new one otherwise (a login). */
  familyId?: string;
  /** The staff member's token_version the caller checked; read from the database when left out. */
  version?: number;
  jti?: string;
  issuedAt?: Date;
  /** Insert the refresh row within this transaction. */
  executor?: Executor;
}

export function createAuthService(deps: { db: Database; tokens: TokenSigner; now: () => Date }) {
  const { db, tokens, now } = deps;

  async function currentVersion(audience: TokenAudience, subjectId: number): Promise<number> {
    if (audience !== TOKEN_AUDIENCES.staff) return 0;
    return (await repo.findStaffById(db, subjectId))?.token_version ?? 0;
  }

  /** A new access token and a refresh token that starts (or continues) a family: one family per login. */
  async function issueTokenPair(
    audience: TokenAudience,
    subjectId: number,
    options: IssueOptions = {},
  ): Promise<TokenPair> {
    const familyId = options.familyId ?? randomUUID();
    const version = options.version ?? (await currentVersion(audience, subjectId));
    const access = await tokens.sign({ audience, subjectId, tokenType: 'access', version });
    const refresh = await tokens.sign({
      audience,
      subjectId,
      tokenType: 'refresh',
      familyId,
      version,
      jti: options.jti,
      issuedAt: options.issuedAt,
    });
    await repo.insertRefreshToken(options.executor ?? db, {
      jti: refresh.jti,
      family_id: familyId,
      audience,
      subject_id: subjectId,
      expires_at: refresh.expiresAt,
    });
    return { access: access.token, refresh: refresh.token };
  }

  /** A staff token is good only while its account is active and its version is the account's current one. */
  async function isStaffSessionCurrent(staffId: number, version: number): Promise<boolean> {
    const staff = await repo.findStaffById(db, staffId);
    return Boolean(staff?.is_active && staff.token_version === version);
  }

  return {
    issueTokenPair,
    isStaffSessionCurrent,

    /** Same answer, and about the same time, for an unknown login ID and a wrong password. */
    async loginWithPassword(username: string, password: string): Promise<TokenPair> {
      const staff = await repo.findStaffByUsername(db, username);
      const passwordOk = await verifyPassword(password, staff?.password_hash ?? (await decoyPasswordHash()));
      if (!staff || !staff.password_hash || !staff.is_active || !passwordOk) {
        throw new ApiHttpError(401, 'authentication_failed', MESSAGES.passwordLoginFailed);
      }
      // The version of the row whose password was just checked: a password change that commits meanwhile
      // raises it, and these tokens are born dead instead of outliving the old password.
      return issueTokenPair(TOKEN_AUDIENCES.staff, staff.id, { version: staff.token_version });
    },

    /**
     * Rotation with reuse detection: each refresh token works once. Presenting one that was already used revokes
     * its whole family, so a stolen token dies together with the legitimate session, except within
     * REFRESH_REUSE_GRACE_MS of its first use, when the repeat gets the very same successor again.
     *
     * How the same successor comes back although no token is stored: the winner names its successor's jti in the
     * used row (replaced_by) and signs it with the use time as its issue time. Signing (HS256) is deterministic, so a
     * repeat signs the same claims again and gets the same bytes. The database never holds a usable token.
     *
     * Parallel refreshes: the winner marks the row used and inserts the successor in one transaction, with a
     * compare-and-swap on used_at; the others' update waits for that row and then finds it used, and they read the
     * committed successor. No instance-local state, so this holds across instances too.
     */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const audience = readAudience(refreshToken);
      const verified = await tokens.verify(refreshToken, { audience, tokenType: 'refresh' });
      if (audience === TOKEN_AUDIENCES.staff && !(await isStaffSessionCurrent(verified.subjectId, verified.version))) {
        throw tokenNotValid();
      }
      const at = now();
      const successorJti = randomUUID();
      const rotated = await db.transaction(async (tx) => {
        const consumed = await repo.consumeRefreshToken(tx, verified.jti, at, successorJti);
        if (!consumed) return undefined;
        return issueTokenPair(audience, consumed.subject_id, {
          familyId: consumed.family_id,
          version: verified.version,
          jti: successorJti,
          issuedAt: at,
          executor: tx,
        });
      });
      if (rotated) return rotated;

      const row = await repo.findRefreshToken(db, verified.jti);
      if (!row || row.revoked_at || !row.used_at) throw tokenNotValid();
      if (row.replaced_by && at.getTime() - row.used_at.getTime() <= REFRESH_REUSE_GRACE_MS) {
        const access = await tokens.sign({
          audience,
          subjectId: row.subject_id,
          tokenType: 'access',
          version: verified.version,
        });
        const successor = await tokens.sign({
          audience,
          subjectId: row.subject_id,
          tokenType: 'refresh',
          familyId: row.family_id,
          version: verified.version,
          jti: row.replaced_by,
          issuedAt: row.used_at,
        });
        return { access: access.token, refresh: successor.token };
      }
      await repo.revokeRefreshFamily(db, row.family_id, at);
      throw tokenNotValid();
    },

    /** Revokes every refresh token of a staff member (a password change or a deactivation, in its transaction). */
    async revokeStaffSessions(staffId: number, executor: Executor = db): Promise<void> {
      await repo.revokeSubjectRefreshTokens(executor, TOKEN_AUDIENCES.staff, staffId, now());
    },

    /**
     * POST /api/admin/logout/: the refresh token is the credential (it is what the client holds, and it may outlive
     * the access token by days); its family, this one login, is revoked. A token already used (another tab refreshed
     * a moment ago) still names the same family; a family already revoked stays so, and the answer is the same.
     */
    async logout(refreshToken: string): Promise<void> {
      const verified = await tokens.verify(refreshToken, { audience: TOKEN_AUDIENCES.staff, tokenType: 'refresh' });
      const row = await repo.findRefreshToken(db, verified.jti);
      if (row) await repo.revokeRefreshFamily(db, row.family_id, now());
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
