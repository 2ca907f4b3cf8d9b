/**
 * A customer's booking queues its messages as ONE outbox row, a reservation event (book_reservation(), migration
 * 0027; docs/decisions/0023-booking-messages-expanded-by-the-worker.md): the booking is then one statement. The
 * worker renders such rows here into the messages queueReservationNotifications would have queued in the booking's
 * transaction (reservation-notifications.ts renders them: one place for who gets what and how it reads), from the
 * reservation as booked (the event carries the row; it must still exist) and the context the booking read: the
 * salon's contact lines, the LINE user ids, the staff member's Web Push subscriptions. An event is never sent to
 * anyone itself; event-delivery.ts sends its messages (docs/decisions/0025-booking-messages-sent-from-the-event.md).
 */
import { createHash } from 'node:crypto';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { reservations } from '../db/schema';
import { intArray, markNotificationFailed, type NewNotification, type OutboxRow } from './outbox';
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

/** One claimed event's messages, rendered (event-delivery.ts sends them). */
export interface RenderedEvent {
  event: OutboxRow;
  messages: NewNotification[];
}

/**
 * Renders claimed event rows: reads what their messages need (one statement for the batch, which also tells which
 * events this claim still holds: the attempt count fences off a worker whose lease ran out), and fails the held
 * events that name no reservation (with the reason). An event no longer held is left to the worker that holds it.
 */
export async function renderReservationEvents(
  db: Database,
  events: OutboxRow[],
  options: { publicUrl: string; timeZone: string },
): Promise<{ rendered: RenderedEvent[]; failed: number }> {
  const booked = events.flatMap((row) => {
    const payload = payloadOf(row);
    return payload ? [{ row, event: payload.event, booked: asBooked(payload.reservation) }] : [];
  });
  const inputs = await notificationInputs(db, booked);
  const rendered: RenderedEvent[] = [];
  let failed = 0;
  for (const row of events) {
    const item = booked.find((candidate) => candidate.row.id === row.id);
    const found = item ? inputs.get(row.id) : undefined;
    if (found && !found.held) continue;
    if (item && found) {
      const { contact, browsers, ...names } = found;
      const context = notificationContext(
        { ...item.booked, ...names },
        { contact },
        new Map(browsers.length > 0 ? [[item.booked.staff_id, browsers]] : []),
        options,
      );
      rendered.push({ event: row, messages: reservationNotifications(item.event, context) });
      continue;
    }
    const payload = payloadOf(row);
    const reason = payload
      ? `reservation ${payload.reservation_id} no longer exists`
      : 'unusable reservation event payload';
    await markNotificationFailed(db, row, reason, null);
    failed += 1;
  }
  return { rendered, failed };
}

/**
 * The LINE retry key of an event's `index`th message: the same on every attempt, so LINE drops a repeat of one it
 * accepted (a crash before the event was settled sends its messages again), and kept on the message's row when it
 * is stored to be retried. A UUID, as LINE requires, derived from the event's own key.
 */
export function eventMessageRetryKey(eventRetryKey: string, index: number): string {
  const hex = createHash('sha256').update(`${eventRetryKey}/${index}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What one booked row's messages need besides the row itself. */
interface NotificationInputs {
  /** Whether the event is still this claim's (its status and attempt count as claimed). */
  held: boolean;
  salon_name: string;
  staff_name: string;
  staff_line_user_id: string | null;
  customer_line_user_id: string | null;
  contact: SalonContactLines;
  /** The booked staff member's Web Push subscriptions, oldest first (an empty list: none). */
  browsers: number[];
}

/**
 * One statement for a batch: for each event whose reservation still exists, whether the claim still holds it, the
 * salon's name and contact lines, the customer's LINE user id, and the name, LINE user id and Web Push
 * subscriptions of the staff member it was booked with. By event id.
 */
async function notificationInputs(
  db: Database,
  booked: ReadonlyArray<{ row: OutboxRow; booked: ReservationRow }>,
): Promise<Map<number, NotificationInputs>> {
  if (booked.length === 0) return new Map();
  const eventIds = intArray(booked.map((item) => item.row.id));
  const attempts = intArray(booked.map((item) => item.row.attempts));
  const ids = intArray(booked.map((item) => item.booked.id));
  const staffIds = intArray(booked.map((item) => item.booked.staff_id));
  const result = await db.execute(sql`
    select b.event_id, ev.id is not null as held, sa.name as salon_name, sa.phone_number, sa.address, sa.map_url, sa.opening_hours_text,
           c.line_user_id as customer_line_user_id, st.full_name as staff_name, st.line_user_id as staff_line_user_id,
           coalesce((select json_agg(p.id order by p.id) from staff_push_subscriptions p where p.staff_id = b.staff_id),
                    '[]') as browsers
      from unnest(${eventIds}::bigint[], ${attempts}::int[], ${ids}::int[], ${staffIds}::int[])
           as b(event_id, attempts, reservation_id, staff_id)
      join reservations r on r.id = b.reservation_id
      left join notifications_outbox ev on ev.id = b.event_id and ev.attempts = b.attempts and ev.status = 'sending'
      join salons sa on sa.id = r.salon_id
      join customers c on c.id = r.customer_id
      join staff_users st on st.id = b.staff_id`);
  const rows = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  return new Map(
    rows.map((row) => [
      Number(row.event_id),
      {
        held: row.held === true,
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
