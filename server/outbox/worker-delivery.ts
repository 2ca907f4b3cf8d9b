/**
 * Sending what is due (the outbox worker, worker.ts, says how instances share the table): batches claimed under a
 * lease, each row sent through its channel within the send time limit, then its outcome recorded: sent, skipped,
 * diverted to e-mail over the LINE budget, retried with backoff, or failed for good.
 */
import type { Database } from '../db/client';
import { LinePushError, type LinePusher } from '../integrations/line/messaging';
import type { Mailer } from '../integrations/mail/mailer';
import type { WebPushSender } from '../integrations/web-push/sender';
import { divertOverBudget, releasePushes, reserveBatchPushes, reservePushes, salonMonth } from './line-budget';
import {
  claimDueNotifications,
  isDeferredPayload,
  isEmailPayload,
  isLinePayload,
  isMulticastPayload,
  markNotificationFailed,
  markNotificationsSent,
  type EmailPayload,
  type LineMessage,
  type OutboxRow,
} from './outbox';
import { renderReminderAtSendTime } from './reminders';
import { expandReservationEvents, isReservationEvent } from './reservation-events';
import { deliverWebPush } from './web-push';

/** pino's (and so Fastify's) logger fits. */
export interface OutboxLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface DrainResult {
  sent: number;
  skipped: number;
  retried: number;
  failed: number;
}

/** The worker's settings with their defaults filled in, and its state as sending needs it (createOutboxWorker). */
export interface DeliveryContext {
  db: Database;
  mailer: Mailer;
  line: LinePusher;
  webPush: WebPushSender | undefined;
  publicUrl: string;
  timeZone: string;
  now: () => Date;
  logger: OutboxLogger;
  /** Rows claimed (and sent side by side) at once, and how long a claim holds them. */
  batchSize: number;
  leaseMs: number;
  sendTimeoutMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxAttempts: number;
  /** True while the worker stops: an outcome that cannot be recorded is not retried then. */
  stopping(): boolean;
}

/** Tries to record one outcome: waits of 0.25, 0.5, 1, 2 and 4 s between them. */
const RECORD_ATTEMPTS = 6;

class SendTimeoutError extends Error {
  constructor(ms: number) {
    super(`send timed out after ${ms} ms`);
    this.name = 'SendTimeoutError';
  }
}

/** Not worth retrying: the payload is unusable. */
class PermanentError extends Error {
  readonly permanent = true;
}

type Delivery = { skipped: string } | { delivered: true } | { overBudget: true };

/**
 * Sends one row and records what came of it in `result`; never throws (a failure is a retry or a failed row). A
 * delivered row's id goes to the batch's `delivered`, marked sent with the rest of its batch (drainDue).
 */
