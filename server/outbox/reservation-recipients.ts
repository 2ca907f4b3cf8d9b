/**
 * Who hears about a reservation change (docs/architecture.md#notifications-outbox), as a table with no I/O:
 * reservation-notifications.ts renders and queues one outbox row per recipient this module names.
 */
import type { NotificationKind, OutboxChannel } from './outbox';

/**
 * The reservation changes that send messages. Completing a reservation or marking a no-show sends nothing.
 * `created` is a customer's online booking (pending until staff confirm it); `created_confirmed` is a booking staff
 * made at the front desk, confirmed at once, so the customer hears the confirmation, never the acceptance.
 */
export type ReservationEvent = 'created' | 'created_confirmed' | 'confirmed' | 'cancelled' | 'rescheduled';

/** The three addresses a reservation can reach: the customer by e-mail and LINE, the assigned staff by LINE. */
export type ReservationAudience = 'customer_email' | 'customer_line' | 'staff_line';

/**
 * Which audience each change reaches, and the outbox kind of that row. The staff member is told of new and
 * cancelled bookings (their day changes); a confirmation is their own act, so only the customer hears of it.
 * Whoever cancels (the customer or staff), both sides are told.
 */
export const RESERVATION_NOTIFICATION_MATRIX: Record<
  ReservationEvent,
  Partial<Record<ReservationAudience, NotificationKind>>
> = {
  created: {
    customer_email: 'reservation_accepted',
    customer_line: 'reservation_accepted',
    staff_line: 'staff_new_reservation',
  },
  created_confirmed: {
    customer_email: 'reservation_confirmed',
    customer_line: 'reservation_confirmed',
    staff_line: 'staff_new_reservation',
  },
  confirmed: {
    customer_email: 'reservation_confirmed',
    customer_line: 'reservation_confirmed',
  },
  cancelled: {
    customer_email: 'reservation_cancelled',
    customer_line: 'reservation_cancelled',
    staff_line: 'staff_reservation_cancelled',
  },
};

export interface ReservationAddresses {
  /** The e-mail stored on the reservation; blank for a walk-in who gave none. */
  customerEmail: string;
  /** The customer's LINE user id; null when not linked. */
  customerLineUserId: string | null;
  /** The assigned staff member's LINE user id; null when not linked. */
  staffLineUserId: string | null;
}

export interface ReservationRecipient {
  audience: ReservationAudience;
  channel: OutboxChannel;
  kind: NotificationKind;
  /** An e-mail address or a LINE user id. */
  recipient: string;
}

const ORDER: readonly ReservationAudience[] = ['customer_email', 'customer_line', 'staff_line'];

/**
 * The rows one change queues: the matrix's audiences that have an address, in a fixed order (customer e-mail,
 * customer LINE, staff LINE). No address means no row, never a row that can only fail.
 */
export function reservationRecipients(
  event: ReservationEvent,
  addresses: ReservationAddresses,
): ReservationRecipient[] {
  const address: Record<ReservationAudience, string | null> = {
    customer_email: addresses.customerEmail.trim() || null,
    customer_line: addresses.customerLineUserId || null,
    staff_line: addresses.staffLineUserId || null,
  };
  const rows: ReservationRecipient[] = [];
  for (const audience of ORDER) {
    const kind = RESERVATION_NOTIFICATION_MATRIX[event][audience];
    const recipient = address[audience];
    if (!kind || !recipient) continue;
    rows.push({ audience, channel: audience === 'customer_email' ? 'email' : 'line', kind, recipient });
  }
  return rows;
}
