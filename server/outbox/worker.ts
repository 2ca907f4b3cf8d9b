/**
 * The outbox worker (docs/architecture.md). Every instance runs one; they share the table safely:
 * - claiming marks rows 'sending' under a lease (FOR UPDATE SKIP LOCKED), so two workers never take the same
 *   row at the same time, and a worker that dies mid-send leaves a lease that runs out and the row is retried;
 * - every send has a time limit, so a peer that never answers cannot hold the worker;
 * - a failure goes back to 'pending' with exponential backoff, and to 'failed' (visible to staff) after
 *   maxAttempts or at once when the message can never be delivered;
 * - LINE pushes carry the row's retry key on every attempt, so LINE drops a repeat of an accepted message;
 *   a row whose payload has a `to` array (a bulk-send batch) goes out as one multicast with that key;
 * - a LINE row is counted against the salon's monthly LINE budget before it is sent (line-budget.ts); at the
 *   limit it is not pushed, and a customer notice goes by e-mail instead.
 * - a `webpush` row goes to a staff browser (web-push.ts): a push service that dropped the subscription (404/410)
 *   removes it, 429/5xx are retried like any outage, other refusals fail at once.
 * E-mail delivery is at-least-once: only a send that succeeded at the SMTP server but whose result was never
 * recorded (a crash between the two) is sent again.
 */
import type { Database } from '../db/client';
import { LinePushError, type LinePusher } from '../integrations/line/messaging';
import type { Mailer } from '../integrations/mail/mailer';
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
import { enqueueDueRebookingPrompts } from './rebooking';
import { divertOverBudget, releasePushes, reservePushes, salonMonth } from './line-budget';
import { enqueueDueReminders, renderReminderAtSendTime } from './reminders';
import type { OpenStartsFinder } from '../scheduling/open-starts';
import { sweepWaitlist } from './waitlist-offers';
import { coalescedWrites } from '../coalesced-writes';
import { deliverWebPush } from './web-push';
import type { WebPushSender } from '../integrations/web-push/sender';

/** pino's (and so Fastify's) logger fits. */
export interface OutboxLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ReminderLoopOptions {
  /** How often the worker looks for reservations that need a reminder. Default 5 minutes. */
  intervalMs?: number;
  fromHour?: number;
  untilHour?: number;
}

export interface OutboxWorkerOptions {
  db: Database;
  mailer: Mailer;
  line: LinePusher;
  /** Reminders are rendered when sent: these build their links and dates. */
  publicUrl: string;
  timeZone: string;
  now?: () => Date;
  logger?: OutboxLogger;
  /** Pause between polls when idle. Default 1000. */
  pollIntervalMs?: number;
  /** Rows claimed (and sent side by side) at once. Default 10. */
  batchSize?: number;
  /** Hard limit on one send, whatever the transport's own timeouts do. Default 10 s. */
  sendTimeoutMs?: number;
  /** How long a claim holds a row; must exceed the send timeout. Default max(60 s, 3 x sendTimeoutMs). */
  leaseMs?: number;
  /** Retry n waits backoffBaseMs x 2^(n-1), capped at backoffMaxMs. Defaults 2 s and 1 hour. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Attempts before a row is 'failed'. Default 20 (about ten hours of outage with the default backoff). */
  maxAttempts?: number;
  /** Day-before reminders and 再来店のご案内, queued by the polling loop (start()); false: not by this worker. */
  reminders?: ReminderLoopOptions | false;
  /**
   * キャンセル待ち offers (waitlist-offers.ts): swept by drainOnce(), and by the polling loop after a wake() (a
   * cancel or move just committed) or every `intervalMs` (default 60 s: openings made by schedule changes).
   * Absent: this worker offers nothing.
   */
  waitlist?: { findOpenStarts: OpenStartsFinder; intervalMs?: number };
  /** Sends the `webpush` rows (staff browsers, web-push.ts); absent: such rows fail. */
  webPush?: WebPushSender;
}

export interface DrainResult {
  sent: number;
  skipped: number;
  retried: number;
  failed: number;
}

export interface OutboxWorker {
  /** Polls until stop(). */
  start(): void;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Claims and sends batches until nothing is due now (tests and scripts call it directly). */
  drainOnce(): Promise<DrainResult>;
  /** Polls at once (after a commit that queued messages) instead of at the next interval. */
  wake(): void;
  readonly running: boolean;
}

/** Tries to record one outcome: waits of 0.25, 0.5, 1, 2 and 4 s between them. */
const RECORD_ATTEMPTS = 6;

