import { PassThrough } from 'node:stream';
import { reachesBookingOf } from '../../db/scope';
import { eventStreamQuerySchema, type ReservationChangeEvent } from '#src/shared/schemas/events';
import type { AppContext } from '../../context';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';

/** Proxies and load balancers drop connections that stay silent for about a minute. */
const HEARTBEAT_MS = 25_000;
/** What an EventSource-style client waits before reconnecting after the stream ends. */
const RETRY_MS = 3_000;
/**
 * How often an open stream checks that the session that opened it still stands: a deactivated staff member, or
 * one whose password was changed, stops receiving within this long. One primary-key read per open stream; it works
 * across instances (the change may have been made on another one) without any extra signal.
 */
export const SESSION_CHECK_MS = 2_000;

/**
 * GET /api/admin/events/: server-sent events for the staff app (issue 6). The browser reads it with fetch (an
 * EventSource cannot send the Authorization header). The stream ends when the access token that opened it
 * would have expired (the client reconnects with a fresh token), and within SESSION_CHECK_MS once the account is
 * deactivated or its password changed.
 */
export function registerEventRoutes(app: ZodApp, ctx: AppContext) {
  const open = new Set<PassThrough>();
  // Open streams would keep app.close() (and a test run) waiting forever: end them first.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });

  app.get('/api/admin/events/', {
    config: { auth: 'staff' },
    schema: { querystring: eventStreamQuerySchema },
    handler: async (request, reply) => {
      const staff = staffOf(request);
      const stream = new PassThrough();
      open.add(stream);
      let nextId = 1;
      const write = (chunk: string) => {
        if (!stream.writableEnded) stream.write(chunk);
      };

      const visible = (event: ReservationChangeEvent) => reachesBookingOf(staff, event.staff_id);
      const unsubscribe = ctx.events.subscribe((event) => {
        if (!visible(event)) return;
        write(`id: ${nextId++}\nevent: reservation\ndata: ${JSON.stringify(event)}\n\n`);
      });
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      const lifetimeSeconds = Math.min(request.query.max_seconds ?? Infinity, ctx.env.ACCESS_TOKEN_TTL_SECONDS);
      const lifetime = setTimeout(() => stream.end(), lifetimeSeconds * 1000);
      lifetime.unref();
      const version = request.accessToken?.version ?? 0;
      let checking = false;
      const sessionCheck = setInterval(() => {
        if (checking) return;
        checking = true;
        ctx.auth
          .isStaffSessionCurrent(staff.id, version)
          .then((current) => {
            if (!current) stream.end();
          })
          // A failed read (the database restarting) keeps the stream: the next check decides.
          .catch(() => {})
          .finally(() => {
            checking = false;
          });
      }, SESSION_CHECK_MS);
      sessionCheck.unref();

      const cleanup = () => {
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        clearInterval(sessionCheck);
        open.delete(stream);
      };
      stream.once('close', cleanup);
      stream.once('finish', cleanup);
      // The client went away (tab closed, network lost): stop writing into a dead socket. (The response's
      // 'close', not the request's: a request without a body closes as soon as it has been read.)
      reply.raw.once('close', () => stream.end());

      // `ready` tells the client (and tests) that the subscription is live: nothing published after it is missed.
      write(`retry: ${RETRY_MS}\nevent: ready\ndata: {}\n\n`);
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          // nginx buffers responses by default, which would hold events back.
          .header('x-accel-buffering', 'no')
          .send(stream)
      );
    },
  });
}
