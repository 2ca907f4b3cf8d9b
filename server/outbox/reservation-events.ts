/**
 * A customer's booking queues its messages as ONE outbox row, a reservation event (book_reservation(), migration
 * 0027; docs/decisions/0023-booking-messages-expanded-by-the-worker.md): the booking is then one statement. The
 * worker expands such rows here into the messages queueReservationNotifications would have queued in the booking's
 * transaction (reservation-notifications.ts renders them: one place for who gets what and how it reads), from the
 * reservation as booked (the event carries the row; it must still exist) and the context the booking read: the salon's contact lines, the LINE user ids,
 * the staff member's Web Push subscriptions. An event is never sent to anyone itself.
 */
import { eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { customers, reservations, salons, staffUsers } from '../db/schema';
import { enqueueClaimedNotifications, markClaimedDone, markNotificationFailed, type OutboxRow } from './outbox';
import { notificationContext, reservationNotifications } from './reservation-notifications';
import { pushSubscriptionIdsByStaff } from './web-push';

/** The kind of an event row (its channel is 'event'). */
const RESERVATION_EVENT_KIND = 'reservation_event';

/** What book_reservation() writes into an event row's payload: the event, and the reservation as booked. */
interface ReservationEventPayload {
  event: 'created' | 'created_confirmed';
  reservation_id: number;
  /** The row as booked (to_jsonb: the table's column names, instants as ISO text). */
  reservation: Record<string, unknown>;
}

export function isReservationEvent(row: Pick<OutboxRow, 'kind' | 'channel'>): boolean {
  return row.kind === RESERVATION_EVENT_KIND || row.channel === 'event';
}

function payloadOf(row: OutboxRow): ReservationEventPayload | null {
  const payload = row.payload as Partial<ReservationEventPayload> | null;
  const known = payload?.event === 'created' || payload?.event === 'created_confirmed';
  const usable = known && Number.isInteger(payload.reservation_id) && typeof payload.reservation === 'object';
  return usable && payload.reservation !== null ? (payload as ReservationEventPayload) : null;
}

type ReservationRow = typeof reservations.$inferSelect;

/** The reservation as booked, read from its JSON as Drizzle reads its columns (instants to Dates). */
function asBooked(snapshot: Record<string, unknown>): ReservationRow {
  return Object.fromEntries(
    Object.entries(getTableColumns(reservations)).map(([key, column]) => {
      const value = snapshot[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as ReservationRow;
}

interface Expansion {
  /** The messages the events became, inserted claimed by this worker: the same drain sends them. */
  messages: OutboxRow[];
  /** Events that could not be expanded (their reservation is gone, or the payload is unusable): failed. */
  failed: number;
}

/**
 * Expands claimed event rows in ONE transaction: reads the reservations with their context, fails the events that
 * name no reservation (with the reason), marks the others sent (only while this claim still holds them: the attempt
 * count fences off a worker whose lease ran out) and inserts their messages. A crash before the commit leaves the
 * events claimed until their lease runs out, then expanded again; after it, the messages exist: exactly once.
 */
export async function expandReservationEvents(
  db: Database,
  events: OutboxRow[],
  options: { now: Date; leaseMs: number; publicUrl: string; timeZone: string },
): Promise<Expansion> {
  return db.transaction(async (tx) => {
    const payloads = new Map(events.map((row) => [row.id, payloadOf(row)]));
    const wanted = [...payloads.values()].flatMap((payload) => (payload ? [asBooked(payload.reservation)] : []));
    const { stored, staff } = await notificationNames(tx, wanted);
    const expandable: Array<{ row: OutboxRow; event: ReservationEventPayload['event']; booked: ReservationRow }> = [];
    for (const row of events) {
      const payload = payloads.get(row.id);
      const booked = payload && asBooked(payload.reservation);
      if (payload && booked && stored.has(payload.reservation_id) && staff.has(booked.staff_id)) {
        expandable.push({ row, event: payload.event, booked });
      } else {
        const reason = payload
          ? `reservation ${payload.reservation_id} no longer exists`
          : 'unusable reservation event payload';
        await markNotificationFailed(tx, row, reason, null);
      }
    }
    // Only the events this claim still holds are expanded; the update's row locks keep a second expansion of the
    // same rows (a worker whose lease ran out meanwhile) waiting until this commits, and then it finds them sent.
    const held = new Set(
      await markClaimedDone(
        tx,
        expandable.map(({ row }) => row),
        options.now,
        'expanded into its messages',
      ),
    );
    const mine = expandable.filter(({ row }) => held.has(row.id));
    const browsers = await pushSubscriptionIdsByStaff(
      tx,
      mine.map(({ booked }) => booked.staff_id),
    );
    const rows = mine.flatMap(({ event, booked }) => {
      const { contact, ...names } = stored.get(booked.id)!;
      const { full_name, line_user_id } = staff.get(booked.staff_id)!;
      const reservation = { ...booked, ...names, staff_name: full_name, staff_line_user_id: line_user_id };
      return reservationNotifications(event, notificationContext(reservation, { contact }, browsers, options));
    });
    return {
      messages: await enqueueClaimedNotifications(tx, rows, options),
      failed: events.length - expandable.length,
    };
  });
}

/**
 * What the booked rows' messages need besides the row itself, in two statements for a batch: by reservation (it
 * still exists), the salon's name and contact lines and the customer's LINE user id; by staff member (the one it
 * was booked with), the name and LINE user id.
 */
async function notificationNames(tx: Executor, booked: ReservationRow[]) {
  if (booked.length === 0) return { stored: new Map(), staff: new Map() };
  const [stored, staff] = [
    await tx
      .select({
        id: reservations.id,
        salon_name: salons.name,
        customer_line_user_id: customers.line_user_id,
        contact: {
          phone_number: salons.phone_number,
          address: salons.address,
          map_url: salons.map_url,
          opening_hours_text: salons.opening_hours_text,
        },
      })
      .from(reservations)
      .innerJoin(salons, eq(salons.id, reservations.salon_id))
      .innerJoin(customers, eq(customers.id, reservations.customer_id))
      .where(inArray(reservations.id, [...new Set(booked.map((row) => row.id))])),
    await tx
      .select({ id: staffUsers.id, full_name: staffUsers.full_name, line_user_id: staffUsers.line_user_id })
      .from(staffUsers)
      .where(inArray(staffUsers.id, [...new Set(booked.map((row) => row.staff_id))])),
  ];
  return {
    stored: new Map(stored.map(({ id, ...names }) => [id, names])),
    staff: new Map(staff.map(({ id, ...names }) => [id, names])),
  };
}
