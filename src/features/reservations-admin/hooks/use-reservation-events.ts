import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api } from '#src/lib/api-client';
import { showNotification } from '#src/lib/notify';
import { formatDateTimeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { ReservationChangeEvent } from '#src/shared/schemas/events';
import { reservationAdminKeys } from '#src/lib/query-keys';
import {
  connectReservationEvents,
  defaultBackoffMs,
  type EventStreamStatus,
  type ReservationEventsOptions,
} from '../api/reservation-events';

interface UseReservationEventsOptions {
  enabled: boolean;
  /** Also told about every event (the shell invalidates other features' reservation views with it). */
  onChange?(event: ReservationChangeEvent): void;
  backoffMs?: ReservationEventsOptions['backoffMs'];
}

/**
 * Live updates (issue 6): while signed in, the reservation views refresh when a reservation changes (whatever the
 * action, a move included), and a customer's booking, cancellation or move shows a notification. Returns the
 * stream's state.
 */
export function useReservationEvents({ enabled, onChange, backoffMs }: UseReservationEventsOptions): EventStreamStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<EventStreamStatus>('stopped');
  // Callers pass inline functions; the stream must not reconnect on every render because of them.
  const onChangeRef = useRef(onChange);
  const backoffRef = useRef(backoffMs);
  useEffect(() => {
    onChangeRef.current = onChange;
    backoffRef.current = backoffMs;
  });

  useEffect(() => {
    if (!enabled) return;
    return connectReservationEvents({
      backoffMs: (attempt) => (backoffRef.current ?? defaultBackoffMs)(attempt),
      onStatus: setStatus,
      onEvent: (event) => {
        void queryClient.invalidateQueries({ queryKey: reservationAdminKeys.all });
        onChangeRef.current?.(event);
        if (event.by !== 'customer') return;
        if (event.action === 'created') {
          showNotification({
            color: 'pink',
            title: MESSAGES.adminNewReservationArrived,
            message: `${event.customer_name} 様 ${formatDateTimeJa(event.start_time)}`,
            autoClose: 10_000,
          });
        } else if (event.action === 'cancelled') {
          showNotification({
            color: 'red',
            title: MESSAGES.adminReservationCancelledByCustomer,
            message: `${event.customer_name} 様 ${formatDateTimeJa(event.start_time)}`,
            autoClose: 10_000,
          });
        } else if (event.action === 'rescheduled') {
          // The event carries the new start: staff see where the booking went.
          showNotification({
            color: 'orange',
            title: MESSAGES.adminReservationRescheduledByCustomer,
            message: `${event.customer_name} 様 → ${formatDateTimeJa(event.start_time)}`,
            autoClose: 10_000,
          });
        }
      },
      // Any admin call refreshes an expired access token (or ends the session); the profile is the cheapest one.
      onUnauthorized: () =>
        api.get('/api/admin/me/').then(
          () => true,
          () => false,
        ),
    });
  }, [enabled, queryClient]);

  return status;
}
