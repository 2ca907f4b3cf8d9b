/**
 * The reservation rules that need no database (docs/architecture.md#booking-rules): which status changes exist
 * and when a customer may still cancel. transition.ts applies them; the status change itself is a
 * compare-and-swap in SQL (transition.repository.ts transitionStatus) built from the same table.
 */
import { ACTIVE_RESERVATION_STATUSES, type ReservationStatus } from '#src/shared/constants';
import type { ReservationEvent } from '../../outbox/reservation-recipients';

/** What staff can do to a reservation; the customer can only cancel (the same `cancel` rule). */
export type StaffAction = 'confirm' | 'cancel' | 'complete' | 'no_show';

export interface TransitionRule {
  /** The statuses the change starts from; anything else is a stale request (409). */
  from: readonly ReservationStatus[];
  to: ReservationStatus;
  /** The event that sends messages (server/outbox/reservation-recipients.ts); none for complete and no-show. */
  event?: ReservationEvent;
  /** Only for a reservation that has already started: completed and no-show describe what happened. */
  pastOnly?: boolean;
}

export const TRANSITIONS: Record<StaffAction, TransitionRule> = {
  confirm: { from: ['pending'], to: 'confirmed', event: 'confirmed' },
  cancel: { from: ACTIVE_RESERVATION_STATUSES, to: 'cancelled', event: 'cancelled' },
  complete: { from: ACTIVE_RESERVATION_STATUSES, to: 'completed', pastOnly: true },
  no_show: { from: ACTIVE_RESERVATION_STATUSES, to: 'no_show', pastOnly: true },
};

/** Pending and confirmed hold the staff member's time: only they can be cancelled, moved or shown as cancellable. */
export function isActive(reservation: { status: ReservationStatus }): boolean {
  return (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(reservation.status);
}

type TransitionOutcome = { to: ReservationStatus } | { refused: 'stale_status' | 'not_started' };

/**
 * The rule applied to a reservation as it stands. The service lets SQL make the change atomically with the same
 * conditions, and asks this function why a change that matched no row was refused.
 */
export function decideTransition(
  rule: TransitionRule,
  current: { status: ReservationStatus; start_time: Date },
  now: Date,
): TransitionOutcome {
  if (!rule.from.includes(current.status)) return { refused: 'stale_status' };
  if (rule.pastOnly && current.start_time >= now) return { refused: 'not_started' };
  return { to: rule.to };
}

// The deadline is a pure function the browser needs too (the booking confirmation step states it).
export { beforeCancellationDeadline, cancellationDeadline } from '#src/shared/cancellation';