async function processRow(ctx: DeliveryContext, batch: Batch, row: OutboxRow, result: DrainResult) {
  let delivery: Delivery;
  try {
    delivery = await withTimeout(deliver(ctx, batch, row), ctx.sendTimeoutMs);
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

async function deliver(ctx: DeliveryContext, batch: Batch, row: OutboxRow): Promise<Delivery> {
  const { db, line } = ctx;
  let email: EmailPayload | null = null;
  let messages: LineMessage[] | null = null;
  if (row.channel === 'webpush') return deliverWebPush(db, ctx.webPush, row, ctx.now());
  if (row.channel === 'line' && isMulticastPayload(row.payload)) {
    const { to } = row.payload;
    if (to.length === 0) return { skipped: 'no recipients' };
    if (!line.multicast) throw new PermanentError('this LINE transport cannot multicast');
    if (!(await withinBudget(ctx, batch, row))) return { overBudget: true };
    await line.multicast({ to, messages: row.payload.messages, retryKey: row.retry_key });
    return { delivered: true };
  }
  if (isDeferredPayload(row.payload)) {
    const rendered = await renderReminderAtSendTime(db, row, {
      now: ctx.now(),
      publicUrl: ctx.publicUrl,
      timeZone: ctx.timeZone,
    });
    if ('skip' in rendered) return { skipped: rendered.skip };
    if (rendered.channel === 'email') email = rendered.email;
    else messages = rendered.messages;
  } else if (row.channel === 'email' && isEmailPayload(row.payload)) {
    email = row.payload;
  } else if (row.channel === 'line' && isLinePayload(row.payload)) {
    messages = row.payload.messages;
  }
  if (row.channel === 'email' && email) {
    await ctx.mailer.send({ to: row.recipient, subject: email.subject, text: email.text });
  } else if (row.channel === 'line' && messages) {
    if (!(await withinBudget(ctx, batch, row))) return { overBudget: true };
    await line.push({ to: row.recipient, messages, retryKey: row.retry_key });
  } else {
    throw new PermanentError(`unusable ${row.channel} payload`);
  }
  return { delivered: true };
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
  const message = error instanceof Error ? error.message : String(error);
  const permanent = (error as { permanent?: unknown }).permanent === true;
  const giveUp = permanent || row.attempts >= ctx.maxAttempts;
  const retryAt = giveUp ? null : new Date(ctx.now().getTime() + backoffMs(ctx, row.attempts));
  // LINE answered that it will never take this message: it was not counted there either.
  if (error instanceof LinePushError && error.permanent && error.status !== null) {
    await recordOutcome(ctx, [row.id], () => releasePushes(ctx.db, row));
  }
  await recordOutcome(ctx, [row.id], () => markNotificationFailed(ctx.db, row, message.slice(0, 1000), retryAt));
  if (giveUp) {
    result.failed += 1;
    ctx.logger.error({ ...logContext(row), err: message }, 'notification failed for good');
  } else {
    result.retried += 1;
    ctx.logger.warn({ ...logContext(row), err: message, retryAt }, 'notification not sent; will retry');
  }
}

function backoffMs(ctx: DeliveryContext, attempts: number): number {
  const exponential = ctx.backoffBaseMs * 2 ** Math.max(0, attempts - 1);
  // Up to 10% jitter, so that instances recovering from one outage do not retry in lockstep.
  return Math.min(ctx.backoffMaxMs, exponential) * (1 + Math.random() * 0.1);
}

/**
 * Records a send's outcome, retrying a few times over about 7 seconds: the send already happened, and an
 * outcome that is never recorded leaves the row 'sending' until its lease runs out, when it is sent again (a
 * duplicate e-mail after every short database outage). A longer outage still ends in that retry.
 */
async function recordOutcome(ctx: DeliveryContext, ids: readonly number[], write: () => Promise<void>) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await write();
      return;
    } catch (error) {
      if (attempt >= RECORD_ATTEMPTS || ctx.stopping()) {
        ctx.logger.error({ ids, err: (error as Error).message }, 'could not record a notification outcome');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (attempt - 1)));
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SendTimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Claims and sends batches until nothing is due now (or the worker stops). */
export async function drainDue(ctx: DeliveryContext): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, skipped: 0, retried: 0, failed: 0 };
  while (!ctx.stopping()) {
    const claimed = await claimDueNotifications(ctx.db, { now: ctx.now(), leaseMs: ctx.leaseMs, limit: ctx.batchSize });
    if (claimed.length === 0) break;
    const sentBefore = result.sent;
    // A booking's event rows become its messages, sent in this same batch (reservation-events.ts).
    const rows = await withEventsExpanded(ctx, claimed, result);
    // Side by side: the whole batch ends within about one send timeout, well inside the lease. Its delivered rows
    // are then marked sent in one statement (one per row cost a booking's messages about a third of a millisecond
    // each on PGlite, docs/BENCHMARKS.md); a crash before the mark sends them again, as at-least-once allows.
    const batch: Batch = { budget: await batchBudget(ctx, rows), delivered: [] };
    await Promise.all(rows.map((row) => processRow(ctx, batch, row, result)));
    const { delivered } = batch;
    if (delivered.length > 0) {
      await recordOutcome(ctx, delivered, () => markNotificationsSent(ctx.db, delivered, ctx.now()));
    }
    // A batch that was not full and went out whole was everything due: no claim that would find nothing (under
    // load, one statement per poll). Rows queued meanwhile wake the worker (wake()); a retry or a row diverted to
    // e-mail may be due at once, so after those the loop claims again.
    if (claimed.length < ctx.batchSize && result.sent - sentBefore === rows.length) break;
  }
  return result;
}

/**
 * The claimed rows to send: the messages, and the messages the reservation events among them expand into (all of
 * the batch's events together, reservation-events.ts). An expansion that fails (the database) is retried like a
 * failed send.
 */
async function withEventsExpanded(ctx: DeliveryContext, claimed: OutboxRow[], result: DrainResult) {
  const events = claimed.filter(isReservationEvent);
  if (events.length === 0) return claimed;
  const messages = claimed.filter((row) => !isReservationEvent(row));
  try {
    const expansion = await expandReservationEvents(ctx.db, events, {
      now: ctx.now(),
      leaseMs: ctx.leaseMs,
      publicUrl: ctx.publicUrl,
      timeZone: ctx.timeZone,
    });
    result.failed += expansion.failed;
    if (expansion.failed > 0) {
      ctx.logger.error({ events: expansion.failed }, 'reservation events failed: reservation gone or payload unusable');
    }
    return [...messages, ...expansion.messages];
  } catch (error) {
    await Promise.all(events.map((row) => recordFailure(ctx, row, error, result)));
    return messages;
  }
}
