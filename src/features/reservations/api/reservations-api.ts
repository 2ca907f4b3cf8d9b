import { queryOptions, useMutation } from '@tanstack/react-query';
import { api, type TokenAudience } from '../../../lib/api-client';
import type { Reservation } from '../../../shared/schemas/reservations';
import { reservationKeys } from '../../../lib/query-keys';

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
