import { canSeeAllBookings, isOwner } from '#src/shared/roles';
import { MESSAGES } from '#src/shared/messages';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './schedule.repository';

/**
 * Whose schedule: the owner may name another staff member, and so may the front desk to read one (it books for any
 * nailist); a change to someone else's time stays the owner's. Anyone else always gets their own.
 */
export async function targetStaff(
  ctx: AppContext,
  staff: StaffPrincipal,
  userId: number | undefined,
  access: 'read' | 'change' = 'change',
): Promise<number> {
  const mayName = access === 'read' ? canSeeAllBookings(staff.role) : isOwner(staff.role);
  if (!mayName || userId === undefined || userId === staff.id) return staff.id;
  if (!(await repo.isActiveStaff(ctx.db, ctx.salonId, userId))) {
    throw badRequest(MESSAGES.staffNotFound, { user_id: [MESSAGES.staffNotFound] });
  }
  return userId;
}
