import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { asc } from 'drizzle-orm';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGES } from '../src/shared/messages';
import type { AppContext } from './context';
import type { DatabaseHandle } from './db/client';
import { scheduleEmbeddedMaintenance } from './db/maintenance';
import { salons } from './db/schema';
import { fastifyTrustProxy, type Env } from './env';
import { projectRoot } from './paths';
import { registerAuthRoutes } from './features/auth/auth.routes';
import { createAuthService } from './features/auth/auth.service';
import { registerLineLoginRoutes } from './features/auth/line-login.routes';
import { createLineLoginService } from './features/auth/line-login.service';
import { hashPassword } from './features/auth/passwords';
import { createTokenSigner } from './features/auth/tokens';
import { createAvailabilityService } from './features/booking/availability.service';
import { registerCalendarFeedRoutes } from './features/calendar-feed/calendar-feed.routes';
import { registerPushSubscriptionRoutes } from './features/push-subscriptions/push-subscriptions.routes';
import { registerWaitlistRoutes } from './features/waitlist/waitlist.routes';
import { findOpenStarts } from './scheduling/open-starts';
import { registerKarteRoutes } from './features/karte/karte.routes';
import { createCalendarFeedService } from './features/calendar-feed/calendar-feed.service';
import { createReadCache } from './features/booking/read-cache';
import { createMediaStore } from './integrations/storage/media-store';
import { registerBookingRoutes } from './features/booking/booking.routes';
import { createEventBusFor } from './features/events/pg-event-bus';
import { registerEventRoutes } from './features/events/events.routes';
import { registerBackupChannel } from './features/health/backup-channel';
import { registerHealthRoutes } from './features/health/health.routes';
import { registerCustomerRoutes } from './features/customers/customers.routes';
import { registerLineWebhookRoutes } from './features/line-webhook/line-webhook.routes';
import { registerMenuRoutes } from './features/menu/menu.routes';
import { registerAdminReservationRoutes } from './features/reservations/reservations.admin-routes';
import { registerReservationRoutes } from './features/reservations/reservations.routes';
import { createReservationsService } from './features/reservations/reservations.service';
import { registerSalonRoutes } from './features/salon/salon.routes';
import { registerMessageRoutes } from './features/messages/messages.routes';
import { MULTIPART_LIMITS } from './features/messages/message-form';
import { changeSchedule } from './features/schedule/schedule-change';
import { registerScheduleRoutes } from './features/schedule/schedule.routes';
import { registerStaffRoutes } from './features/staff/staff.routes';
import { registerStatisticsRoutes } from './features/statistics/statistics.routes';
import { createLineEmulator } from './integrations/line/emulator';
import { createLiveLineLoginClient, type LineLoginClient } from './integrations/line/login-client';
import { lineWebhookSecret } from './integrations/line/webhook-signature';
import { createNotifications, type NotificationsOptions } from './outbox/notifications';
import { authPlugin } from './plugins/auth';
import { createBookingLimiter } from './plugins/booking-limits';
import { createLoginLimiter, loginLimitsFrom } from './plugins/login-limits';
import { clientErrorHandler, errorHandlerPlugin, frameworkErrors } from './plugins/errors';
import { idempotencyPlugin } from './plugins/idempotency';
import { inputGuardPlugin } from './plugins/input-guard';
import { logSerializers } from './logging';
import { securityHeadersPlugin } from './plugins/security-headers';

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

const defaultStaticDir = path.join(projectRoot, 'dist');

