/**
 * The notifications outbox (docs/architecture.md): every e-mail and LINE message is a row written in the same
 * transaction as the change that caused it, and sent later by the worker (worker.ts); a customer's booking writes
 * one event row instead, whose messages are stored when the worker has sent them (settleEvents). This module owns
 * every statement on the table; what a row carries is in payloads.ts.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { notificationsOutbox } from '../db/schema';
import type { LineMessage } from '../integrations/line/messaging';
import type { DeferredPayload, EmailPayload, LinePayload, MulticastPayload, NotificationPayload } from './payloads';

export type OutboxRow = typeof notificationsOutbox.$inferSelect;
export type OutboxChannel = OutboxRow['channel'];
export type { LineMessage };
export type { EmailPayload } from './payloads';

// eslint-disable-next-line import/no-unused-modules -- the list its type is read from, kept as the one source
export const NOTIFICATION_KINDS = [
  'reservation_accepted',
  'reservation_confirmed',
  'reservation_cancelled',
  'reservation_rescheduled',
  'staff_new_reservation',
  'staff_reservation_cancelled',
  'staff_reservation_rescheduled',
  'reminder',
  /** A staff member's message to one customer (send-message). */
  'staff_message',
  /** One batch of a bulk send: a multicast to at most 500 customers. */
  'bulk_message',
  /** 再来店のご案内: a service's cycle after a completed visit (rebooking.ts). */
  'rebook_prompt',
  /** A checkout's receipt sent to its customer (server/features/register/send-receipt.ts). */
  'receipt',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface NewNotification {
  salonId: number;
  channel: OutboxChannel;
  /** One of NOTIFICATION_KINDS, or another short label for a new kind of message. */
  kind: NotificationKind | (string & {});
  /** An e-mail address, a LINE user id (a label for a multicast) or a staff_push_subscriptions id (webpush). */
  recipient: string;
  reservationId?: number | null;
  payload: NotificationPayload;
  /** Not sent before this instant; default: due at once. */
  notBefore?: Date;
}

/**
 * "Due at once" whatever clock the worker runs on: the database's now() would not be due yet for a worker
 * whose clock is behind it (tests run the app on fixed clocks).
 */
const DUE_AT_ONCE = new Date(0);

/**
 * Inserts outbox rows with the caller's executor. Pass the open transaction of the change that causes the
 * message: the message then commits, or rolls back, with it.
 */
