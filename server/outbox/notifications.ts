/**
 * The notifications wiring: mailer, LINE pusher and outbox worker built from the environment. buildApp()
 * makes one; server/outbox/reservation-notifications.ts is what features call to queue messages.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { Env } from '../env';
import type { LinePusher } from '../integrations/line/messaging';
import { createLinePusher } from '../integrations/line/pusher';
import { createMailer, type Mailer } from '../integrations/mail/mailer';
import { pushEndpointProblem } from '../integrations/web-push/endpoint';
import { createWebPushSender, type WebPushSender } from '../integrations/web-push/sender';
import { loadVapidKeys } from '../integrations/web-push/vapid-keys';
import { registerDevNotificationRoutes } from './dev-routes';
import { createLatestReservationSender, createReservationNotifier } from './reservation-notifications';
import type { OpenStartsFinder } from '../scheduling/open-starts';
import { createOutboxWorker, type OutboxLogger, type OutboxWorker, type OutboxWorkerOptions } from './worker';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's notifications outbox (buildApp), so that tests can drive its worker. */
    notifications: Notifications;
  }
}

/** Knobs for tests and operations; every one has a production default. */
export type NotificationsOptions = Partial<
  Pick<
    OutboxWorkerOptions,
    'pollIntervalMs' | 'batchSize' | 'leaseMs' | 'backoffBaseMs' | 'backoffMaxMs' | 'maxAttempts' | 'reminders'
  >
> & {
  /** SMTP and LINE request timeouts (default 10 s); the worker's hard limit per send is twice this. */
  sendTimeoutMs?: number;
  /** For buildApp(): false leaves the worker stopped (tests drive worker.drainOnce()). Default true. */
  autoStart?: boolean;
};

export interface Notifications {
  worker: OutboxWorker;
  mailer: Mailer;
  line: LinePusher;
  /** Staff Web Push: the VAPID public key browsers subscribe with, and which endpoints the server sends to. */
  webPush: Pick<WebPushSender, 'publicKey'> & { endpointProblem(endpoint: string): string | null };
  /** What queueReservationNotifications needs besides the reservation (the salon name comes from the caller). */
  publicUrl: string;
  timeZone: string;
  /**
   * Queues a reservation event's messages in the caller's transaction, reading the customer's LINE id there:
   * fits the reservations service's `notify` dependency. Call worker.wake() after the commit for prompt sending.
   */
  notifyReservation: ReturnType<typeof createReservationNotifier>;
  /** Queues the customer's next reservation (or "none") as a LINE push; false when they have no LINE. */
  sendLatestReservationToChat: ReturnType<typeof createLatestReservationSender>;
  /** /dev/mail and /dev/line/inbox; the caller registers them only in dev mode. */
  registerDevRoutes(app: FastifyInstance): void;
  /** Stops the worker (waiting for its batch) and closes the SMTP transport. */
  close(): Promise<void>;
}

export function createNotifications(input: {
  env: Env;
  db: Database;
  now?: () => Date;
  logger?: OutboxLogger;
  /** Default: PUBLIC_URL, else http://HOST:PORT. */
  publicUrl?: string;
  options?: NotificationsOptions;
  /** The bookable starts as booking decides them, for キャンセル待ち offers (waitlist-offers.ts); absent: none. */
  findOpenStarts?: OpenStartsFinder;
}): Notifications {
  const { env, db, options = {} } = input;
  const publicUrl = input.publicUrl ?? env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`;
  const timeoutMs = options.sendTimeoutMs ?? 10_000;
  const { sendTimeoutMs: _timeout, autoStart: _autoStart, ...workerOptions } = options;
  const mailer = createMailer(env, db, { timeoutMs });
  const line = createLinePusher(env, db, { timeoutMs, appOrigin: publicUrl });
  // Only the browsers' push services, and loopback http off production (integrations/web-push/endpoint.ts).
  const pushPolicy = { production: env.production, extraHosts: env.webPushHosts };
  const webPush = createWebPushSender({
    keys: loadVapidKeys({
      dataDir: env.dataDir,
      publicKey: env.VAPID_PUBLIC_KEY,
      privateKey: env.VAPID_PRIVATE_KEY,
      subject: env.VAPID_SUBJECT,
      publicUrl,
    }),
    policy: pushPolicy,
    timeoutMs,
  });
  const worker = createOutboxWorker({
    ...workerOptions,
    db,
    mailer,
    line,
    webPush,
    waitlist: input.findOpenStarts ? { findOpenStarts: input.findOpenStarts } : undefined,
    now: input.now,
    logger: input.logger,
    publicUrl,
    timeZone: env.SALON_TZ,
    // The transports time out first; this only catches a send that hangs outside them.
    sendTimeoutMs: timeoutMs * 2,
  });
  return {
    worker,
    mailer,
    line,
    webPush: {
      publicKey: webPush.publicKey,
      endpointProblem: (endpoint) => pushEndpointProblem(endpoint, pushPolicy),
    },
    publicUrl,
    timeZone: env.SALON_TZ,
    notifyReservation: createReservationNotifier({ publicUrl, timeZone: env.SALON_TZ }),
    sendLatestReservationToChat: createLatestReservationSender({
      db,
      publicUrl,
      timeZone: env.SALON_TZ,
      now: input.now,
    }),
    registerDevRoutes: (app) => registerDevNotificationRoutes(app, { db }),
    async close() {
      await worker.stop();
      mailer.close();
    },
  };
}
