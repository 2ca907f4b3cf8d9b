import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendOrQueue, type SendResult } from '#src/lib/outbox';
import type { Reservation } from '#src/shared/schemas/reservations';
import {
  createForCustomer,
  createWithNewCustomer,
  fetchAdminReservation,
  fetchAdminReservations,
  fetchServices,
  rescheduleReservation,
  transitionReservation,
  type AdminReservationFilters,
  type NewCustomerReservationPayload,
  type ReservationAction,
  type ReschedulePayload,
  type StaffBookingPayload,
} from './reservations-admin-api';
import { customerKeys, reservationAdminKeys } from '#src/lib/query-keys';
import { reservationCancelChange, reservationConfirmChange } from '../offline-changes';

const adminReservationsQuery = (filters: AdminReservationFilters) =>
  queryOptions({
    queryKey: reservationAdminKeys.list({ ...filters, status: [...filters.status].sort() }),
    queryFn: ({ signal }) => fetchAdminReservations(filters, signal),
  });

export function useAdminReservations(filters: AdminReservationFilters, enabled = true) {
  // A filter change keeps the old rows on screen while the new ones load.
  return useQuery({ ...adminReservationsQuery(filters), enabled, placeholderData: keepPreviousData });
}

const adminReservationQuery = (reservationNumber: string) =>
  queryOptions({
    queryKey: reservationAdminKeys.detail(reservationNumber),
    queryFn: ({ signal }) => fetchAdminReservation(reservationNumber, signal),
  });

export function useAdminReservation(reservationNumber: string) {
  return useQuery(adminReservationQuery(reservationNumber));
}

/** The transitions that may be made offline: they wait in the outbox (docs/architecture.md#offline-design). */
export const QUEUEABLE_ACTIONS: ReadonlySet<ReservationAction> = new Set(['confirm', 'cancel']);

/**
 * Confirm, cancel, complete, no-show; afterwards every reservation view is reloaded (docs/screens.md#admin-reservation-detail "both reload").
 * Confirm and cancel go through the outbox: sent at once when possible, else queued (`queued: true`, shown as
 * 未送信) and sent when the connection is back. Each carries `startTime`, the start the screen shows, so that an
 * action on a reservation moved meanwhile is refused (409 `rescheduled`), never applied to the new time.
 */
export function useReservationTransition(reservationNumber: string, startTime: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...reservationAdminKeys.detail(reservationNumber), 'transition'],
    mutationFn: async (action: ReservationAction): Promise<SendResult<Reservation>> =>
      QUEUEABLE_ACTIONS.has(action)
        ? sendOrQueue<Reservation>(
            (action === 'confirm' ? reservationConfirmChange : reservationCancelChange).of({
              reservationNumber,
              expectedStartTime: startTime,
            }),
          )
        : { queued: false, data: await transitionReservation(reservationNumber, action, startTime) },
    // Offline the call must run (and queue), not wait paused inside React Query.
    networkMode: 'always',
    onSuccess: (result) => {
      if (!result.queued) queryClient.setQueryData(reservationAdminKeys.detail(reservationNumber), result.data);
    },
    // Not awaited: the action is done once the server (or the outbox) has it; the reload must not keep the other
    // buttons disabled, least of all on a connection that answers slowly or not at all.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: reservationAdminKeys.all }),
  });
}

/** Moves a reservation (online only: a new time must be checked against everyone else's bookings now). */
export function useRescheduleReservation(reservationNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...reservationAdminKeys.detail(reservationNumber), 'reschedule'],
    mutationFn: (payload: ReschedulePayload) => rescheduleReservation(reservationNumber, payload),
    onSuccess: (data) => queryClient.setQueryData(reservationAdminKeys.detail(reservationNumber), data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reservationAdminKeys.all }),
  });
}

/** A staff booking, for a customer typed in or (with `customer_id`) one the caller already sees. */
type StaffBookingRequest =
  ({ kind: 'new' } & NewCustomerReservationPayload) | ({ kind: 'known'; customer_id: number } & StaffBookingPayload);

/** Creates a staff booking; every reservation list, the board and the customer's history are read again. */
export function useCreateStaffBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, ...payload }: StaffBookingRequest) =>
      kind === 'new'
        ? createWithNewCustomer(payload as NewCustomerReservationPayload)
        : createForCustomer(payload as StaffBookingPayload & { customer_id: number }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reservationAdminKeys.all }),
        queryClient.invalidateQueries({ queryKey: customerKeys.all }),
      ]),
  });
}

export function useServices() {
  return useQuery({
    queryKey: reservationAdminKeys.services(),
    queryFn: async ({ signal }) => {
      try {
        return await fetchServices(signal);
      } catch (error) {
        console.error('メニューの取得に失敗しました。', error);
        return [];
      }
    },
    staleTime: 5 * 60_000,
  });
}
