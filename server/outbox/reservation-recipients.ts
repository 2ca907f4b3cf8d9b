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

/**
 * The addresses a reservation can reach: the customer by e-mail and LINE, the assigned staff by LINE, and after a
 * move to another staff member, the one it was taken from (their day changes too).
 */
type ReservationAudience = 'customer_email' | 'customer_line' | 'staff_line' | 'previous_staff_line';

/** A staff member's Web Push subscriptions (server/outbox/web-push.ts). */
export interface StaffPushAddresses {
  staffId: number;
  subscriptionIds: readonly number[];
}

/**
 * Which audience each change reaches, and the outbox kind of that row. The staff member is told of new, cancelled
 * and moved bookings (their day changes); a confirmation is their own act, so only the customer hears of it.
 * Whoever cancels or moves a booking (the customer or staff), both sides are told: the customer must learn the new
 * time even when the salon moved it, and the staff member serving it (after a move, possibly another one) must
 * learn it even when they moved it from another device.
 */
const RESERVATION_NOTIFICATION_MATRIX: Record<
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
  rescheduled: {
    customer_email: 'reservation_rescheduled',
    customer_line: 'reservation_rescheduled',
    staff_line: 'staff_reservation_rescheduled',
    previous_staff_line: 'staff_reservation_rescheduled',
  },
};

export interface ReservationAddresses {
  /** The e-mail stored on the reservation; blank for a walk-in who gave none. */
  customerEmail: string;
  /** The customer's LINE user id; null when not linked. */
  customerLineUserId: string | null;
  /** The assigned staff member's LINE user id; null when not linked. */
  staffLineUserId: string | null;
  /** After a move to another staff member: the LINE user id of the one it was with (absent otherwise). */
  previousStaffLineUserId?: string | null;
  /**
   * The assigned (and after a handover, the previous) staff member's browsers. A staff member with at least one is
   * told by Web Push on each of them instead of by LINE: staff read notices on the device they work on, and every
   * LINE push counts against the salon's monthly LINE limit (line-budget.ts), which customers' messages need more.
   */
  staffPush?: StaffPushAddresses;
  previousStaffPush?: StaffPushAddresses;
}

interface ReservationRecipient {
  audience: ReservationAudience;
  channel: OutboxChannel;
  kind: NotificationKind;
  /** An e-mail address, a LINE user id, or (webpush) a staff_push_subscriptions id. */
  recipient: string;
  /** webpush rows: the staff member the notice is for. */
  staffId?: number;
}

const ORDER: readonly ReservationAudience[] = ['customer_email', 'customer_line', 'staff_line', 'previous_staff_line'];

/**
 * The rows one change queues: the matrix's audiences that have an address, in a fixed order (customer e-mail,
 * customer LINE, staff LINE, previous staff LINE). No address means no row, never a row that can only fail, and
 * one LINE account is never sent the same change twice. A staff audience with subscribed browsers gets one webpush
 * row per browser and no LINE row.
 */
export function reservationRecipients(
  event: ReservationEvent,
  addresses: ReservationAddresses,
): ReservationRecipient[] {
  const address: Record<ReservationAudience, string | null> = {
    customer_email: addresses.customerEmail.trim() || null,
    customer_line: addresses.customerLineUserId || null,
    staff_line: addresses.staffLineUserId || null,
    previous_staff_line:
      addresses.previousStaffLineUserId && addresses.previousStaffLineUserId !== addresses.staffLineUserId
        ? addresses.previousStaffLineUserId
        : null,
  };
  const push: Partial<Record<ReservationAudience, StaffPushAddresses>> = {
    staff_line: addresses.staffPush,
    previous_staff_line:
      addresses.previousStaffPush && addresses.previousStaffPush.staffId !== addresses.staffPush?.staffId
        ? addresses.previousStaffPush
        : undefined,
  };
  const rows: ReservationRecipient[] = [];
  for (const audience of ORDER) {
    const kind = RESERVATION_NOTIFICATION_MATRIX[event][audience];
    const browsers = push[audience];
    if (kind && browsers && browsers.subscriptionIds.length > 0) {
      for (const id of browsers.subscriptionIds) {
        rows.push({ audience, channel: 'webpush', kind, recipient: String(id), staffId: browsers.staffId });
      }
      continue;
    }
    const recipient = address[audience];
    if (!kind || !recipient) continue;
    rows.push({ audience, channel: audience === 'customer_email' ? 'email' : 'line', kind, recipient });
  }
  return rows;
}
