/**
 * A booking's messages sent straight from its event (docs/decisions/0025-booking-messages-sent-from-the-event.md):
 * the claimed events of a batch are rendered (reservation-events.ts, one read), their LINE pushes counted on the
 * event rows (one call of reserve_line_pushes(), line-budget.ts), their messages sent side by side, and then ONE
 * statement settles the events and stores each message as a row with what became of it. A message that went is
 * stored without its text (the event renders it again); one still to be tried (a failed send, a push over the
 * month's LINE budget) keeps it, and the worker then treats that row like any other.
 *
 * At least once: a crash before the settling statement leaves the events claimed until their lease runs out, and
 * they are sent again (a LINE push with the same retry key, eventMessageRetryKey, which LINE drops as a repeat).
 */
import {
  afterFailure,
  recordOutcome,
  refusedByLineForGood,
  sendWithinLimit,
  type Delivery,
  type DeliveryContext,
  type DrainResult,
} from './channel-send';
import { releaseEventPushes, reserveBatchPushes, salonMonth } from './line-budget';
import { settleEvents, type EventMessageRecord, type NewNotification, type OutboxRow } from './outbox';
import type { SentFromEvent } from './payloads';
import { eventMessageRetryKey, renderReservationEvents, type RenderedEvent } from './reservation-events';

/** One message of an event on its way: what is sent (`row`, as a stored row would carry it) and from which event. */
interface EventSend {
  event: OutboxRow;
  /** Which of the event's messages (0-based, in reservationNotifications' order). */
  index: number;
  message: NewNotification;
  row: OutboxRow;
}

type SendOutcome = Delivery | { error: unknown };

/**
 * Sends the messages of claimed reservation events and settles the events (above). Counts what came of each
 * message in `result`. True when nothing is left to try at once. Throws only when the database fails before the
 * events were settled: the caller retries the events.
 */
export async function deliverReservationEvents(
  ctx: DeliveryContext,
  events: OutboxRow[],
  result: DrainResult,
): Promise<boolean> {
  const { rendered, failed } = await renderReservationEvents(ctx.db, events, ctx);
  result.failed += failed;
  if (failed > 0)
    ctx.logger.error({ events: failed }, 'reservation events failed: reservation gone or payload unusable');
  if (rendered.length === 0) return true;
  const counted = await countPushes(ctx, rendered);
  const sends = rendered.flatMap(({ event, messages }) =>
    messages.map((message, index) => ({ event, index, message, row: sendable(event, message, index) })),
  );
  const outcomes = await Promise.all(sends.map((send) => sendOne(ctx, send, counted)));
  const records = sends.map((send, index) => record(ctx, send, outcomes[index]!, counted, result));
  const settled: { marked?: Set<number> } = {};
  const eventsSent = rendered.map(({ event }) => event);
  await recordOutcome(
    ctx,
    eventsSent.map((event) => event.id),
    async () => {
      settled.marked = await settleEvents(ctx.db, eventsSent, records, {
        now: ctx.now(),
        note: 'sent as its messages',
      });
    },
  );
  await releaseRefusedPushes(ctx, sends, outcomes, counted, settled.marked ?? new Set());
  return records.every((stored) => stored.status !== 'pending' || (stored.notBefore ?? ctx.now()) > ctx.now());
}

/**
 * The LINE budget for each event's pushes, counted on the event row (reserveBatchPushes): an event whose pushes do
 * not all fit is not pushed, and its LINE messages are stored to be decided one by one (line-budget.ts). By event
 * id: the month they were counted in, or null (over the budget). An event with no push is absent; so is every
 * event when the budget could not be read (the database): their pushes are then retried.
 */
async function countPushes(ctx: DeliveryContext, rendered: readonly RenderedEvent[]) {
  const month = salonMonth(ctx.now(), ctx.timeZone);
  const withPushes = rendered.flatMap(({ event, messages }) => {
    const pushes = messages.filter((message) => message.channel === 'line').length;
    return pushes > 0 ? [{ ...event, pushes }] : [];
  });
  const counted = new Map<number, string | null>();
  if (withPushes.length === 0) return counted;
  const decided = await reserveBatchPushes(ctx.db, withPushes, month).catch(() => new Map<number, boolean>());
  for (const event of withPushes) {
    const allowed = decided.get(event.id);
    if (allowed !== undefined) counted.set(event.id, allowed ? (event.line_push_month ?? month) : null);
  }
  return counted;
}

