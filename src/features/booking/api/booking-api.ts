import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import type { BookableStaff, Service } from '#src/shared/schemas/booking';
import type { Salon } from '#src/shared/schemas/config';
import type { CreateReservationRequest, Reservation } from '#src/shared/schemas/reservations';
import { bookingKeys, reservationKeys } from '#src/lib/query-keys';

export const salonsQuery = queryOptions({
  queryKey: bookingKeys.salons(),
  queryFn: ({ signal }) => api.get<Salon[]>('/api/salons/', { signal }),
  staleTime: 10 * 60_000,
});

export const servicesQuery = queryOptions({
  queryKey: bookingKeys.services(),
  // docs/screens.md#booking-wizard: a non-array answer is treated as empty.
  queryFn: async ({ signal }) => {
    const answer = await api.get<unknown>('/api/services/', { signal });
    return Array.isArray(answer) ? (answer as Service[]) : [];
  },
  staleTime: 5 * 60_000,
});

/** GET /api/staff/ (public): who may be named (指名), with picture, profile and 指名料. */
export const bookableStaffQuery = queryOptions({
  queryKey: bookingKeys.staff(),
  queryFn: async ({ signal }) => {
    const answer = await api.get<unknown>('/api/staff/', { signal });
    return Array.isArray(answer) ? (answer as BookableStaff[]) : [];
  },
  staleTime: 5 * 60_000,
});

/**
 * POST /api/reservations/ with an Idempotency-Key: one key per confirmed payload, so that a repeat of the same
 * submit is answered from the server's record instead of booking twice. (A plain call rather than useMutation:
 * the wizard keeps its own sending state, and the customer entry stays smaller.)
 */
export function createReservation(payload: CreateReservationRequest, idempotencyKey: string): Promise<Reservation> {
  return api.post<Reservation>('/api/reservations/', payload, { headers: { 'Idempotency-Key': idempotencyKey } });
}

/**
 * The reservation the completion page names: read with the customer's session, so that an unknown number or
 * someone else's answers 404 instead of a success message. Shares the detail page's cache entry.
 */
export const bookedReservationQuery = (number: string) =>
  queryOptions({
    queryKey: reservationKeys.detail(number, 'customer'),
    queryFn: ({ signal }) =>
      api.get<Reservation>(`/api/reservations/${encodeURIComponent(number)}/`, { signal, auth: 'customer' }),
    staleTime: 30_000,
  });
