import { MESSAGES } from '#src/shared/messages';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './schedule.repository';

/** Whose schedule: a superuser may name another staff member; anyone else always gets their own. */
export async function targetStaff(ctx: AppContext, staff: StaffPrincipal, userId: number | undefined): Promise<number> {
  if (!staff.isSuperuser || userId === undefined || userId === staff.id) return staff.id;
  if (!(await repo.isActiveStaff(ctx.db, ctx.salonId, userId))) {
    throw badRequest(MESSAGES.staffNotFound, { user_id: [MESSAGES.staffNotFound] });
  }
  return userId;
}
