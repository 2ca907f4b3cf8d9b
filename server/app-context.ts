/**
 * The services buildApp() (server/app.ts) builds once and hands to every route module as the AppContext
 * (server/context.ts): tokens and auth, LINE login, notifications, availability with its read cache, the live
 * event bus and the reservations service, each wired to the others here and nowhere else.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { AppContext } from './context';
import type { DatabaseHandle } from './db/client';
import type { Env } from './env';
import { createAuthService } from './features/auth/auth.service';
import { createLineLoginService } from './features/auth/line-login.service';
import { hashPassword } from './features/auth/passwords';
import { createTokenSigner } from './features/auth/tokens';
import { createAvailabilityService } from './features/booking/availability.service';
import { createReadCache, type ReadCache } from './features/booking/read-cache';
import { createCalendarFeedService } from './features/calendar-feed/calendar-feed.service';
import { createEventBusFor } from './features/events/pg-event-bus';
import { createReservationsService } from './features/reservations/reservations.service';
import { changeSchedule } from './features/schedule/schedule-change';
import { createLineEmulator } from './integrations/line/emulator';
import { createLiveLineLoginClient, type LineLoginClient } from './integrations/line/login-client';
import { lineWebhookSecret } from './integrations/line/webhook-signature';
import { createMediaStore } from './integrations/storage/media-store';
import { createNotifications, type NotificationsOptions } from './outbox/notifications';
import { createBookingLimiter } from './plugins/booking-limits';
import { createLoginLimiter, loginLimitsFrom } from './plugins/login-limits';
import { findOpenStarts } from './scheduling/open-starts';

export interface BuildAppOptions {
  env: Env;
  database: DatabaseHandle;
  jwtSecret: string;
  /** Replaces the LINE Login client (tests point the live client at a local fake). */
  lineLogin?: LineLoginClient;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** The built SPA to serve; null serves the API only. Defaults to ./dist when it exists. */
  staticDir?: string | null;
  /** Outbox worker knobs (timeouts, backoff); `autoStart: false` leaves the worker to the test (drainOnce()). */
  notifications?: NotificationsOptions;
}

/**
 * How long a cached booking read (menu, bookable dates, starts of a day) may be served: the bound on how late
 * this instance sees a schedule, menu or settings change made on another instance (docs/decisions/0004).
 */
const BOOKING_READ_CACHE_TTL_MS = 5_000;

/** Only what this module needs of the app: its logger and hooks (buildApp's typed instance fits). */
type HookedApp = Pick<FastifyInstance, 'addHook'> & { log: FastifyBaseLogger };

/**
 * Builds the AppContext and the two things buildApp registers besides it: the LINE emulator (dev mode) and the
 * webhook secret.
 */
export function buildAppContext(app: HookedApp, options: BuildAppOptions, now: () => Date, salonId: number) {
  const { env, database } = options;
  const db = database.db;
  const publicUrl = env.publicUrl;
  const tokens = createTokenSigner({
    secret: options.jwtSecret,
    accessTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    now,
  });
  const auth = createAuthService({ db, tokens, now });
  const { webhookSecret, emulator, line } = lineClients(options, now);
  const notifications = createNotifications({
    env,
    db,
    now,
    logger: app.log,
    publicUrl,
    options: options.notifications,
    // キャンセル待ち offers read the starts as booking does; `availability` is built below, before any sweep runs.
    findOpenStarts: (query) => findOpenStarts(availability, query),
  });
  const lineLogin = createLineLoginService({
    db,
    salonId,
    line,
    auth,
    defaultRedirectUri: new URL('/callback', publicUrl).toString(),
    now,
  });
  const bookingReads = createReadCache({ ttlMs: BOOKING_READ_CACHE_TTL_MS });
  const availability = createAvailabilityService({ db, salonId, timeZone: env.SALON_TZ, now, cache: bookingReads });
  const events = liveEventBus(app, database, bookingReads);
  const reservations = createReservationsService({
    db,
    salonId,
    timeZone: env.SALON_TZ,
    now,
    availability,
    notify: notifications.notifyReservation,
    afterNotify: () => notifications.worker.wake(),
    publish: events.publish,
    emailAddressesPerDay: env.BOOKING_EMAIL_ADDRESS_LIMIT,
  });
  const ctx: AppContext = {
    env,
    db,
    engine: database.engine,
    salonId,
    publicUrl,
    now,
    tokens,
    auth,
    hashPassword,
    line,
    lineLogin,
    availability,
    reads: bookingReads,
    reservations,
    changeSchedule: (scope, write) => changeSchedule(ctx, scope, write),
    events,
    sendLatestReservationToChat: async (customerId, reservation) => {
      const channel = await notifications.sendLatestReservationToChat(customerId, reservation);
      if (channel !== 'none') notifications.worker.wake();
      return channel;
    },
    notifications,
    ...limitsAndStores(options, now, salonId),
  };
  return { ctx, emulator, webhookSecret };
}

