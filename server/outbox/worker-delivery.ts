/**
 * Sending what is due (the outbox worker, worker.ts, says how instances share the table): batches claimed under a
 * lease, each row sent through its channel within the send time limit, then its outcome recorded: sent, skipped,
 * diverted to e-mail over the LINE budget, retried with backoff, or failed for good.
 */
import {
  afterFailure,
  recordOutcome,
  refusedByLineForGood,
  sendWithinLimit,
  type Delivery,
  type DeliveryContext,
  type DrainResult,
  type OutboxLogger,
} from './channel-send';
import { deliverReservationEvents } from './event-delivery';
import { divertOverBudget, releasePushes, reserveBatchPushes, reservePushes, salonMonth } from './line-budget';
import {
  claimDueNotifications,
  isDeferredPayload,
  markNotificationFailed,
  markNotificationsSent,
  type OutboxRow,
} from './outbox';
import { isReservationEvent } from './reservation-events';

export type { DeliveryContext, DrainResult, OutboxLogger };

/**
 * Sends one row and records what came of it in `result`; never throws (a failure is a retry or a failed row). A
 * delivered row's id goes to the batch's `delivered`, marked sent with the rest of its batch (drainDue).
 */
async function processRow(ctx: DeliveryContext, batch: Batch, row: OutboxRow, result: DrainResult) {
  let delivery: Delivery;
  try {
    delivery = await sendWithinLimit(ctx, row, () => withinBudget(ctx, batch, row));
  } catch (error) {
    await recordFailure(ctx, row, error, result);
    return;
  }
  if ('overBudget' in delivery) {
    const ended: { outcome?: Awaited<ReturnType<typeof divertOverBudget>> } = {};
    await recordOutcome(ctx, [row.id], async () => {
      ended.outcome = await divertOverBudget(ctx.db, row);
    });
    // By e-mail instead: not lost. Not sent at all: visible as failed, like any message that cannot go.
    if (ended.outcome === 'not_sent') result.failed += 1;
    else result.skipped += 1;
    ctx.logger.warn({ ...logContext(row), outcome: ended.outcome }, 'LINE monthly limit reached: not pushed');
  } else if ('skipped' in delivery) {
    await recordOutcome(ctx, [row.id], () => markNotificationsSent(ctx.db, [row.id], ctx.now(), delivery.skipped));
    result.skipped += 1;
  } else {
    batch.delivered.push(row.id);
    result.sent += 1;
  }
}

function logContext(row: OutboxRow) {
  return { id: row.id, kind: row.kind, channel: row.channel, attempts: row.attempts };
}

/** What the rows of one claimed batch share: the LINE budget decided for them, and the rows delivered. */
interface Batch {
  /** Whether the LINE budget allows each row (reserveBatchPushes); a row not in it is decided on its own. */
  budget: ReadonlyMap<number, boolean>;
  delivered: number[];
}

/** Counts the row's pushes in this salon-local month; false when the salon's LINE plan has none left. */
async function withinBudget(ctx: DeliveryContext, batch: Batch, row: OutboxRow): Promise<boolean> {
  return batch.budget.get(row.id) ?? reservePushes(ctx.db, row, salonMonth(ctx.now(), ctx.timeZone));
}

/**
 * The LINE budget for the batch's LINE rows at once (reserveBatchPushes), but for reminders, which are rendered
 * when sent and may then not go at all. Should that fail (the database), each row is decided on its own as it is
 * sent, and fails there like any send.
 */
async function batchBudget(ctx: DeliveryContext, rows: readonly OutboxRow[]): Promise<ReadonlyMap<number, boolean>> {
  const line = rows.filter((row) => row.channel === 'line' && !isDeferredPayload(row.payload));
  if (line.length === 0) return new Map();
  return reserveBatchPushes(ctx.db, line, salonMonth(ctx.now(), ctx.timeZone)).catch(() => new Map());
}

/** A send that threw: back to 'pending' with backoff, or 'failed' when it can never go or has tried enough. */
async function recordFailure(ctx: DeliveryContext, row: OutboxRow, error: unknown, result: DrainResult) {
  const { message, retryAt } = afterFailure(ctx, row.attempts, error);
  // LINE answered that it will never take this message: it was not counted there either.
  if (refusedByLineForGood(error)) {
    await recordOutcome(ctx, [row.id], () => releasePushes(ctx.db, row));
  }
  await recordOutcome(ctx, [row.id], () => markNotificationFailed(ctx.db, row, message.slice(0, 1000), retryAt));
  if (retryAt === null) {
    result.failed += 1;
    ctx.logger.error({ ...logContext(row), err: message }, 'notification failed for good');
  } else {
    result.retried += 1;
    ctx.logger.warn({ ...logContext(row), err: message, retryAt }, 'notification not sent; will retry');
  }
}

/** Claims and sends batches until nothing is due now (or the worker stops). */
export async function drainDue(ctx: DeliveryContext): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, skipped: 0, retried: 0, failed: 0 };
  while (!ctx.stopping()) {
    const claimed = await claimDueNotifications(ctx.db, { now: ctx.now(), leaseMs: ctx.leaseMs, limit: ctx.batchSize });
    if (claimed.length === 0) break;
    // Side by side: the whole batch ends within about one send timeout, well inside the lease. A booking's events
    // are sent straight from the event (event-delivery.ts); everything else is a stored message.
    const events = claimed.filter(isReservationEvent);
    const [rowsWentOut, eventsWentOut] = await Promise.all([
      sendStoredRows(
        ctx,
        claimed.filter((row) => !isReservationEvent(row)),
        result,
      ),
      events.length === 0
        ? true
        : deliverReservationEvents(ctx, events, result).catch(async (error: unknown) => {
            // The database failed before the events were settled: they are retried like a failed send.
            await Promise.all(events.map((row) => recordFailure(ctx, row, error, result)));
            return false;
          }),
    ]);
    // A batch that was not full and went out whole was everything due: no claim that would find nothing (under
    // load, one statement per poll). Rows queued meanwhile wake the worker (wake()); a retry or a row diverted to
    // e-mail may be due at once, so after those the loop claims again.
    if (claimed.length < ctx.batchSize && rowsWentOut && eventsWentOut) break;
  }
  return result;
}

/**
 * Sends stored rows side by side, then marks the delivered ones sent in one statement (one per row cost a booking's
 * messages about a third of a millisecond each on PGlite, docs/BENCHMARKS.md); a crash before the mark sends them
 * again, as at-least-once allows. True when every row was delivered.
 */
async function sendStoredRows(ctx: DeliveryContext, rows: OutboxRow[], result: DrainResult): Promise<boolean> {
  if (rows.length === 0) return true;
  const batch: Batch = { budget: await batchBudget(ctx, rows), delivered: [] };
  await Promise.all(rows.map((row) => processRow(ctx, batch, row, result)));
  const { delivered } = batch;
  if (delivered.length > 0) {
    await recordOutcome(ctx, delivered, () => markNotificationsSent(ctx.db, delivered, ctx.now()));
  }
  return delivered.length === rows.length;
}
