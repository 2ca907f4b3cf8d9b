import { usePendingChange, type PendingChange } from '#src/lib/outbox-hooks';
import { defineChange } from '#src/lib/outbox-changes';
import { paths } from '#src/lib/paths';
import { RESERVATION_STATUS_LABELS, type ReservationStatus } from '#src/shared/constants';
import { formatDateTimeJa } from '#src/shared/format';
import type { Reservation } from '#src/shared/schemas/reservations';
import { RESERVATION_ROUTE, reservationActionRoute } from './api/reservations-admin-api';

/**
 * Confirm and cancel, queueable (docs/architecture.md#offline-design): sent at once when possible, else kept in
 * the outbox and sent when the connection is back.
 */
interface ReservationActionChange {
  reservationNumber: string;
  /**
   * The start the staff member saw when they pressed the button (salon-local). Sent with the action: if the
   * reservation has been moved since, the server refuses it (409 `rescheduled`, a conflict for a person to look
   * at) instead of applying it to the new time.
   */
  expectedStartTime: string;
}

/** What the outbox entries of a reservation are grouped by (their order, the screens' 未送信). */
const reservationTarget = (reservationNumber: string) => `reservation:${reservationNumber}`;

const statusLabel = (status: unknown) =>
  typeof status === 'string' && status in RESERVATION_STATUS_LABELS
    ? RESERVATION_STATUS_LABELS[status as ReservationStatus]
    : '—';

function reservationAction(action: 'confirm' | 'cancel', nextStatus: ReservationStatus) {
  return defineChange<ReservationActionChange>({
    kind: `reservation-${action}`,
    route: reservationActionRoute(action),
    stateRoute: RESERVATION_ROUTE,
    params: ({ reservationNumber }) => ({ reservationNumber }),
    target: ({ reservationNumber }) => reservationTarget(reservationNumber),
    body: ({ expectedStartTime }) => ({ expected_start_time: expectedStartTime }),
    // The local effect: the screens show the status the action leads to while it waits.
    keep: ({ reservationNumber, expectedStartTime }) => ({ reservationNumber, expectedStartTime, nextStatus }),
    // Refused because the reservation was moved (409 `rescheduled`): it carries the old start, so it would only be
    // refused again. It is never resent; a person acts on the reservation as it now is instead.
    canRetry: (entry) => entry.error?.code !== 'rescheduled',
    describe: (entry) => {
      const server = entry.serverState as Reservation | null | undefined;
      // Moved meanwhile: both sides show the time too, the one this device saw and the new one.
      const moved = entry.error?.code === 'rescheduled';
      const at = (start: unknown) => (moved && typeof start === 'string' ? `\n${formatDateTimeJa(start)}` : '');
      return {
        title: server ? `予約 ${server.customer_name} 様` : '予約',
        reference: String(entry.reservationNumber),
        link: paths.adminReservation(String(entry.reservationNumber)),
        mineLabel: 'この端末での変更',
        theirsLabel: 'サーバーの状態',
        mine: statusLabel(entry.nextStatus) + at(entry.expectedStartTime),
        theirs: statusLabel(server?.status) + at(server?.start_time),
      };
    },
  });
}

export const reservationConfirmChange = reservationAction('confirm', 'confirmed');
export const reservationCancelChange = reservationAction('cancel', 'cancelled');

/** The status a reservation will have once its waiting changes are sent (confirm, cancel made offline). */
export function usePendingReservation(reservationNumber: string): PendingChange<ReservationStatus> {
  return usePendingChange(reservationTarget(reservationNumber), (entry) => entry.nextStatus as ReservationStatus);
}
