import { useQuery } from '@tanstack/react-query';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff, Service } from '#src/shared/schemas/booking';
import type { Reservation } from '#src/shared/schemas/reservations';
import { bookableStaffQuery, bookedReservationQuery } from '../api/booking-api';

/** The wizard's choices taken from an earlier visit (前回と同じで予約). */
export interface RebookPrefill {
  service: Service;
  optionIds: number[];
  staff: BookableStaff | null;
}

type RebookState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'ready'; prefill: RebookPrefill }
  /** The visit cannot be booked again as it was: the menu step, with this message. */
  | { status: 'menu'; notice: string };

/**
 * The same menu as that visit, as it is offered now: its service if still on the menu, the options that are still
 * its options, and the named staff member (指名) if they can still be named. Nothing of it is assumed: a menu that has
 * changed since shows what is left, and a service that is gone sends the customer to the menu.
 */
function prefillFrom(
  visit: Pick<Reservation, 'service' | 'options' | 'is_nominated' | 'staff_id'>,
  services: readonly Service[],
  staffList: readonly BookableStaff[],
): RebookPrefill | null {
  const service = services.find((candidate) => candidate.id === visit.service.id);
  if (!service) return null;
  const offered = new Set(service.options.map((option) => option.id));
  return {
    service,
    optionIds: visit.options.map((option) => option.id).filter((id) => offered.has(id)),
    staff: visit.is_nominated ? (staffList.find((member) => member.id === visit.staff_id) ?? null) : null,
  };
}

/**
 * /reserve?rebook=<reservation number>: reads that reservation with the customer's session (someone else's is a 404
 * like a missing one) and the staff who can be named, and says what to fill in. `services` is the active menu.
 */
export function useRebook(reservationNumber: string | null, services: readonly Service[] | undefined): RebookState {
  const enabled = reservationNumber !== null;
  const visit = useQuery({ ...bookedReservationQuery(reservationNumber ?? ''), enabled, retry: false });
  const staffList = useQuery({ ...bookableStaffQuery, enabled });
  if (!enabled) return { status: 'none' };
  if (visit.isError) return { status: 'menu', notice: MESSAGES.rebookVisitNotFound };
  // A staff list that does not load only loses the 指名; the rest is still filled in.
  if (visit.isPending || !services || staffList.isPending) return { status: 'loading' };
  const prefill = prefillFrom(visit.data, services, staffList.data ?? []);
  return prefill ? { status: 'ready', prefill } : { status: 'menu', notice: MESSAGES.rebookServiceGone };
}
