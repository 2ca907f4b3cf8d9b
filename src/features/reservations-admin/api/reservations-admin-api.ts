import { api } from '#src/lib/api-client';
import { fillPath } from '#src/lib/outbox-changes';
import type { ReservationStatus } from '#src/shared/constants';
import type { Service } from '#src/shared/schemas/booking';
import type { Reservation } from '#src/shared/schemas/reservations';

/**
 * Fetchers of the front-desk reservation screens (docs/screens.md#admin-reservation-list). Plain functions without React, so that
 * the offline layer (docs/architecture.md#offline-design) can call them from its outbox too. Answers are typed rather than parsed: the
 * admin entry stays small, and the server validates its answers against the same shared schemas.
 */

export interface AdminReservationFilters {
  /** `yyyy-MM-dd`, inclusive; empty means open-ended. */
  start_date?: string;
  end_date?: string;
  status: ReservationStatus[];
  /** The search box (search.ts): a 予約コード as typed, or a name, furigana or phone number. */
  code?: string;
  q?: string;
}

/** The staff transitions and their URL segments. */
export type ReservationAction = 'confirm' | 'cancel' | 'complete' | 'no_show';
const ACTION_SEGMENTS: Record<ReservationAction, string> = {
  confirm: 'confirm',
  cancel: 'cancel',
  complete: 'complete',
  no_show: 'no-show',
};

/** The one spelling of a status action's route (the outbox's confirm and cancel use it too: offline-changes.ts). */
export const reservationActionRoute = (action: ReservationAction) =>
  ({ method: 'POST', path: `/api/admin/reservations/:reservationNumber/${ACTION_SEGMENTS[action]}/` }) as const;

/** GET of one reservation, as a template (the outbox reads the server's state of a refused action with it). */
export const RESERVATION_ROUTE = { method: 'GET', path: '/api/admin/reservations/:reservationNumber/' } as const;

export function fetchAdminReservations(filters: AdminReservationFilters, signal?: AbortSignal) {
  return api.get<Reservation[]>('/api/admin/reservations/', {
    query: {
      start_date: filters.start_date,
      end_date: filters.end_date,
      status: filters.status,
      code: filters.code,
      q: filters.q,
    },
    signal,
  });
}

export function fetchAdminReservation(reservationNumber: string, signal?: AbortSignal) {
  return api.get<Reservation>(fillPath(RESERVATION_ROUTE.path, { reservationNumber }), { signal });
}

/**
 * A status action. `expectedStartTime` is the start on the staff member's screen: if the reservation has been moved
 * since, the server refuses (409 `rescheduled`) rather than act on a time they did not see.
 */
export function transitionReservation(
  reservationNumber: string,
  action: ReservationAction,
  expectedStartTime?: string,
) {
  return api.post<Reservation>(
    fillPath(reservationActionRoute(action).path, { reservationNumber }),
    expectedStartTime === undefined ? undefined : { expected_start_time: expectedStartTime },
  );
}

/** POST /api/admin/reservations/{n}/reschedule/ (a superuser may also hand it to another staff member). */
export interface ReschedulePayload {
  /** `yyyy-MM-ddTHH:mm:00`, salon-local. */
  start_time: string;
  staff_id?: number;
  /** The start on the staff member's screen: a reservation moved meanwhile is a 409, not moved twice. */
  expected_start_time: string;
}

export function rescheduleReservation(reservationNumber: string, payload: ReschedulePayload) {
  return api.post<Reservation>(`/api/admin/reservations/${encodeURIComponent(reservationNumber)}/reschedule/`, payload);
}

/** What every staff booking carries (server/features/reservations/create-as-staff.ts). */
export interface StaffBookingPayload {
  service_id: number;
  option_ids: number[];
  /** `yyyy-MM-ddTHH:mm:00`, salon-local. */
  start_time: string;
  /** Whose time it takes (the owner's or the front desk's choice; the server ignores it for a nailist). */
  staff_id?: number;
  /** 指名: the staff member's 指名料 is added to the price. */
  is_nominated: boolean;
}

export interface NewCustomerReservationPayload extends StaffBookingPayload {
  name: string;
  phone_number: string;
  email: string;
}

export function createWithNewCustomer(payload: NewCustomerReservationPayload) {
  return api.post<Reservation>('/api/admin/reservations/create-with-new-customer/', payload);
}

/** A booking for a customer the caller already sees (既存顧客). */
export function createForCustomer(payload: StaffBookingPayload & { customer_id: number }) {
  return api.post<Reservation>('/api/admin/reservations/create-for-customer/', payload);
}

/** The bookable menu; docs/screens.md#admin-reservation-list treats a non-array answer as empty. */
export async function fetchServices(signal?: AbortSignal): Promise<Service[]> {
  const answer = await api.get<unknown>('/api/services/', { signal });
  return Array.isArray(answer) ? (answer as Service[]) : [];
}
