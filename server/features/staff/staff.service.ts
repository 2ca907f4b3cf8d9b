import {
  consumeLinkToken,
  findUsableLinkToken,
  hashLinkToken,
  insertLinkToken,
  newLinkToken,
} from '../../db/link-tokens';
import { TOKEN_AUDIENCES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { isOwner, roleFromSuperuserFlag, type StaffRole } from '#src/shared/roles';
import type { LineCallbackRequest, TokenPair } from '#src/shared/schemas/auth';
import type {
  CreateStaffRequest,
  LinkLineRequest,
  PatchStaffRequest,
  StaffLineLink,
  StaffUser,
} from '#src/shared/schemas/staff';
import { instantToLocalDateTime } from '#src/shared/time';
import type { AppContext } from '../../context';
import { SQLSTATE, sqlState } from '../../db/client';
import { ApiHttpError, badRequest, conflict, forbidden, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './staff.repository';

/** docs/architecture.md: a staff registration link works once, within 24 hours. */
const STAFF_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export function presentStaff(row: repo.StaffRow): StaffUser {
  return {
    id: row.id,
    username: row.username,
    full_name: row.full_name,
    email: row.email,
    role: row.role,
    is_superuser: row.is_superuser,
    is_active: row.is_active,
    is_line_linked: Boolean(row.line_user_id),
    is_bookable: row.is_bookable,
    nomination_fee: row.nomination_fee,
    profile: row.profile,
    picture_url: row.picture_url,
  };
}

/** The role and the flag written together: the database checks that they agree (migration 0024). */
function roleColumns(role: StaffRole): { role: StaffRole; is_superuser: boolean } {
  return { role, is_superuser: isOwner(role) };
}

/** The role a PATCH asks for: `role` if sent, else the older `is_superuser` (false demotes an owner to nailist). */
function requestedRole(current: StaffRole, role?: StaffRole, superuserFlag?: boolean): StaffRole | undefined {
  if (role !== undefined) return role;
  if (superuserFlag === undefined) return undefined;
  if (superuserFlag) return 'owner';
  return current === 'owner' ? 'nailist' : current;
}

const linkInvalid = () =>
  badRequest(SERVER_MESSAGES.staffLinkInvalid, { token: [SERVER_MESSAGES.staffLinkInvalid] }, 'link_invalid');

/** The unique index on line_user_id or lower(username) decided; which one, the constraint name says. */
function violatedConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Staff accounts (superuser), their LINE link, and the staff LINE login. */
export function createStaffService(ctx: AppContext) {
  const { db, salonId } = ctx;
  const toLocal = (instant: Date) => instantToLocalDateTime(instant, ctx.env.SALON_TZ);
  const adminCallback = () => `${ctx.publicUrl.replace(/\/+$/, '')}/admin/callback`;

  async function verifyCode(body: LineCallbackRequest) {
    return ctx.lineLogin.verifyCode({
      code: body.code,
      code_verifier: body.code_verifier,
      nonce: body.nonce,
      // Staff come back to the admin callback, not the customer one.
      redirect_uri: body.redirect_uri ?? adminCallback(),
    });
  }

  return {
    async list(): Promise<StaffUser[]> {
      return (await repo.listStaff(db, salonId)).map(presentStaff);
    },

    async get(staffId: number): Promise<StaffUser> {
      const row = await repo.findStaff(db, salonId, staffId);
      if (!row) throw notFound(MESSAGES.staffNotFound);
      return presentStaff(row);
    },

    async create(body: CreateStaffRequest): Promise<StaffUser> {
      const passwordHash = await ctx.hashPassword(body.password);
      try {
        const row = await repo.insertStaff(db, {
          salon_id: salonId,
          username: body.username,
          full_name: body.full_name,
          email: body.email,
          password_hash: passwordHash,
          ...roleColumns(body.role ?? roleFromSuperuserFlag(body.is_superuser)),
        });
        return presentStaff(row);
      } catch (error) {
        // Decided by the unique index on lower(username): two parallel creates cannot both pass.
        if (sqlState(error) === SQLSTATE.uniqueViolation) throw usernameTaken();
        throw error;
      }
    },

    /**
     * Nobody changes their own role or active flag. The caller's row is locked with the target's and read
     * again, so a superuser demoted a moment ago cannot still promote or deactivate someone.
     */
    async update(caller: StaffPrincipal, staffId: number, body: PatchStaffRequest): Promise<StaffUser> {
      const { password, role, is_superuser: superuserFlag, ...rest } = body;
      const patch: Parameters<typeof repo.updateStaff>[2] = Object.fromEntries(
        Object.entries(rest).filter(([, value]) => value !== undefined),
      );
      if (password !== undefined) patch.password_hash = await ctx.hashPassword(password);
      const row = await db.transaction(async (tx) => {
        const { caller: current, target } = await repo.lockStaffPair(tx, salonId, caller.id, staffId);
        if (!current?.is_active || !isOwner(current.role)) throw forbidden();
        if (!target) throw notFound(MESSAGES.staffNotFound);
        const newRole = requestedRole(target.role, role, superuserFlag);
        if (newRole !== undefined) Object.assign(patch, roleColumns(newRole));
        // Only an active owner gets here and nobody changes their own role: the last active owner stays one.
        const changesOwnRole =
          target.id === current.id &&
          ((newRole !== undefined && newRole !== target.role) ||
            (patch.is_active !== undefined && patch.is_active !== target.is_active));
        if (changesOwnRole) throw forbidden(SERVER_MESSAGES.cannotChangeOwnRole, 'own_role');
        if (Object.keys(patch).length === 0) return target;
        // A new password or a deactivation ends every session of the account: its tokens carry the old version
        // (access tokens fail at once, open event streams end within seconds) and its refresh rows are revoked.
        const endsSessions = patch.password_hash !== undefined || (patch.is_active === false && target.is_active);
        if (endsSessions) {
          patch.token_version = target.token_version + 1;
          await ctx.auth.revokeStaffSessions(target.id, tx);
        }
        // Who customers can book changed: a booking deciding on the old answer at this moment re-reads its
        // staff member's schedule_version (reservations/book.ts) and is decided again. The row lock above is
        // what that booking's foreign-key check waits for, so the two cannot miss each other.
        const changesBookable =
          (patch.is_bookable !== undefined && patch.is_bookable !== target.is_bookable) ||
          (patch.is_active !== undefined && patch.is_active !== target.is_active);
        if (changesBookable) patch.schedule_version = target.schedule_version + 1;
        return repo.updateStaff(tx, target.id, patch);
      });
      return presentStaff(row);
    },

    async generateLineLink(caller: StaffPrincipal, staffId: number): Promise<StaffLineLink> {
      const target = await repo.findStaff(db, salonId, staffId);
      if (!target) throw notFound(MESSAGES.staffNotFound);
      const { token, hash } = newLinkToken();
      const expiresAt = new Date(ctx.now().getTime() + STAFF_LINK_TTL_MS);
      await insertLinkToken(db, {
        kind: 'staff',
        hash,
        targetId: target.id,
        createdByStaffId: caller.id,
        expiresAt,
        now: ctx.now(),
      });
      return {
        registration_link: `${ctx.publicUrl.replace(/\/+$/, '')}/register-line/${token}`,
        expires_at: toLocal(expiresAt),
      };
    },

    /**
     * The registration link's token authenticates. Consuming it (compare-and-swap) and setting the LINE user
     * happen in one transaction: a LINE account already linked to someone else, or an inactive account, rolls
     * both back and the token stays unused.
     */
    async linkLine(body: LinkLineRequest): Promise<TokenPair> {
      const hash = hashLinkToken(body.token);
      // A dead link is answered before the LINE code is spent; the transaction below still decides.
      if (!(await findUsableLinkToken(db, 'staff', hash, ctx.now()))) throw linkInvalid();
      const identity = await verifyCode(body);
      let staffId: number;
      try {
        staffId = await db.transaction(async (tx) => {
          const consumed = await consumeLinkToken(tx, 'staff', hash, ctx.now());
          if (consumed === undefined) throw linkInvalid();
          const linked = await repo.setStaffLineUser(tx, salonId, consumed, identity.lineUserId);
          if (linked === undefined) throw forbidden(MESSAGES.staffInactive, 'inactive');
          return linked;
        });
      } catch (error) {
        if (!(error instanceof ApiHttpError) && sqlState(error) === SQLSTATE.uniqueViolation) {
          const constraint = violatedConstraint(error);
          if (constraint === undefined || constraint === 'staff_users_line_user_id_key') {
            throw conflict(SERVER_MESSAGES.lineLinkedToOtherStaff, 'line_already_linked');
          }
        }
        throw error;
      }
      return ctx.auth.issueTokenPair(TOKEN_AUDIENCES.staff, staffId);
    },

    /** Only an active staff member linked to this LINE user signs in. */
    async loginLine(body: LineCallbackRequest): Promise<TokenPair> {
      const identity = await verifyCode(body);
      const staff = await repo.findStaffByLineUserId(db, salonId, identity.lineUserId);
      if (!staff) throw new ApiHttpError(401, 'line_not_linked', SERVER_MESSAGES.staffLineNotLinked);
      if (!staff.is_active) throw new ApiHttpError(401, 'inactive', SERVER_MESSAGES.staffLineInactive);
      return ctx.auth.issueTokenPair(TOKEN_AUDIENCES.staff, staff.id, { version: staff.token_version });
    },
  };
}

/** A login ID another account has, in any case (the unique index on lower(username) decides). */
function usernameTaken() {
  const message = SERVER_MESSAGES.usernameTaken;
  return badRequest(message, { username: [message] }, 'username_taken');
}
