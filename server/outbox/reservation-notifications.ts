/**
 * Which messages a reservation event causes (DESIGN.md §5), queued in the caller's transaction.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { customers, salons } from '../db/schema';
import { enqueueNotifications, type NewNotification } from './outbox';
import {
  renderCustomerEmail,
  renderCustomerLine,
  renderNoReservationLine,
  renderStaffLine,
  type CustomerTemplate,
  type RenderContext,
  type ReservationSnapshot,
} from './templates';

export type ReservationEvent = 'created' | 'confirmed' | 'cancelled';

export interface ReservationNotificationContext extends RenderContext {
  /** The reservation as stored (its snapshot columns, not the live service or customer rows). */
  reservation: ReservationSnapshot & { id: number; salon_id: number; customer_email: string };
  /** The customer's LINE user id; null when not linked. */
  customerLineUserId: string | null;
  /** The assigned staff member's LINE user id; null when not linked. */
  staffLineUserId: string | null;
}

const CUSTOMER_TEMPLATE: Record<ReservationEvent, CustomerTemplate> = {
  created: 'accepted',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
};

const CUSTOMER_KIND = {
  created: 'reservation_accepted',
  confirmed: 'reservation_confirmed',
  cancelled: 'reservation_cancelled',
} as const;

/**
 * Queues the messages of one reservation event with `executor` (pass the transaction that made the change):
 * - created: acceptance e-mail to the customer, LINE to the customer, LINE to the assigned staff member;
 * - confirmed: confirmation e-mail and LINE to the customer;
 * - cancelled: cancellation e-mail and LINE to the customer, LINE to the assigned staff member.
 * Each goes only where there is an address: no e-mail (walk-ins) or no linked LINE account means none.
 * Returns the ids of the outbox rows.
 */
export async function queueReservationNotifications(
  executor: Executor,
  event: ReservationEvent,
  context: ReservationNotificationContext,
): Promise<number[]> {
  const { reservation } = context;
  const base = { salonId: reservation.salon_id, reservationId: reservation.id };
  const rows: NewNotification[] = [];
  const template = CUSTOMER_TEMPLATE[event];
  const email = reservation.customer_email.trim();
  if (email) {
    rows.push({
      ...base,
      channel: 'email',
      kind: CUSTOMER_KIND[event],
      recipient: email,
      payload: renderCustomerEmail(template, reservation, context),
    });
  }
  if (context.customerLineUserId) {
    rows.push({
      ...base,
      channel: 'line',
      kind: CUSTOMER_KIND[event],
      recipient: context.customerLineUserId,
      payload: { messages: renderCustomerLine(template, reservation, context) },
    });
  }
  if (context.staffLineUserId && event !== 'confirmed') {
    rows.push({
      ...base,
      channel: 'line',
      kind: event === 'created' ? 'staff_new_reservation' : 'staff_reservation_cancelled',
      recipient: context.staffLineUserId,
      payload: { messages: renderStaffLine(event === 'created' ? 'new' : 'cancelled', reservation, context) },
    });
  }
  return enqueueNotifications(executor, rows);
}

/** A reservation row as the reservations feature reads it (with the salon name and the staff's LINE id). */
export type NotifiableReservation = ReservationNotificationContext['reservation'] & {
  customer_id: number;
  salon_name: string;
  staff_line_user_id: string | null;
  /** Read with the reservation, in the transaction that changed it. */
  customer_line_user_id: string | null;
};

/**
 * queueReservationNotifications for callers that hold the stored reservation row, as read in the transaction
 * of the change. `(tx, event, reservation) => Promise<void>`, the reservations service's notify.
 */
export function createReservationNotifier(options: { publicUrl: string; timeZone: string }) {
  return async (executor: Executor, event: ReservationEvent, reservation: NotifiableReservation): Promise<void> => {
    await queueReservationNotifications(executor, event, {
      reservation,
      customerLineUserId: reservation.customer_line_user_id,
      staffLineUserId: reservation.staff_line_user_id,
      salonName: reservation.salon_name,
      publicUrl: options.publicUrl,
      timeZone: options.timeZone,
    });
  };
}

/**
 * The check page (POST /api/confirm-reservation-and-notify/): the customer's next reservation, or a note that
 * there is none, pushed to their LINE chat through the outbox. Nothing is queued for a customer without LINE.
 */
export function createLatestReservationSender(options: { db: Executor; publicUrl: string; timeZone: string }) {
  return async (customerId: number, reservation: NotifiableReservation | null): Promise<boolean> => {
    const [customer] = await options.db
      .select({ line_user_id: customers.line_user_id, salon_id: customers.salon_id, salon_name: salons.name })
      .from(customers)
      .innerJoin(salons, eq(salons.id, customers.salon_id))
      .where(eq(customers.id, customerId));
    if (!customer?.line_user_id) return false;
    const context = { salonName: customer.salon_name, publicUrl: options.publicUrl, timeZone: options.timeZone };
    await enqueueNotifications(options.db, [
      {
        salonId: customer.salon_id,
        channel: 'line',
        kind: 'latest_reservation',
        recipient: customer.line_user_id,
        reservationId: reservation?.id ?? null,
        payload: {
          messages: reservation ? renderCustomerLine('latest', reservation, context) : renderNoReservationLine(context),
        },
      },
    ]);
    return true;
  };
}