export async function enqueueNotifications(executor: Executor, rows: NewNotification[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await executor
    .insert(notificationsOutbox)
    .values(
      rows.map((row) => ({
        salon_id: row.salonId,
        channel: row.channel,
        kind: row.kind,
        recipient: row.recipient,
        reservation_id: row.reservationId ?? null,
        payload: row.payload,
        next_attempt_at: row.notBefore ?? DUE_AT_ONCE,
      })),
    )
    .returning({ id: notificationsOutbox.id });
  return inserted.map((row) => row.id);
}

/**
 * Integers as one PostgreSQL array literal (`{1,2,3}`), sent as a text parameter and cast in the statement
 * (`::int[]`): PGlite's one-call path (server/db/pglite-query.ts) takes text-like parameters only.
 */
export const intArray = (values: readonly number[]) => `{${values.join(',')}}`;

/** How one message sent straight from an event (event-delivery.ts) is stored when the event is settled. */
export interface EventMessageRecord extends NewNotification {
  eventId: number;
  retryKey: string;
  /** sent (delivered, or deliberately not: `lastError` says why), pending (to be retried at `notBefore`), failed. */
  status: 'sent' | 'pending' | 'failed';
  attempts: number;
  lastError: string | null;
  /** The month whose LINE budget the message was counted in (with its event); null: not counted. */
  linePushMonth: string | null;
}

/**
 * In ONE statement: marks claimed event rows done (sent, with `note`), only those this claim still holds (the attempt
 * count fences off a worker whose lease ran out, as in markNotificationFailed), and stores the message records of
 * the events it marked. Returns the ids of the events it marked.
 */
export async function settleEvents(
  db: Executor,
  events: ReadonlyArray<Pick<OutboxRow, 'id' | 'attempts'>>,
  records: readonly EventMessageRecord[],
  options: { now: Date; note: string },
): Promise<Set<number>> {
  if (events.length === 0) return new Set();
  const now = options.now.toISOString();
  const rows = JSON.stringify(
    records.map((record) => ({
      event_id: record.eventId,
      salon_id: record.salonId,
      channel: record.channel,
      kind: record.kind,
      recipient: record.recipient,
      reservation_id: record.reservationId ?? null,
      payload: record.payload,
      retry_key: record.retryKey,
      status: record.status,
      attempts: record.attempts,
      next_attempt_at: (record.notBefore ?? DUE_AT_ONCE).toISOString(),
      last_error: record.lastError,
      line_push_month: record.linePushMonth,
      sent_at: record.status === 'sent' ? now : null,
    })),
  );
  const result = await db.execute(sql`
    with marked as (
      update "notifications_outbox" o
         set "status" = 'sent', "sent_at" = ${now}::timestamptz, "locked_until" = null, "last_error" = ${options.note}
        from unnest(${intArray(events.map((row) => row.id))}::bigint[],
                    ${intArray(events.map((row) => row.attempts))}::int[]) as e(id, attempts)
       where o."id" = e.id and o."attempts" = e.attempts and o."status" = 'sending'
      returning o."id"),
    stored as (
      insert into "notifications_outbox" ("salon_id", "channel", "kind", "recipient", "reservation_id", "payload",
                                          "retry_key", "status", "attempts", "next_attempt_at", "last_error",
                                          "line_push_month", "sent_at")
      select m.salon_id, m.channel, m.kind, m.recipient, m.reservation_id, m.payload, m.retry_key, m.status,
             m.attempts, m.next_attempt_at, m.last_error, m.line_push_month, m.sent_at
        from jsonb_to_recordset(${rows}::jsonb)
             as m(event_id bigint, salon_id integer, channel text, kind text, recipient text, reservation_id integer,
                  payload jsonb, retry_key uuid, status text, attempts integer, next_attempt_at timestamptz,
                  last_error text, line_push_month text, sent_at timestamptz)
       where m.event_id in (select id from marked)
      returning 1)
    select id from marked`);
  return new Set((result as unknown as { rows: Array<{ id: unknown }> }).rows.map((row) => Number(row.id)));
}

/** One outbox row; see enqueueNotifications. Returns its id. */
export async function enqueueNotification(executor: Executor, row: NewNotification): Promise<number> {
  const [id] = await enqueueNotifications(executor, [row]);
  return id!;
}

/**
 * Claims up to `limit` due rows for one worker: marks them 'sending' with a lease and counts the attempt.
 * FOR UPDATE SKIP LOCKED lets several workers on one PostgreSQL claim side by side without waiting on or
 * taking each other's rows; a row whose lease has run out (its worker died mid-send) is due again.
 */
export async function claimDueNotifications(
  db: Database,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<OutboxRow[]> {
  const { now, leaseMs, limit } = options;
  const due = db
    .select({ id: notificationsOutbox.id })
    .from(notificationsOutbox)
    .where(
      and(
        inArray(notificationsOutbox.status, ['pending', 'sending']),
        lte(notificationsOutbox.next_attempt_at, now),
        or(isNull(notificationsOutbox.locked_until), lt(notificationsOutbox.locked_until, now)),
      ),
    )
    .orderBy(asc(notificationsOutbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(notificationsOutbox)
    .set({
      status: 'sending',
      locked_until: new Date(now.getTime() + leaseMs),
      attempts: sql`${notificationsOutbox.attempts} + 1`,
    })
    .where(inArray(notificationsOutbox.id, due))
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

/**
 * Sent (or deliberately not sent: `note` says why), several rows in one statement. Whoever holds a row, a
 * successful send wins.
 */
export async function markNotificationsSent(
  db: Database,
  ids: readonly number[],
  sentAt: Date,
  note?: string,
): Promise<void> {
  await db
    .update(notificationsOutbox)
    .set({ status: 'sent', sent_at: sentAt, locked_until: null, last_error: note ?? null })
    .where(and(inArray(notificationsOutbox.id, [...ids]), inArray(notificationsOutbox.status, ['pending', 'sending'])));
}

/**
 * A failed attempt: back to 'pending' at `retryAt`, or 'failed' for good when `retryAt` is null.
 * Only the claim that made this attempt may record it (the attempt count is the fencing token): if the lease
 * ran out and another worker claimed the row meanwhile, that worker's outcome counts.
 */
export async function markNotificationFailed(
  db: Executor,
  row: Pick<OutboxRow, 'id' | 'attempts'>,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .update(notificationsOutbox)
    .set(
      retryAt
        ? { status: 'pending', next_attempt_at: retryAt, locked_until: null, last_error: error }
        : { status: 'failed', locked_until: null, last_error: error },
    )
    .where(
      and(
        eq(notificationsOutbox.id, row.id),
        eq(notificationsOutbox.status, 'sending'),
        eq(notificationsOutbox.attempts, row.attempts),
      ),
    );
}

export function isEmailPayload(payload: unknown): payload is EmailPayload {
  const value = payload as Partial<EmailPayload> | null;
  return typeof value?.subject === 'string' && typeof value.text === 'string';
}

export function isLinePayload(payload: unknown): payload is LinePayload {
  const value = payload as Partial<LinePayload> | null;
  return Array.isArray(value?.messages) && value.messages.length > 0;
}

export function isMulticastPayload(payload: unknown): payload is MulticastPayload {
  const value = payload as Partial<MulticastPayload> | null;
  return isLinePayload(payload) && Array.isArray(value?.to) && value.to.every((id) => typeof id === 'string');
}

export function isDeferredPayload(payload: unknown): payload is DeferredPayload {
  return (payload as Partial<DeferredPayload> | null)?.template === 'reminder';
}