const noopLogger: OutboxLogger = { info() {}, warn() {}, error() {} };

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

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, mailer, line } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? noopLogger;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const batchSize = options.batchSize ?? 10;
  const sendTimeoutMs = options.sendTimeoutMs ?? 10_000;
  const leaseMs = options.leaseMs ?? Math.max(60_000, 3 * sendTimeoutMs);
  const backoffBaseMs = options.backoffBaseMs ?? 2000;
  const backoffMaxMs = options.backoffMaxMs ?? 60 * 60 * 1000;
  const maxAttempts = options.maxAttempts ?? 20;
  const reminders = options.reminders === false ? null : { intervalMs: 5 * 60 * 1000, ...options.reminders };

  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  let wakeRequested = false;
  let lastReminderRun = Number.NEGATIVE_INFINITY;
  let waitlistSweepRequested = true;
  let lastWaitlistSweep = Number.NEGATIVE_INFINITY;

  async function deliver(row: OutboxRow): Promise<Delivery> {
    let email: EmailPayload | null = null;
    let messages: LineMessage[] | null = null;
    if (row.channel === 'webpush') return deliverWebPush(db, options.webPush, row, now());
    if (row.channel === 'line' && isMulticastPayload(row.payload)) {
      const { to } = row.payload;
      if (to.length === 0) return { skipped: 'no recipients' };
      if (!line.multicast) throw new PermanentError('this LINE transport cannot multicast');
      if (!(await withinBudget(row))) return { overBudget: true };
      await line.multicast({ to, messages: row.payload.messages, retryKey: row.retry_key });
      return { delivered: true };
    }
    if (isDeferredPayload(row.payload)) {
      const rendered = await renderReminderAtSendTime(db, row, {
        now: now(),
        publicUrl: options.publicUrl,
        timeZone: options.timeZone,
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
      await mailer.send({ to: row.recipient, subject: email.subject, text: email.text });
    } else if (row.channel === 'line' && messages) {
      if (!(await withinBudget(row))) return { overBudget: true };
      await line.push({ to: row.recipient, messages, retryKey: row.retry_key });
    } else {
      throw new PermanentError(`unusable ${row.channel} payload`);
    }
    return { delivered: true };
  }

  /** Counts the row's pushes in this salon-local month; false when the salon's LINE plan has none left. */
  function withinBudget(row: OutboxRow): Promise<boolean> {
    return reservePushes(db, row, salonMonth(now(), options.timeZone));
  }

  function backoffMs(attempts: number): number {
    const exponential = backoffBaseMs * 2 ** Math.max(0, attempts - 1);
    // Up to 10% jitter, so that instances recovering from one outage do not retry in lockstep.
    return Math.min(backoffMaxMs, exponential) * (1 + Math.random() * 0.1);
  }

  async function processRow(row: OutboxRow, result: DrainResult): Promise<void> {
    const context = { id: row.id, kind: row.kind, channel: row.channel, attempts: row.attempts };
    let delivery: Delivery;
    try {
      delivery = await withTimeout(deliver(row), sendTimeoutMs);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = (error as { permanent?: unknown }).permanent === true;
      const giveUp = permanent || row.attempts >= maxAttempts;
      const retryAt = giveUp ? null : new Date(now().getTime() + backoffMs(row.attempts));
      // LINE answered that it will never take this message: it was not counted there either.
      if (error instanceof LinePushError && error.permanent && error.status !== null) {
        await recordOutcome([row.id], () => releasePushes(db, row));
      }
      await recordOutcome([row.id], () => markNotificationFailed(db, row, message.slice(0, 1000), retryAt));
      if (giveUp) {
        result.failed += 1;
        logger.error({ ...context, err: message }, 'notification failed for good');
      } else {
        result.retried += 1;
        logger.warn({ ...context, err: message, retryAt }, 'notification not sent; will retry');
      }
      return;
    }
    if ('overBudget' in delivery) {
      const ended: { outcome?: Awaited<ReturnType<typeof divertOverBudget>> } = {};
      await recordOutcome([row.id], async () => {
        ended.outcome = await divertOverBudget(db, row);
      });
      // By e-mail instead: not lost. Not sent at all: visible as failed, like any message that cannot go.
      if (ended.outcome === 'not_sent') result.failed += 1;
      else result.skipped += 1;
      logger.warn({ ...context, outcome: ended.outcome }, 'LINE monthly limit reached: not pushed');
    } else if ('skipped' in delivery) {
      await recordOutcome([row.id], () => markNotificationsSent(db, [row.id], now(), delivery.skipped));
      result.skipped += 1;
    } else {
      await markSent(row.id);
      result.sent += 1;
    }
  }

  /**
   * Records a send's outcome, retrying a few times over about 7 seconds: the send already happened, and an
   * outcome that is never recorded leaves the row 'sending' until its lease runs out, when it is sent again (a
   * duplicate e-mail after every short database outage). A longer outage still ends in that retry.
   */
  async function recordOutcome(ids: readonly number[], write: () => Promise<void>) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await write();
        return;
      } catch (error) {
        if (attempt >= RECORD_ATTEMPTS || stopping) {
          logger.error({ ids, err: (error as Error).message }, 'could not record a notification outcome');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (attempt - 1)));
      }
    }
  }

  /**
   * A delivered row is marked sent at once, or, while another mark is being written, together with the rows
   * delivered meanwhile (server/coalesced-writes.ts): a batch sent side by side costs a few statements, not one
   * per row. Settles once the mark is recorded or given up (recordOutcome never throws).
   */
  const markSent = coalescedWrites((ids: number[]) => recordOutcome(ids, () => markNotificationsSent(db, ids, now())));

  async function sweepWaitlistOffers(): Promise<void> {
    if (!options.waitlist) return;
    waitlistSweepRequested = false;
    lastWaitlistSweep = Date.now();
    try {
      const offered = await sweepWaitlist(db, {
        now: now(),
        timeZone: options.timeZone,
        publicUrl: options.publicUrl,
        findOpenStarts: options.waitlist.findOpenStarts,
      });
      if (offered > 0) logger.info({ entries: offered }, 'waitlist offers queued');
    } catch (error) {
      // Offers wait for the next sweep; the messages already due still go out.
      logger.error({ err: (error as Error).message }, 'waitlist sweep failed');
    }
  }

  async function drainOnce(): Promise<DrainResult> {
    await sweepWaitlistOffers();
    return drainDue();
  }

  async function drainDue(): Promise<DrainResult> {
    const result: DrainResult = { sent: 0, skipped: 0, retried: 0, failed: 0 };
    while (!stopping) {
      const rows = await claimDueNotifications(db, { now: now(), leaseMs, limit: batchSize });
      if (rows.length === 0) break;
      const sentBefore = result.sent;
      // Side by side: the whole batch ends within about one send timeout, well inside the lease.
      await Promise.all(rows.map((row) => processRow(row, result)));
      // A batch that was not full and went out whole was everything due: no claim that would find nothing (under
      // load, one statement per poll). Rows queued meanwhile wake the worker (wake()); a retry or a row diverted to
      // e-mail may be due at once, so after those the loop claims again.
      if (rows.length < batchSize && result.sent - sentBefore === rows.length) break;
    }
    return result;
  }

  async function tick(): Promise<void> {
    try {
      if (reminders && Date.now() - lastReminderRun >= reminders.intervalMs) {
        lastReminderRun = Date.now();
        const queued = await enqueueDueReminders(db, {
          now: now(),
          timeZone: options.timeZone,
          fromHour: reminders.fromHour,
          untilHour: reminders.untilHour,
        });
        if (queued > 0) logger.info({ reservations: queued }, 'reminders queued');
        // 再来店のご案内 (rebooking.ts) ride on the same loop: same interval, same once-only marking.
        const prompted = await enqueueDueRebookingPrompts(db, {
          now: now(),
          timeZone: options.timeZone,
          publicUrl: options.publicUrl,
        });
        if (prompted > 0) logger.info({ visits: prompted }, 'rebooking prompts queued');
      }
      const waitlistIntervalMs = options.waitlist?.intervalMs ?? 60_000;
      if (waitlistSweepRequested || Date.now() - lastWaitlistSweep >= waitlistIntervalMs) await sweepWaitlistOffers();
      await drainDue();
    } catch (error) {
      // The database is away: try again at the next poll.
      logger.error({ err: (error as Error).message }, 'outbox poll failed');
    }
  }

  function schedule(delayMs: number) {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      wakeRequested = false;
      inFlight = tick().finally(() => {
        inFlight = null;
        schedule(wakeRequested ? 0 : pollIntervalMs);
      });
    }, delayMs);
    timer.unref();
  }

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      schedule(0);
    },
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
      stopping = false;
    },
    drainOnce,
    wake() {
      // A cancel or move may have freed a start someone waits for, and a booking may close someone's entry: the
      // next poll sweeps the waitlist. Wakes that arrive while a poll runs share the next one, so under load this is
      // one sweep per poll, not one per booking.
      waitlistSweepRequested = true;
      if (!running) return;
      if (inFlight) wakeRequested = true;
      else schedule(0);
    },
    get running() {
      return running;
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SendTimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
