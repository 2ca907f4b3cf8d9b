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
 * The sending is worker-delivery.ts; the reminders, rebooking prompts and waitlist offers the loop queues are
 * worker-periodic.ts; this file is the polling loop that runs them.
 * E-mail delivery is at-least-once: only a send that succeeded at the SMTP server but whose result was never
 * recorded (a crash between the two) is sent again.
 */
import type { Database } from '../db/client';
import type { LinePusher } from '../integrations/line/messaging';
import type { Mailer } from '../integrations/mail/mailer';
import type { WebPushSender } from '../integrations/web-push/sender';
import { drainDue, type DeliveryContext, type DrainResult, type OutboxLogger } from './worker-delivery';
import {
  periodicWork,
  runDuePeriodicWork,
  sweepWaitlistOffers,
  type ReminderLoopOptions,
  type WaitlistLoopOptions,
} from './worker-periodic';

export type { OutboxLogger } from './worker-delivery';

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
  /**
   * How long a wake() waits before its poll, so that the commits of that moment share one (default 100 ms): each
   * poll costs the same few statements (the claim, an event expansion, the sent marks, the waitlist sweep) whether
   * it carries one booking's messages or twenty (docs/BENCHMARKS.md, issue 35). A message goes that much later.
   */
  wakeDelayMs?: number;
  /**
   * Rows claimed (and sent side by side) at once. Default 25: each batch costs the same six statements (claim, render,
   * LINE budget, the dev stores or none, settle) whatever its size, which under a rush of bookings was most of a
   * booking's database work on PostgreSQL (docs/BENCHMARKS.md); and the batch ends within one send timeout however
   * many it holds. Out of a rush a batch holds what came since the last poll, usually one or two.
   */
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
  waitlist?: WaitlistLoopOptions;
  /** Sends the `webpush` rows (staff browsers, web-push.ts); absent: such rows fail. */
  webPush?: WebPushSender;
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

const noopLogger: OutboxLogger = { info() {}, warn() {}, error() {} };

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const wakeDelayMs = options.wakeDelayMs ?? 100;
  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires (epoch ms). */
  let timerDueAt = 0;
  let inFlight: Promise<void> | null = null;
  let wakeRequested = false;
  const ctx = deliveryContext(options, () => stopping);
  const periodic = periodicWork(options);

  async function tick(): Promise<void> {
    try {
      await runDuePeriodicWork(ctx, periodic);
      await drainDue(ctx);
    } catch (error) {
      // The database is away: try again at the next poll.
      ctx.logger.error({ err: (error as Error).message }, 'outbox poll failed');
    }
  }

  function schedule(delayMs: number) {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timerDueAt = Date.now() + delayMs;
    timer = setTimeout(() => {
      timer = null;
      wakeRequested = false;
      inFlight = tick().finally(() => {
        inFlight = null;
        schedule(wakeRequested ? wakeDelayMs : pollIntervalMs);
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
    async drainOnce() {
      await sweepWaitlistOffers(ctx, periodic);
      return drainDue(ctx);
    },
    wake() {
      // A cancel or move may have freed a start someone waits for, and a booking may close someone's entry: the
      // next poll sweeps the waitlist. Wakes within wakeDelayMs, and those that arrive while a poll runs, share one
      // poll, so under load this is one sweep per poll, not one per booking.
      periodic.waitlistSweepRequested = true;
      if (!running) return;
      if (inFlight) wakeRequested = true;
      // A poll already due within the delay carries this wake too: later wakes never postpone it.
      else if (!timer || timerDueAt > Date.now() + wakeDelayMs) schedule(wakeDelayMs);
    },
    get running() {
      return running;
    },
  };
}

/** The options with their defaults, and the worker's stopping flag, as sending reads them. */
function deliveryContext(options: OutboxWorkerOptions, stopping: () => boolean): DeliveryContext {
  const sendTimeoutMs = options.sendTimeoutMs ?? 10_000;
  return {
    db: options.db,
    mailer: options.mailer,
    line: options.line,
    webPush: options.webPush,
    publicUrl: options.publicUrl,
    timeZone: options.timeZone,
    now: options.now ?? (() => new Date()),
    logger: options.logger ?? noopLogger,
    batchSize: options.batchSize ?? 25,
    leaseMs: options.leaseMs ?? Math.max(60_000, 3 * sendTimeoutMs),
    sendTimeoutMs,
    backoffBaseMs: options.backoffBaseMs ?? 2000,
    backoffMaxMs: options.backoffMaxMs ?? 60 * 60 * 1000,
    maxAttempts: options.maxAttempts ?? 20,
    stopping,
  };
}
