/**
 * A reservation as the API answers it (docs/architecture.md#reading-a-reservation): salon-local times, prices as
 * strings, the cancellation deadline and whether the viewer may still cancel; staff also see the customer's
 * incidents. Every use case answers through here.
 */
import type { Reservation } from '#src/shared/schemas/reservations';
import { incidentCounts, NO_INCIDENTS, type IncidentCounts } from '../../db/incidents';
import { beforeCancellationDeadline, cancellationDeadline, isActive } from './reservation-rules';
import { salonSettings, toLocal, type ReservationsContext } from './reservations.context';
import type { ReservationWithNames } from './reservations.repository';

/** What presenting a reservation reads: the row and the names (not the LINE ids, which only notifying needs). */
export type PresentableReservation = Omit<ReservationWithNames, 'customer_line_user_id'>;

export type Viewer = 'customer' | 'staff';

export async function present(
  ctx: ReservationsContext,
  reservation: PresentableReservation,
  viewer: Viewer,
): Promise<Reservation> {
  const incidents = viewer === 'staff' ? await incidentCounts(ctx.db, [reservation.customer_id]) : undefined;
  return presentWith(ctx, reservation, viewer, await salonSettings(ctx), incidents);
}

/** A list of reservations for staff, reading the salon's settings once rather than once per row. */
export async function presentAllForStaff(
  ctx: ReservationsContext,
  rows: Array<PresentableReservation & { incidents?: IncidentCounts | null }>,
): Promise<Reservation[]> {
  const salon = await salonSettings(ctx);
  // Rows read with their customers' counts (the staff list, reservations.repository.ts) need no second query.
  const incidents = rows.every((row) => row.incidents)
    ? new Map(rows.map((row) => [row.customer_id, row.incidents!]))
    : await incidentCounts(
        ctx.db,
        rows.map((row) => row.customer_id),
      );
  return rows.map((row) => presentWith(ctx, row, 'staff', salon, incidents));
}

/** Staff also see the customer's 無断欠席 and 直前キャンセル (`incidents`, read for the whole list at once). */
export function presentWith(
  ctx: ReservationsContext,
  reservation: PresentableReservation,
  viewer: Viewer,
  salon: { cancellation_deadline_days: number },
  incidents?: Map<number, IncidentCounts>,
): Reservation {
  const deadlineDays = salon.cancellation_deadline_days;
  return {
    id: reservation.id,
    reservation_number: reservation.reservation_number,
    reservation_code: reservation.reservation_code,
    status: reservation.status,
    salon: { name: reservation.salon_name },
    service: {
      id: reservation.service_id,
      name: reservation.service_name,
      price: String(reservation.price),
      duration_minutes: reservation.duration_minutes,
    },
    options: reservation.options.map((option) => ({ ...option, price: String(option.price) })),
    is_nominated: reservation.is_nominated,
    nomination_fee: String(reservation.nomination_fee),
    service_name: reservation.service_name,
    start_time: toLocal(ctx, reservation.start_time),
    end_time: toLocal(ctx, reservation.end_time),
    customer_id: reservation.customer_id,
    customer_name: reservation.customer_name,
    customer_furigana: reservation.customer_furigana,
    customer_email: reservation.customer_email,
    customer_phone: reservation.customer_phone,
    staff_id: reservation.staff_id,
    staff_name: reservation.staff_name,
    cancellation_deadline: toLocal(ctx, cancellationDeadline(reservation.start_time, deadlineDays)),
    // Staff may cancel an active reservation any time; the customer only before the deadline.
    can_cancel:
      isActive(reservation) &&
      (viewer === 'staff' || beforeCancellationDeadline(reservation.start_time, deadlineDays, ctx.now())),
    updated_at: reservation.updated_at.toISOString(),
    ...(viewer === 'staff' && staffOnly(reservation, incidents)),
  };
}

function staffOnly(reservation: PresentableReservation, incidents: Map<number, IncidentCounts> | undefined) {
  const counts = incidents?.get(reservation.customer_id) ?? NO_INCIDENTS;
  return {
    needs_approval: reservation.needs_approval,
    cancelled_late: reservation.cancelled_late,
    customer_no_show_count: counts.no_show_count,
    customer_late_cancel_count: counts.late_cancel_count,
  };
}
