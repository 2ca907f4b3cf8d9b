/**
 * A customer's booking queues its messages as ONE outbox row, a reservation event (book_reservation(), migration
 * 0027; docs/decisions/0023-booking-messages-expanded-by-the-worker.md): the booking is then one statement. The
 * worker expands such rows here into the messages queueReservationNotifications would have queued in the booking's
 * transaction (reservation-notifications.ts renders them: one place for who gets what and how it reads), from the
 * reservation as booked (the event carries the row; it must still exist) and the context the booking read: the
 * salon's contact lines, the LINE user ids, the staff member's Web Push subscriptions. An event is never sent to
 * anyone itself. A batch's events cost two statements: one read, one write.
 */
import { getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { reservations } from '../db/schema';
import { insertClaimedForEvents, intArray, markNotificationFailed, type OutboxRow } from './outbox';
import { notificationContext, reservationNotifications } from './reservation-notifications';
import type { SalonContactLines } from './templates';

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
 * Expands claimed event rows: reads what their messages need (one statement for the batch), fails the events that
 * name no reservation (with the reason), then in ONE statement marks the others sent, only while this claim still
 * holds them (the attempt count fences off a worker whose lease ran out), and inserts the messages of the events it
 * marked. A crash before that statement leaves the events claimed until their lease runs out, then expanded again;
 * after it, the messages exist: exactly once.
 */
export async function expandReservationEvents(
  db: Database,
  events: OutboxRow[],
  options: { now: Date; leaseMs: number; publicUrl: string; timeZone: string },
): Promise<Expansion> {
  const booked = events.flatMap((row) => {
    const payload = payloadOf(row);
    return payload ? [{ row, event: payload.event, booked: asBooked(payload.reservation) }] : [];
  });
  const inputs = await notificationInputs(
    db,
    booked.map(({ booked: reservation }) => reservation),
  );
  const expandable = booked.filter(({ booked: reservation }) => inputs.has(reservation.id));
  for (const row of events) {
    if (expandable.some((item) => item.row.id === row.id)) continue;
    const payload = payloadOf(row);
    const reason = payload
      ? `reservation ${payload.reservation_id} no longer exists`
      : 'unusable reservation event payload';
    await markNotificationFailed(db, row, reason, null);
  }
  const messages = expandable.flatMap(({ row, event, booked: reservation }) => {
    const { contact, browsers, ...names } = inputs.get(reservation.id)!;
    const context = notificationContext(
      { ...reservation, ...names },
      { contact },
      new Map(browsers.length > 0 ? [[reservation.staff_id, browsers]] : []),
      options,
    );
    return reservationNotifications(event, context).map((message) => ({ ...message, eventId: row.id }));
  });
  return {
    messages: await insertClaimedForEvents(
      db,
      expandable.map(({ row }) => row),
      messages,
      { ...options, note: 'expanded into its messages' },
    ),
    failed: events.length - expandable.length,
  };
}

/** What one booked row's messages need besides the row itself. */
interface NotificationInputs {
  salon_name: string;
  staff_name: string;
  staff_line_user_id: string | null;
  customer_line_user_id: string | null;
  contact: SalonContactLines;
  /** The booked staff member's Web Push subscriptions, oldest first (an empty list: none). */
  browsers: number[];
}

/**
 * One statement for a batch: for each booked row whose reservation still exists, the salon's name and contact lines,
 * the customer's LINE user id, and the name, LINE user id and Web Push subscriptions of the staff member it was
 * booked with. By reservation id.
 */
async function notificationInputs(db: Database, booked: ReservationRow[]): Promise<Map<number, NotificationInputs>> {
  if (booked.length === 0) return new Map();
  const ids = intArray(booked.map((row) => row.id));
  const staffIds = intArray(booked.map((row) => row.staff_id));
  const result = await db.execute(sql`
    select b.reservation_id, sa.name as salon_name, sa.phone_number, sa.address, sa.map_url, sa.opening_hours_text,
           c.line_user_id as customer_line_user_id, st.full_name as staff_name, st.line_user_id as staff_line_user_id,
           coalesce((select json_agg(p.id order by p.id) from staff_push_subscriptions p where p.staff_id = b.staff_id),
                    '[]') as browsers
      from unnest(${ids}::int[], ${staffIds}::int[]) as b(reservation_id, staff_id)
      join reservations r on r.id = b.reservation_id
      join salons sa on sa.id = r.salon_id
      join customers c on c.id = r.customer_id
      join staff_users st on st.id = b.staff_id`);
  const rows = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  return new Map(
    rows.map((row) => [
      Number(row.reservation_id),
      {
        salon_name: row.salon_name as string,
        staff_name: row.staff_name as string,
        staff_line_user_id: row.staff_line_user_id as string | null,
        customer_line_user_id: row.customer_line_user_id as string | null,
        contact: {
          phone_number: row.phone_number as string,
          address: row.address as string,
          map_url: row.map_url as string,
          opening_hours_text: row.opening_hours_text as string,
        },
        browsers: (typeof row.browsers === 'string' ? JSON.parse(row.browsers) : row.browsers) as number[],
      },
    ]),
  );
}
