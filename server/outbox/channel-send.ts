/**
 * Sending one message through its channel (e-mail, LINE push or multicast, Web Push), within the worker's send time
 * limit. The same for a stored outbox row (worker-delivery.ts) and for a message sent straight from a booking's
 * event (event-delivery.ts); what is recorded afterwards is the caller's.
 */
import type { Database } from '../db/client';
import { LinePushError, type LinePusher } from '../integrations/line/messaging';
import type { Mailer } from '../integrations/mail/mailer';
import type { WebPushSender } from '../integrations/web-push/sender';
import {
  isDeferredPayload,
  isEmailPayload,
  isLinePayload,
  isMulticastPayload,
  type EmailPayload,
  type LineMessage,
  type OutboxRow,
} from './outbox';
import { renderReminderAtSendTime } from './reminders';
import { deliverWebPush } from './web-push';

/** pino's (and so Fastify's) logger fits. */
export interface OutboxLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
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

export interface DrainResult {
  sent: number;
  skipped: number;
  retried: number;
  failed: number;
}

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

export type Delivery = { skipped: string } | { delivered: true } | { overBudget: true };

/**
 * Sends `row` within the send time limit. `linePushAllowed` decides the LINE budget of a push or multicast just
 * before it goes (false: not sent, `overBudget`). Throws what the channel threw (or a timeout): a retry or a failure.
 */
export function sendWithinLimit(
  ctx: DeliveryContext,
  row: OutboxRow,
  linePushAllowed: () => Promise<boolean>,
): Promise<Delivery> {
  return withTimeout(deliver(ctx, row, linePushAllowed), ctx.sendTimeoutMs);
}

async function deliver(
  ctx: DeliveryContext,
  row: OutboxRow,
  linePushAllowed: () => Promise<boolean>,
): Promise<Delivery> {
  const { db, line } = ctx;
  let email: EmailPayload | null = null;
  let messages: LineMessage[] | null = null;
  if (row.channel === 'webpush') return deliverWebPush(db, ctx.webPush, row, ctx.now());
  if (row.channel === 'line' && isMulticastPayload(row.payload)) {
    const { to } = row.payload;
    if (to.length === 0) return { skipped: 'no recipients' };
    if (!line.multicast) throw new PermanentError('this LINE transport cannot multicast');
    if (!(await linePushAllowed())) return { overBudget: true };
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
    if (!(await linePushAllowed())) return { overBudget: true };
    await line.push({ to: row.recipient, messages, retryKey: row.retry_key });
  } else {
    throw new PermanentError(`unusable ${row.channel} payload`);
  }
  return { delivered: true };
}

/** LINE answered that it will never take this message (a 4xx): it did not count the push either. */
export function refusedByLineForGood(error: unknown): boolean {
  return error instanceof LinePushError && error.permanent && error.status !== null;
}

/** What a send that threw comes to: never again (`retryAt` null: permanent, or tried enough), or again at retryAt. */
export function afterFailure(
  ctx: DeliveryContext,
  attempts: number,
  error: unknown,
): { message: string; retryAt: Date | null } {
  const message = error instanceof Error ? error.message : String(error);
  const permanent = (error as { permanent?: unknown }).permanent === true;
  if (permanent || attempts >= ctx.maxAttempts) return { message, retryAt: null };
  const exponential = ctx.backoffBaseMs * 2 ** Math.max(0, attempts - 1);
  // Up to 10% jitter, so that instances recovering from one outage do not retry in lockstep.
  const waitMs = Math.min(ctx.backoffMaxMs, exponential) * (1 + Math.random() * 0.1);
  return { message, retryAt: new Date(ctx.now().getTime() + waitMs) };
}

/** Tries to record one outcome: waits of 0.25, 0.5, 1, 2 and 4 s between them. */
const RECORD_ATTEMPTS = 6;

/**
 * Records a send's outcome, retrying a few times over about 7 seconds: the send already happened, and an
 * outcome that is never recorded leaves the row 'sending' until its lease runs out, when it is sent again (a
 * duplicate e-mail after every short database outage). A longer outage still ends in that retry.
 */
export async function recordOutcome(ctx: DeliveryContext, ids: readonly number[], write: () => Promise<void>) {
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
