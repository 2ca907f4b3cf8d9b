import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, type TokenAudience } from '#src/lib/api-client';
import type {
  CustomerReservationList,
  NotifyLatestAnswer,
  RescheduleRequest,
  Reservation,
} from '#src/shared/schemas/reservations';
import { reservationKeys } from '#src/lib/query-keys';

const path = (number: string, action = '') => `/api/reservations/${encodeURIComponent(number)}/${action}`;

/** GET /api/reservations/: the signed-in customer's own bookings, upcoming and past. */
export const myReservationsQuery = () =>
  queryOptions({
    queryKey: reservationKeys.mine(),
    queryFn: ({ signal }) => api.get<CustomerReservationList>('/api/reservations/', { signal, auth: 'customer' }),
    staleTime: 0,
  });

/**
 * One reservation for the detail page: with the caller's session, or, given the e-mail link's secret (`?t=`),
 * through GET /api/reservations/{number}/by-link/ without one (read-only).
 */
export const reservationDetailQuery = (number: string, audience: TokenAudience, linkSecret?: string) =>
  queryOptions<Reservation, Error, Reservation, readonly unknown[]>({
    queryKey: linkSecret ? reservationKeys.byLink(number, linkSecret) : reservationKeys.detail(number, audience),
    queryFn: ({ signal }) =>
      linkSecret
        ? api.get<Reservation>(path(number, 'by-link/'), { signal, auth: 'none', query: { t: linkSecret } })
        : api.get<Reservation>(path(number), { signal, auth: audience }),
    staleTime: 0,
  });

export function useReservationAction(number: string, audience: TokenAudience) {
  return useMutation({
    mutationFn: (action: 'confirm' | 'cancel') =>
      api.post<Reservation>(path(number, `${action}/`), undefined, { auth: audience }),
  });
}

/**
 * POST /api/reservations/{number}/reschedule/ (the customer moving their own booking) with an Idempotency-Key: the
 * caller keeps one key per chosen start, so a retry after a lost answer is answered from the server's record
 * instead of being refused as "your booking is already at that time".
 */
export function rescheduleReservation(
  number: string,
  body: RescheduleRequest,
  idempotencyKey: string,
): Promise<Reservation> {
  return api.post<Reservation>(path(number, 'reschedule/'), body, {
    auth: 'customer',
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** How the reservation was sent (channel): LINE, e-mail at the month's LINE limit, or not at all. */
type NotifyAnswer = NotifyLatestAnswer;

/** POST /api/confirm-reservation-and-notify/: the latest reservation goes to the customer's LINE chat. */
export function useNotifyLatestReservation() {
  return useMutation({
    mutationFn: () => api.post<NotifyAnswer>('/api/confirm-reservation-and-notify/'),
  });
}