/** The whole HTTP application. server.ts runs it; tests call it directly with their own database. */
export async function buildApp(options: BuildAppOptions) {
  const { env, database } = options;
  const now = options.now ?? (() => new Date());
  const app = Fastify({
    // Request and error lines leave out personal data and link tokens (server/logging.ts).
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: logSerializers }
      : false,
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy the real client address (for rate limits) comes from X-Forwarded-For. TRUST_PROXY=true
    // means one proxy: trusting every hop would let a client name any address by sending the header itself.
    trustProxy: fastifyTrustProxy(env.trustProxy),
    routerOptions: { ignoreTrailingSlash: false },
    // Refusals that happen before any route runs answer in the app's `{ detail, code }` shape too.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const [salon] = await database.db.select({ id: salons.id }).from(salons).orderBy(asc(salons.id)).limit(1);
  if (!salon) throw new Error('No salon row: run ensureInitialData() before buildApp()');

  const tokens = createTokenSigner({
    secret: options.jwtSecret,
    accessTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTtlSeconds: env.REFRESH_TOKEN_TTL_SECONDS,
    now,
  });
  const auth = createAuthService({ db: database.db, tokens, now });
  const webhookSecret = lineWebhookSecret(env, options.jwtSecret);
  const publicUrl = env.publicUrl;
  const emulator = env.lineDevMode
    ? createLineEmulator({ db: database.db, secretSeed: options.jwtSecret, now, webhookSecret, publicUrl })
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
  const notifications = createNotifications({
    env,
    db: database.db,
    now,
    logger: app.log,
    publicUrl,
    options: options.notifications,
    // キャンセル待ち offers read the starts as booking does; `availability` is built below, before any sweep runs.
    findOpenStarts: (query) => findOpenStarts(availability, query),
  });
  const lineLogin = createLineLoginService({
    db: database.db,
    salonId: salon.id,
    line,
    auth,
    defaultRedirectUri: new URL('/callback', publicUrl).toString(),
    now,
  });
  const bookingReads = createReadCache({ ttlMs: BOOKING_READ_CACHE_TTL_MS });
  const availability = createAvailabilityService({
    db: database.db,
    salonId: salon.id,
    timeZone: env.SALON_TZ,
    now,
    cache: bookingReads,
  });
  // Live updates for the staff app: published by the reservations service after each commit.
  // On PostgreSQL they also reach the other instances' streams (LISTEN/NOTIFY); the listener runs while the app does.
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
  const reservations = createReservationsService({
    db: database.db,
    salonId: salon.id,
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
    db: database.db,
    engine: database.engine,
    salonId: salon.id,
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
    calendarFeed: createCalendarFeedService({
      db: database.db,
      salonId: salon.id,
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

  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  await app.register(securityHeadersPlugin, { line, publicUrl });
  await app.register(cookie);
  await app.register(formbody);
  // Multipart (uploads) is read part by part in the handlers that take it, within these limits.
  await app.register(multipart, { attachFieldsToBody: false, limits: MULTIPART_LIMITS });
  await app.register(rateLimit, { global: false });
  await app.register(authPlugin, { db: database.db, tokens });
  await app.register(idempotencyPlugin, { db: database.db, now });

  registerAuthRoutes(app, ctx);
  registerLineLoginRoutes(app, ctx);
  registerSalonRoutes(app, ctx);
  registerBookingRoutes(app, ctx);
  registerReservationRoutes(app, ctx);
  registerAdminReservationRoutes(app, ctx);
  registerScheduleRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerLineWebhookRoutes(app, ctx, { channelSecret: webhookSecret });
  registerCustomerRoutes(app, ctx);
  registerStaffRoutes(app, ctx);
  registerMenuRoutes(app, ctx);
  registerStatisticsRoutes(app, ctx);
  registerCalendarFeedRoutes(app, ctx);
  registerPushSubscriptionRoutes(app, ctx);
  registerWaitlistRoutes(app, ctx);
  // カルテ photo URLs are signed with a key derived from the app secret, so every instance verifies them.
  registerKarteRoutes(app, ctx, { secret: options.jwtSecret });
  registerHealthRoutes(app, ctx);
  // `npm run backup` while the server runs (embedded database only): a Unix socket in DATA_DIR.
  registerBackupChannel(app, { dataDir: env.dataDir, dump: database.dumpDataDir });
  emulator?.register(app);
  // Notifications outbox: the dev mailbox and LINE inbox pages exist only beside the emulator (they show every
  // message to anyone); the worker sends while the app is up and finishes its batch on close.
  if (env.lineDevMode) notifications.registerDevRoutes(app);
  app.decorate('notifications', notifications);
  app.decorate('bookingReads', bookingReads);
  if (options.notifications?.autoStart !== false) app.addHook('onReady', async () => notifications.worker.start());
  app.addHook('onClose', () => notifications.close());
  // PGlite runs no autovacuum: the server does its work once a night (server/db/maintenance.ts).
  const maintenance = scheduleEmbeddedMaintenance({ database, timeZone: env.SALON_TZ, now, logger: app.log });
  app.addHook('onClose', () => maintenance.stop());

  const staticDir = options.staticDir === undefined ? defaultStaticDir : options.staticDir;
  const spa = Boolean(staticDir && fs.existsSync(path.join(staticDir, 'index.html')));
  if (spa) await serveStaticFiles(app, staticDir!);
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isApi = pathname.startsWith('/api/') || pathname.startsWith('/dev/');
    // A missing file (an old client's lazy chunk after a deploy) must be a 404, not HTML with status 200.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(pathname);
    // Client-side routes (/reserve, /admin/...) are the SPA's: they all get index.html.
    if (spa && (request.method === 'GET' || request.method === 'HEAD') && !isApi && !looksLikeFile) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ detail: MESSAGES.notFound, code: 'not_found' });
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** The built SPA and its service worker. */
async function serveStaticFiles(app: App, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // Our own cache-control below: the plugin's default (public, max-age=0) would override it.
    cacheControl: false,
    // The build writes .br and .gz siblings (vite.config.ts): sent to browsers that accept them.
    preCompressed: true,
    setHeaders(res, filePath) {
      // One URL, several encodings: shared caches must keep them apart.
      res.setHeader('vary', 'accept-encoding');
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      } else {
        // index.html, sw.js and the manifest must be revalidated, or clients never see a new version.
        res.setHeader('cache-control', 'no-cache');
      }
    },
  });
}
