/**
 * Status changes (docs/architecture.md#statuses-and-transitions): the customer cancels, staff confirm, cancel,
 * complete or mark a no-show. The table of changes is reservation-rules.ts; the change itself is one
 * compare-and-swap update (transition.repository.ts), and a change that matched nothing is explained here.
 */
import { eq } from 'drizzle-orm';
import { ownBookingsOnly } from '../../db/scope';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { ReservationChangeAction } from '#src/shared/schemas/events';
import { localDateTimeToInstant } from '#src/shared/time';
import { reservations } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import { present, type Viewer } from './present';
import {
  beforeCancellationDeadline,
  decideTransition,
  TRANSITIONS,
  type StaffAction,
  type TransitionRule,
} from './reservation-rules';
import {
  contactLines,
  publishChange,
  refuseIfMoved,
  reload,
  salonSettings,
  type ReservationsContext,
} from './reservations.context';
import * as repo from './reservations.repository';
import * as transitionRepo from './transition.repository';

/** The owner cancels while pending or confirmed and before the deadline; after it, 403 with a message. */
export async function cancelAsCustomer(ctx: ReservationsContext, customerId: number, reservationNumber: string) {
  const row = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
  const salon = await salonSettings(ctx);
  if (!beforeCancellationDeadline(row.start_time, salon.cancellation_deadline_days, ctx.now())) {
    throw forbidden(MESSAGES.cancellationDeadlinePassed, 'cancellation_deadline_passed');
  }
  return transition(ctx, reservationNumber, TRANSITIONS.cancel, eq(reservations.customer_id, customerId), 'customer');
}

/**
 * A staff status action. `expectedStart` (salon-local; the offline outbox always sends it) is the start the staff
 * member saw: the change is made only while the reservation still starts then (a condition of the update
 * itself), else 409 `rescheduled` and nothing changes.
 */
export async function transitionAsStaff(
  ctx: ReservationsContext,
  staff: StaffPrincipal,
  reservationNumber: string,
  action: StaffAction,
  expectedStart?: string,
) {
  const onlyOf = ownBookingsOnly(staff);
  const scope = onlyOf === undefined ? undefined : eq(reservations.staff_id, onlyOf);
  return transition(ctx, reservationNumber, TRANSITIONS[action], scope, 'staff', expectedStart);
}

/** Compare-and-swap on the status; a stale transition is a 409, someone else's reservation a 404. */
async function transition(
  ctx: ReservationsContext,
  reservationNumber: string,
  rule: TransitionRule,
  scope: ReturnType<typeof eq> | undefined,
  viewer: Viewer,
  expectedStart?: string,
) {
  const { db, salonId, now } = ctx;
  const contact = rule.event ? await contactLines(ctx) : undefined;
  const result = await db.transaction(async (tx) => {
    const changed = await transitionRepo.transitionStatus(tx, {
      salonId,
      reservationNumber,
      from: rule.from,
      to: rule.to,
      scope,
      startedBefore: rule.pastOnly ? now() : undefined,
      startTime: expectedStart === undefined ? undefined : localDateTimeToInstant(expectedStart, ctx.timeZone),
      now: now(),
    });
    if (!changed) return null;
    const full = await reload(ctx, tx, reservationNumber);
    if (rule.event) await ctx.notify(tx, rule.event, full, { contact });
    return full;
  });
  if (result) {
    if (rule.event) ctx.afterNotify();
    publishChange(ctx, rule.to as ReservationChangeAction, result, viewer);
    return present(ctx, result, viewer);
  }
  return refuseUnchanged(ctx, reservationNumber, rule, scope, expectedStart);
}

/** Why a transition matched no row: not the caller's (404), moved since (409 `rescheduled`), too early or stale. */
async function refuseUnchanged(
  ctx: ReservationsContext,
  reservationNumber: string,
  rule: TransitionRule,
  scope: ReturnType<typeof eq> | undefined,
  expectedStart: string | undefined,
): Promise<never> {
  const current = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  if (!current || (scope && !(await repo.existsInScope(ctx.db, reservationNumber, scope)))) {
    throw notFound(MESSAGES.reservationNotFound);
  }
  // The update refused because the reservation moved since the caller saw it: say so, whatever its status.
  refuseIfMoved(ctx, current, expectedStart);
  const outcome = decideTransition(rule, current, ctx.now());
  if ('refused' in outcome && outcome.refused === 'not_started')
    throw conflict(SERVER_MESSAGES.notYetStarted, 'not_started');
  throw conflict(SERVER_MESSAGES.staleStatus, 'stale_status');
}