/**
 * LINE as this instance talks to it: the webhook secret, the dev emulator when no LINE channel is configured, and
 * the LINE Login client (the test's, else the emulator's, else the live one).
 */
function lineClients(options: BuildAppOptions, now: () => Date) {
  const { env } = options;
  const webhookSecret = lineWebhookSecret(env, options.jwtSecret);
  const emulator = env.lineDevMode
    ? createLineEmulator({
        db: options.database.db,
        secretSeed: options.jwtSecret,
        now,
        webhookSecret,
        publicUrl: env.publicUrl,
      })
    : null;
  const line =
    options.lineLogin ??
    emulator?.client ??
    createLiveLineLoginClient({
      authBase: env.LINE_AUTH_BASE,
      apiBase: env.LINE_API_BASE,
      channelId: env.LINE_LOGIN_CHANNEL_ID!,
      channelSecret: env.LINE_LOGIN_CHANNEL_SECRET!,
    });
  return { webhookSecret, emulator, line };
}

/**
 * Live updates for the staff app: published by the reservations service after each commit. On PostgreSQL they
 * also reach the other instances' streams (LISTEN/NOTIFY); the listener runs while the app does.
 */
function liveEventBus(app: HookedApp, database: DatabaseHandle, bookingReads: ReadCache) {
  const events = createEventBusFor(database, {
    logger: app.log,
    onListenerError: (error) => app.log.warn({ err: error }, 'event listener failed'),
  });
  app.addHook('onReady', () => events.start());
  // What customers browse is cached (read-cache.ts). Any write may change it: the cache is cleared before the
  // answer to a write of this instance leaves, and when a reservation changes on another instance (its event
  // arrives through the bus). Anything else another instance changes is seen within the cache's lifetime.
  // A route declared `changes: 'reservations'` (bookings, cancels, moves) keeps the settings: the menu, the salon
  // row and the staff list are not read again for every booking (docs/decisions/0004-booking-read-cache.md).
  events.subscribe(() => bookingReads.clearAnswers());
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD') return payload;
    if (request.routeOptions.config.changes === 'reservations') bookingReads.clearAnswers();
    else bookingReads.clear();
    return payload;
  });
  app.addHook('onClose', () => events.close());
  return events;
}

/** The calendar feed, the media store and the login and booking limits: built from the environment alone. */
function limitsAndStores(options: BuildAppOptions, now: () => Date, salonId: number) {
  const { env, database } = options;
  const publicUrl = env.publicUrl;
  return {
    calendarFeed: createCalendarFeedService({
      db: database.db,
      salonId,
      secret: options.jwtSecret,
      publicUrl,
      timeZone: env.SALON_TZ,
      now,
    }),
    media: createMediaStore({ dir: env.uploadDir, publicUrl }),
    loginLimits: createLoginLimiter({
      db: database.db,
      now,
      limits: loginLimitsFrom(env),
      secret: options.jwtSecret,
      secureCookies: publicUrl.startsWith('https:'),
    }),
    bookingLimits: createBookingLimiter({
      db: database.db,
      now,
      limits: {
        changesPerWindow: env.BOOKING_RATE_LIMIT,
        windowSeconds: env.BOOKING_RATE_WINDOW_SECONDS,
      },
    }),
  };
}
