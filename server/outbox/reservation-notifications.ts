/**
 * The messages a reservation event causes (docs/architecture.md#notifications-outbox), queued in the caller's
 * transaction.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { customers, salons } from '../db/schema';
import { lineBudgetSpent } from './line-budget';
import { enqueueNotifications, type LineMessage, type NewNotification } from './outbox';
import { pushSubscriptionIdsByStaff } from './web-push';
import { renderStaffPush } from './push-templates';
import { reservationRecipients, type ReservationEvent, type StaffPushAddresses } from './reservation-recipients';
import {
  renderCustomerEmail,
  renderCustomerLine,
  renderNoReservationLine,
  renderStaffLine,
  type CustomerTemplate,
  type RenderContext,
  type ReservationSnapshot,
  type SalonContactLines,
  type StaffTemplate,
} from './templates';

export interface ReservationNotificationContext extends RenderContext {
  /** The reservation as stored (its snapshot columns, not the live service or customer rows). */
  reservation: ReservationSnapshot & { id: number; salon_id: number; customer_email: string };
  /** The customer's LINE user id; null when not linked. */
  customerLineUserId: string | null;
  /** The assigned staff member's LINE user id; null when not linked. */
  staffLineUserId: string | null;
  /** A move's old start (the reservation row holds only the new one). */
  previousStartTime?: Date;
  /** A move to another staff member: the one it was with (their name, and their LINE user id or null). */
  previousStaff?: { name: string; lineUserId: string | null };
  /** The assigned and the previous staff member's Web Push subscriptions: they are pushed there instead of LINE. */
  staffPush?: StaffPushAddresses;
  previousStaffPush?: StaffPushAddresses;
}

const CUSTOMER_TEMPLATE: Record<ReservationEvent, CustomerTemplate> = {
  created: 'accepted',
  created_confirmed: 'confirmed',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
  rescheduled: 'rescheduled',
};

/** The staff member's message for the changes that reach them (reservation-recipients.ts). */
const STAFF_TEMPLATE: Partial<Record<ReservationEvent, StaffTemplate>> = {
  created: 'new',
  created_confirmed: 'new',
  cancelled: 'cancelled',
  rescheduled: 'rescheduled',
};

function staffTemplate(event: ReservationEvent): StaffTemplate {
  const template = STAFF_TEMPLATE[event];
  if (!template) throw new Error(`No staff LINE message for a reservation ${event}`);
  return template;
}

/**
 * Queues the messages of one reservation event with `executor` (pass the transaction that made the change).
 * Who gets what is the table of reservation-recipients.ts (acceptance, confirmation, cancellation or a move to the
 * customer by e-mail and LINE; new, cancelled and moved bookings to the assigned staff member by LINE), each only
 * where there is an address. Returns the ids of the outbox rows.
 */
export async function queueReservationNotifications(
  executor: Executor,
  event: ReservationEvent,
  context: ReservationNotificationContext,
): Promise<number[]> {
  return enqueueNotifications(executor, reservationNotifications(event, context));
}

/**
 * The outbox rows of one reservation event, rendered (queueReservationNotifications queues them; the worker inserts
 * those of a booking's event already claimed, server/outbox/reservation-events.ts).
 */
export function reservationNotifications(
  event: ReservationEvent,
  context: ReservationNotificationContext,
): NewNotification[] {
  const moved = event === 'rescheduled';
  const reservation = moved
    ? {
        ...context.reservation,
        previous_start_time: context.previousStartTime,
        previous_staff_name: context.previousStaff?.name,
      }
    : context.reservation;
  const base = { salonId: reservation.salon_id, reservationId: reservation.id };
  const template = CUSTOMER_TEMPLATE[event];
  const recipients = reservationRecipients(event, {
    customerEmail: reservation.customer_email,
    customerLineUserId: context.customerLineUserId,
    staffLineUserId: context.staffLineUserId,
    previousStaffLineUserId: moved ? context.previousStaff?.lineUserId : undefined,
    staffPush: context.staffPush,
    previousStaffPush: moved ? context.previousStaffPush : undefined,
  });
  return recipients.map(({ audience, channel, kind, recipient, staffId }) => ({
    ...base,
    channel,
    kind,
    recipient,
    payload:
      channel === 'webpush'
        ? { ...renderStaffPush(staffTemplate(event), reservation, context), staff_id: staffId ?? 0 }
        : audience === 'customer_email'
          ? renderCustomerEmail(template, reservation, context)
          : audience === 'customer_line'
            ? // With the customer's e-mail: what goes instead at the month's LINE limit (line-budget.ts).
              {
                messages: renderCustomerLine(template, reservation, context),
                email: renderCustomerEmail(template, reservation, context),
              }
            : { messages: renderStaffLine(staffTemplate(event), reservation, context) },
  }));
}

/** What a move tells besides the reservation as it now is: where it was, and with whom when that changed. */
export interface ReservationEventDetails {
  previousStartTime?: Date;
  /** `id`: the staff member's Web Push subscriptions are read with it. */
  previousStaff?: { name: string; lineUserId: string | null; id?: number };
  /**
   * The salon's contact lines as the caller read them before its transaction (its settings cache); absent, they are
   * read in the transaction. Never read from a cache inside the transaction: a cold entry would wait for a pool
   * connection while this one holds its own.
   */
  contact?: SalonContactLines;
}

