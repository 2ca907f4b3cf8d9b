/**
 * The services buildApp() (server/app.ts) builds once and hands to every route module as the AppContext
 * (server/context.ts): tokens and auth, LINE login, notifications, availability and the reservations service,
 * each wired to the others here and nowhere else.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { AppContext } from './context';
import type { DatabaseHandle } from './db/client';
import type { Env } from './env';
import { createAuthService } from './features/auth/auth.service';
import { createLineLoginService } from './features/auth/line-login.service';
import { hashPassword } from './features/auth/passwords';
import { createTokenSigner } from './features/auth/tokens';
import { createAvailabilityService } from './features/booking/availability.service';
import type { ReadCache } from './features/booking/read-cache';
import { createCalendarFeedService } from './features/calendar-feed/calendar-feed.service';
import type { ManagedEventBus } from './features/events/pg-event-bus';
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

/** What buildApp (server/app.ts) has built before the services: the clock, the salon, the cache and the bus. */
interface Built {
  now: () => Date;
  salonId: number;
  /** The booking read cache, which buildApp clears on writes and on other instances' reservation changes. */
  bookingReads: ReadCache;
  events: ManagedEventBus;
}

/**
 * Builds the AppContext and the two things buildApp registers besides it: the LINE emulator (dev mode) and the
 * webhook secret.
 */
export function buildAppContext(
  logger: FastifyBaseLogger,
  options: BuildAppOptions,
  { now, salonId, bookingReads, events }: Built,
) {
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
    logger,
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
  const availability = createAvailabilityService({ db, salonId, timeZone: env.SALON_TZ, now, cache: bookingReads });
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
