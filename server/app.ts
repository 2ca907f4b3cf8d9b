import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { asc } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildAppContext, type BuildAppOptions } from './app-context';
import { serveSpaAndNotFound } from './app-static';
import type { AppContext } from './context';
import type { DatabaseHandle } from './db/client';
import { scheduleEmbeddedMaintenance } from './db/maintenance';
import { salons } from './db/schema';
import { fastifyTrustProxy } from './env';
import { registerAuthRoutes } from './features/auth/auth.routes';
import { registerLineLoginRoutes } from './features/auth/line-login.routes';
import { registerCalendarFeedRoutes } from './features/calendar-feed/calendar-feed.routes';
import { registerPushSubscriptionRoutes } from './features/push-subscriptions/push-subscriptions.routes';
import { registerWaitlistRoutes } from './features/waitlist/waitlist.routes';
import { registerRegisterRoutes } from './features/register/register.routes';
import { registerKarteRoutes } from './features/karte/karte.routes';
import { registerBookingRoutes } from './features/booking/booking.routes';
import { createReadCache, type ReadCache } from './features/booking/read-cache';
import { createEventBusFor } from './features/events/pg-event-bus';
import { registerEventRoutes } from './features/events/events.routes';
import { registerBackupChannel } from './features/health/backup-channel';
import { registerHealthRoutes } from './features/health/health.routes';
import { registerCustomerRoutes } from './features/customers/customers.routes';
import { registerLineWebhookRoutes } from './features/line-webhook/line-webhook.routes';
import { registerMenuRoutes } from './features/menu/menu.routes';
import { registerAdminReservationRoutes } from './features/reservations/reservations.admin-routes';
import { registerReservationRoutes } from './features/reservations/reservations.routes';
import { registerSalonRoutes } from './features/salon/salon.routes';
import { registerMessageRoutes } from './features/messages/messages.routes';
import { MULTIPART_LIMITS } from './features/messages/message-form';
import { registerDayBoardRoutes } from './features/day-board/day-board.routes';
import { registerScheduleRoutes } from './features/schedule/schedule.routes';
import { registerStaffRoutes } from './features/staff/staff.routes';
import { registerStatisticsRoutes } from './features/statistics/statistics.routes';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, errorHandlerPlugin, frameworkErrors } from './plugins/errors';
import { idempotencyPlugin } from './plugins/idempotency';
import { inputGuardPlugin } from './plugins/input-guard';
import { logSerializers } from './logging';
import { securityHeadersPlugin } from './plugins/security-headers';

export type { BuildAppOptions } from './app-context';

/**
 * How long a cached booking read (menu, bookable dates, starts of a day) may be served: the bound on how late
 * this instance sees a schedule, menu or settings change made on another instance (docs/decisions/0004).
 */
const BOOKING_READ_CACHE_TTL_MS = 5_000;

/**
 * The whole HTTP application. server.ts runs it; tests call it directly with their own database. The services
 * are built in app-context.ts, the SPA and the not-found answer in app-static.ts; the booking read cache and the
 * live event bus, whose hooks keep the cache current, here.
 */
export async function buildApp(options: BuildAppOptions) {
  const { env, database } = options;
  const now = options.now ?? (() => new Date());
  const app = createFastify(options);

  const [salon] = await database.db.select({ id: salons.id }).from(salons).orderBy(asc(salons.id)).limit(1);
  if (!salon) throw new Error('No salon row: run ensureInitialData() before buildApp()');
  const bookingReads = createReadCache({ ttlMs: BOOKING_READ_CACHE_TTL_MS });
  const events = liveEventBus(app, database, bookingReads);
  const built = { now, salonId: salon.id, bookingReads, events };
  const { ctx, emulator, webhookSecret } = buildAppContext(app.log, options, built);
  const { notifications } = ctx;

  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  await app.register(securityHeadersPlugin, { line: ctx.line, publicUrl: ctx.publicUrl });
  await app.register(cookie);
  await app.register(formbody);
  // Multipart (uploads) is read part by part in the handlers that take it, within these limits.
  await app.register(multipart, { attachFieldsToBody: false, limits: MULTIPART_LIMITS });
  await app.register(rateLimit, { global: false });
  await app.register(authPlugin, { db: database.db, tokens: ctx.tokens });
  await app.register(idempotencyPlugin, { db: database.db, now });

  registerRoutes(app, ctx, { webhookSecret, jwtSecret: options.jwtSecret });
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

  await serveSpaAndNotFound(app, options.staticDir);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
type FastifyApp = ReturnType<typeof createFastify>;

/**
 * Live updates for the staff app: published by the reservations service after each commit. On PostgreSQL they
 * also reach the other instances' streams (LISTEN/NOTIFY); the listener runs while the app does.
 */
function liveEventBus(app: FastifyApp, database: DatabaseHandle, bookingReads: ReadCache) {
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

/** One Fastify instance with zod validation and serialisation, and the app's logging and framework errors. */
function createFastify(options: BuildAppOptions) {
  const app = Fastify({
    // Request and error lines leave out personal data and link tokens (server/logging.ts).
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: logSerializers }
      : false,
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy the real client address (for rate limits) comes from X-Forwarded-For. TRUST_PROXY=true
    // means one proxy: trusting every hop would let a client name any address by sending the header itself.
    trustProxy: fastifyTrustProxy(options.env.trustProxy),
    routerOptions: { ignoreTrailingSlash: false },
    // Refusals that happen before any route runs answer in the app's `{ detail, code }` shape too.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

/** Every feature's routes (docs/architecture.md#request-flow). */
function registerRoutes(
  app: FastifyApp,
  ctx: AppContext,
  secrets: { webhookSecret: string | null; jwtSecret: string },
) {
  registerAuthRoutes(app, ctx);
  registerLineLoginRoutes(app, ctx);
  registerSalonRoutes(app, ctx);
  registerBookingRoutes(app, ctx);
  registerReservationRoutes(app, ctx);
  registerAdminReservationRoutes(app, ctx);
  registerScheduleRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerLineWebhookRoutes(app, ctx, { channelSecret: secrets.webhookSecret });
  registerCustomerRoutes(app, ctx);
  registerStaffRoutes(app, ctx);
  registerMenuRoutes(app, ctx);
  registerStatisticsRoutes(app, ctx);
  registerCalendarFeedRoutes(app, ctx);
  registerPushSubscriptionRoutes(app, ctx);
  registerWaitlistRoutes(app, ctx);
  registerRegisterRoutes(app, ctx);
  registerDayBoardRoutes(app, ctx);
  // カルテ photo URLs are signed with a key derived from the app secret, so every instance verifies them.
  registerKarteRoutes(app, ctx, { secret: secrets.jwtSecret });
  registerHealthRoutes(app, ctx);
}