/** A reservation row as the reservations feature reads it (with the salon name and the staff's LINE id). */
type NotifiableReservation = ReservationNotificationContext['reservation'] & {
  customer_id: number;
  staff_id: number;
  salon_name: string;
  staff_line_user_id: string | null;
  /** Read with the reservation, in the transaction that changed it. */
  customer_line_user_id: string | null;
};

/** The salon's contact details, read in the transaction of the change (the e-mail's signature). */
async function salonContact(executor: Executor, salonId: number): Promise<SalonContactLines | undefined> {
  const [row] = await executor
    .select({
      phone_number: salons.phone_number,
      address: salons.address,
      map_url: salons.map_url,
      opening_hours_text: salons.opening_hours_text,
    })
    .from(salons)
    .where(eq(salons.id, salonId));
  return row;
}

/**
 * queueReservationNotifications for callers that hold the stored reservation row, as read in the transaction
 * of the change. `(tx, event, reservation) => Promise<void>`, the reservations service's notify.
 */
export function createReservationNotifier(options: { publicUrl: string; timeZone: string }) {
  return async (
    executor: Executor,
    event: ReservationEvent,
    reservation: NotifiableReservation,
    details: ReservationEventDetails = {},
  ): Promise<void> => {
    const contact = details.contact ?? (await salonContact(executor, reservation.salon_id));
    // In the change's transaction, like the LINE ids: a browser subscribed before it commits is told.
    const browsers = await pushSubscriptionIdsByStaff(executor, [
      reservation.staff_id,
      details.previousStaff?.id ?? -1,
    ]);
    await queueReservationNotifications(
      executor,
      event,
      notificationContext(reservation, { ...details, contact }, browsers, options),
    );
  };
}

/**
 * What the messages of an event render from: the reservation as read in the transaction that queues them, the
 * salon's contact lines, the staff members' Web Push subscriptions (`browsers`, by staff id) and a move's details.
 */
export function notificationContext(
  reservation: NotifiableReservation,
  details: ReservationEventDetails,
  browsers: Map<number, number[]>,
  options: { publicUrl: string; timeZone: string },
): ReservationNotificationContext {
  const pushTo = (staffId: number | undefined) =>
    staffId !== undefined && browsers.has(staffId) ? { staffId, subscriptionIds: browsers.get(staffId)! } : undefined;
  return {
    contact: details.contact,
    reservation,
    staffPush: pushTo(reservation.staff_id),
    previousStaffPush: pushTo(details.previousStaff?.id),
    previousStartTime: details.previousStartTime,
    previousStaff: details.previousStaff,
    customerLineUserId: reservation.customer_line_user_id,
    staffLineUserId: reservation.staff_line_user_id,
    salonName: reservation.salon_name,
    publicUrl: options.publicUrl,
    timeZone: options.timeZone,
  };
}

/**
 * The customer's next reservation as a LINE message, or the note that there is none: what the check page pushes
 * and what a 予約確認 chat message is answered with (server/features/line-webhook).
 */
export function renderLatestReservationLine(
  reservation: NotifiableReservation | null,
  context: RenderContext,
): LineMessage[] {
  return reservation ? renderCustomerLine('latest', reservation, context) : renderNoReservationLine(context);
}

/** How the check page's notice goes: LINE, e-mail (the month's LINE pushes are spent), or not at all. */
export type LatestReservationChannel = 'line' | 'email' | 'none';

/**
 * The check page (POST /api/confirm-reservation-and-notify/): the customer's next reservation, or a note that
 * there is none, pushed to their LINE chat through the outbox. When this month's LINE pushes are spent
 * (line-budget.ts), the reservation goes by e-mail at once, so that the page can say how it was sent; without an
 * address it is not sent ('none'). Nothing is queued for a customer without LINE ('none').
 */
export function createLatestReservationSender(options: {
  db: Executor;
  publicUrl: string;
  timeZone: string;
  now?: () => Date;
}) {
  return async (customerId: number, reservation: NotifiableReservation | null): Promise<LatestReservationChannel> => {
    const [customer] = await options.db
      .select({
        line_user_id: customers.line_user_id,
        email: customers.email,
        salon_id: customers.salon_id,
        salon_name: salons.name,
      })
      .from(customers)
      .innerJoin(salons, eq(salons.id, customers.salon_id))
      .where(eq(customers.id, customerId));
    if (!customer?.line_user_id) return 'none';
    const contact = await salonContact(options.db, customer.salon_id);
    const context = {
      salonName: customer.salon_name,
      contact,
      publicUrl: options.publicUrl,
      timeZone: options.timeZone,
    };
    const base = { salonId: customer.salon_id, kind: 'latest_reservation', reservationId: reservation?.id ?? null };
    const email = reservation ? renderCustomerEmail('latest', reservation, context) : undefined;
    const now = options.now?.() ?? new Date();
    if (reservation && email && (await lineBudgetSpent(options.db, customer.salon_id, now, options.timeZone))) {
      const address = reservation.customer_email.trim() || customer.email.trim();
      if (!address) return 'none';
      await enqueueNotifications(options.db, [{ ...base, channel: 'email', recipient: address, payload: email }]);
      return 'email';
    }
    await enqueueNotifications(options.db, [
      {
        ...base,
        channel: 'line',
        recipient: customer.line_user_id,
        payload: { messages: renderLatestReservationLine(reservation, context), ...(email ? { email } : {}) },
      },
    ]);
    return 'line';
  };
}