/** The message as the row it would be stored as, which is what the channels send (channel-send.ts). */
function sendable(event: OutboxRow, message: NewNotification, index: number): OutboxRow {
  return {
    ...event,
    salon_id: message.salonId,
    channel: message.channel,
    kind: message.kind,
    recipient: message.recipient,
    reservation_id: message.reservationId ?? null,
    payload: message.payload,
    retry_key: eventMessageRetryKey(event.retry_key, index),
    attempts: 1,
    last_error: null,
    line_push_month: null,
  };
}

async function sendOne(
  ctx: DeliveryContext,
  send: EventSend,
  counted: ReadonlyMap<number, string | null>,
): Promise<SendOutcome> {
  const pushAllowed = async () => {
    const month = counted.get(send.event.id);
    if (month === undefined) throw new Error('the LINE budget could not be read');
    return month !== null;
  };
  try {
    return await sendWithinLimit(ctx, send.row, pushAllowed);
  } catch (error) {
    return { error };
  }
}

/** A send LINE refused for good (channel-send.ts): its push was not counted there. */
function refusedByLine(outcome: SendOutcome): boolean {
  return 'error' in outcome && refusedByLineForGood(outcome.error);
}

/** How one message is stored, with what became of it; counts it in `result`. */
function record(
  ctx: DeliveryContext,
  send: EventSend,
  outcome: SendOutcome,
  counted: ReadonlyMap<number, string | null>,
  result: DrainResult,
): EventMessageRecord {
  const { message, row } = send;
  const base = { ...message, eventId: send.event.id, retryKey: row.retry_key, attempts: 1, lastError: null };
  const month = message.channel === 'line' ? (counted.get(send.event.id) ?? null) : null;
  // A message that went (or never will) is stored without its text, which its event renders again at will (the
  // event keeps the reservation as booked): the texts were most of what settling a booking wrote (decision 0025).
  const done = {
    ...base,
    payload: { sent_from_event: send.event.id, message_index: send.index } satisfies SentFromEvent,
  };
  if ('delivered' in outcome) {
    result.sent += 1;
    return { ...done, status: 'sent', linePushMonth: month };
  }
  if ('skipped' in outcome) {
    result.skipped += 1;
    return { ...done, status: 'sent', lastError: outcome.skipped, linePushMonth: month };
  }
  if ('overBudget' in outcome) {
    // Not attempted: stored due at once and uncounted, so that the budget decides it on its own (and diverts it).
    return { ...base, status: 'pending', attempts: 0, linePushMonth: null };
  }
  const { message: error, retryAt } = afterFailure(ctx, 1, outcome.error);
  const log = { event: send.event.id, kind: message.kind, channel: message.channel, err: error };
  if (retryAt === null) {
    result.failed += 1;
    ctx.logger.error(log, 'notification failed for good');
  } else {
    result.retried += 1;
    ctx.logger.warn({ ...log, retryAt }, 'notification not sent; will retry');
  }
  return {
    ...base,
    status: retryAt === null ? 'failed' : 'pending',
    notBefore: retryAt ?? undefined,
    lastError: error.slice(0, 1000),
    linePushMonth: refusedByLine(outcome) ? null : month,
  };
}

/** Gives back the counted pushes LINE refused for good, of the events this worker settled. */
async function releaseRefusedPushes(
  ctx: DeliveryContext,
  sends: readonly EventSend[],
  outcomes: readonly SendOutcome[],
  counted: ReadonlyMap<number, string | null>,
  settled: ReadonlySet<number>,
) {
  const refused = new Map<string, { salonId: number; month: string; pushes: number }>();
  sends.forEach((send, index) => {
    const month = counted.get(send.event.id);
    if (!month || !settled.has(send.event.id) || !refusedByLine(outcomes[index]!)) return;
    const key = `${send.event.salon_id}/${month}`;
    const entry = refused.get(key) ?? { salonId: send.event.salon_id, month, pushes: 0 };
    entry.pushes += 1;
    refused.set(key, entry);
  });
  for (const { salonId, month, pushes } of refused.values()) {
    await recordOutcome(ctx, [], () => releaseEventPushes(ctx.db, salonId, month, pushes));
  }
}
