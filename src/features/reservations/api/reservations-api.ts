import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, type TokenAudience } from '../../../lib/api-client';
import type { Reservation } from '../../../shared/schemas/reservations';

/**
 * The shared reservation detail (SPEC.md §7): a staff member signed in on this browser reads and acts with the
 * staff token (SPEC.md §6 would send the customer's; the server accepts either), everyone else with the
 * customer token.
 */
export const reservationKeys = {
  all: ['reservation'] as const,
  detail: (number: string, audience: TokenAudience) => [...reservationKeys.all, number, audience] as const,
};

const path = (number: string, action = '') => `/api/reservations/${encodeURIComponent(number)}/${action}`;

export const reservationQuery = (number: string, audience: TokenAudience) =>
  queryOptions({
    queryKey: reservationKeys.detail(number, audience),
    queryFn: ({ signal }) => api.get<Reservation>(path(number), { signal, auth: audience }),
    staleTime: 0,
  });

export function useReservationAction(number: string, audience: TokenAudience) {
  return useMutation({
    mutationFn: (action: 'confirm' | 'cancel') => api.post<Reservation>(path(number, `${action}/`), undefined, { auth: audience }),
  });
}

export interface NotifyAnswer {
  detail: string;
  reservation_number: string;
}

/** POST /api/confirm-reservation-and-notify/: the latest reservation goes to the customer's LINE chat. */
export function useNotifyLatestReservation() {
  return useMutation({
    mutationFn: () => api.post<NotifyAnswer>('/api/confirm-reservation-and-notify/'),
  });
}
