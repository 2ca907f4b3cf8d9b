import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type Dispatch } from 'react';
import { useNavigate } from 'react-router';
import type { MenuChoice } from '#src/components/slot-picker/slot-queries';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { newIdempotencyKey } from '#src/lib/idempotency-key';
import { paths } from '#src/lib/paths';
import { bookingKeys, reservationKeys } from '#src/lib/query-keys';
import { customerSession, hasTokens } from '#src/lib/token-session';
import { MESSAGES } from '#src/shared/messages';
import type { BookableStaff, Service, ServiceOption } from '#src/shared/schemas/booking';
import type { CreateReservationRequest } from '#src/shared/schemas/reservations';
import { createReservation } from '../api/booking-api';
import type { CustomerDetails } from '../validation';
import type { WizardAction } from './use-booking-wizard';

/** The wizard's choices as they stand when the customer confirms. */
interface BookingDraft {
  salonId: number;
  service: Service | null;
  /** In the menu's order. */
  options: readonly ServiceOption[];
  staff: BookableStaff | null;
  date: string | null;
  time: string | null;
  details: CustomerDetails | null;
  /** The menu the calendar asked about: its cached times are dropped when the slot turns out taken. */
  choice: MenuChoice | null;
  referenceImages: readonly File[];
}

/** The request for a draft, or null while a required part is missing. */
function reservationRequest(draft: BookingDraft): CreateReservationRequest | null {
  const { salonId, service, staff, options, date, time, details } = draft;
  // docs/screens.md#booking-wizard: time, date, name, e-mail, salon and service are needed.
  if (!service || !date || !time || !details?.name || !details.email) return null;
  return {
    salon: salonId,
    service: service.id,
    // 指名なし sends no staff_id: the salon assigns whoever is free.
    ...(staff ? { staff_id: staff.id } : {}),
    option_ids: options.map((option) => option.id),
    start_time: `${date}T${time}:00`,
    customer_name: details.name,
    customer_furigana: details.furigana,
    customer_email: details.email,
    customer_phone: details.phone,
  };
}

/**
 * The confirm step's submission: one request at a time, the same Idempotency-Key for the same booking sent again
 * (docs/architecture.md#idempotency-keys), then the completion page. A taken slot goes back to the times; a
 * refused session ends; anything else is said on the confirm step.
 */
export function useSubmitBooking(dispatch: Dispatch<WizardAction>) {
  const { logout } = useCustomerAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // A ref, not state: two clicks in one frame both see "not sending" in state.
  const sending = useRef(false);
  const idempotency = useRef<{ payload: string; key: string } | null>(null);

  const keyFor = (payload: CreateReservationRequest) => {
    const serialized = JSON.stringify(payload);
    if (idempotency.current?.payload !== serialized) {
      idempotency.current = { payload: serialized, key: newIdempotencyKey() };
    }
    return idempotency.current.key;
  };

  /** A booking the server did not take: what the customer sees next. */
  const showFailure = (failure: unknown, draft: BookingDraft) => {
    if (isApiError(failure, 409) && failure.code === 'slot_unavailable') {
      // Someone took the slot: back to the times, loaded again (not the cached list that still offers it). A sent
      // draft always has its date.
      const { choice, date } = draft;
      if (choice && date) queryClient.removeQueries({ queryKey: bookingKeys.availability(choice, date) });
      dispatch({ type: 'slotTaken', message: errorDetail(failure, MESSAGES.slotUnavailable) });
    } else if (isApiError(failure, 401)) {
      // A refused refresh has already ended the session (and gone to /login); any other 401 ends it here.
      if (hasTokens(customerSession)) logout(MESSAGES.customerSessionExpired);
    } else {
      const detail = errorDetail(failure, MESSAGES.serverError);
      setError(MESSAGES.reservationCreateFailed(detail));
    }
  };

  const submit = async (draft: BookingDraft) => {
    if (sending.current) return;
    setError(null);
    const payload = reservationRequest(draft);
    if (!payload) {
      setError(MESSAGES.requiredMissing);
      return;
    }
    const key = keyFor(payload);
    sending.current = true;
    setSubmitting(true);
    let leaving = false;
    try {
      const reservation = await createReservation(payload, key);
      void queryClient.invalidateQueries({ queryKey: [...bookingKeys.all, 'bookable-dates'] });
      // The completion page shows this reservation without asking again; the list is out of date.
      queryClient.setQueryData(reservationKeys.detail(reservation.reservation_number, 'customer'), reservation);
      void queryClient.invalidateQueries({ queryKey: reservationKeys.mine() });
      // The optional reference images go after the booking, which stands whatever becomes of them.
      // Loaded on demand: most bookings have none, and /reserve's first load has a size budget.
      const images = draft.referenceImages.length
        ? await import('#src/components/karte/reference-images-api').then(({ sendReferenceImages }) =>
            sendReferenceImages(reservation.reservation_number, draft.referenceImages),
          )
        : undefined;
      leaving = true;
      void navigate(paths.reservationComplete(reservation.reservation_number), { state: { referenceImages: images } });
    } catch (failure) {
      showFailure(failure, draft);
    } finally {
      // Booked, the wizard stays sending until the completion page (a lazy route) replaces it: a press meanwhile
      // sends nothing more, where it used to send the same booking again (answered from its Idempotency-Key).
      if (!leaving) {
        sending.current = false;
        setSubmitting(false);
      }
    }
  };

  return { submit, submitting, error, clearError: () => setError(null) };
}
