/**
 * Staff browsers' Web Push subscriptions (the プッシュ通知 section of 受付時間設定). Each staff member sees and
 * changes only their own; the outbox then sends their notices to these browsers instead of LINE
 * (server/outbox/reservation-recipients.ts).
 */
import { createECDH } from 'node:crypto';
import {
  pushSubscriptionRequestSchema,
  pushSubscriptionSchema,
  pushSubscriptionsSchema,
  pushUnsubscribeRequestSchema,
} from '#src/shared/schemas/push';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { listForStaff, removeOwn, upsert, type PushSubscriptionRow } from './push-subscriptions.repository';

const summary = (row: PushSubscriptionRow) => ({
  id: row.id,
  endpoint_host: new URL(row.endpoint).host,
  created_at: row.created_at.toISOString(),
});

/**
 * The browser's keys must be a P-256 point and a 16-byte secret: a message can never be encrypted to anything else,
 * and the outbox would only retry it in vain.
 */
function usableKeys(keys: { p256dh: string; auth: string }): boolean {
  if (Buffer.from(keys.auth, 'base64url').length !== 16) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(keys.p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

export function registerPushSubscriptionRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/admin/push-subscriptions/', {
    config: { auth: 'staff' },
    schema: { response: { 200: pushSubscriptionsSchema } },
    handler: async (request) => ({
      vapid_public_key: ctx.notifications.webPush.publicKey,
      subscriptions: (await listForStaff(ctx.db, staffOf(request).id)).map(summary),
    }),
  });

  app.post('/api/admin/push-subscriptions/', {
    config: { auth: 'staff' },
    schema: { body: pushSubscriptionRequestSchema, response: { 201: pushSubscriptionSchema } },
    handler: async (request, reply) => {
      const staff = staffOf(request);
      const { endpoint, keys } = request.body;
      // The server will send requests to this URL: only push services (and loopback off production) are allowed.
      if (ctx.notifications.webPush.endpointProblem(endpoint)) {
        throw badRequest(SERVER_MESSAGES.pushEndpointRefused, { endpoint: [SERVER_MESSAGES.pushEndpointRefused] });
      }
      if (!usableKeys(keys)) throw badRequest(MESSAGES.invalidInput, { keys: [MESSAGES.invalidInput] });
      const row = await upsert(ctx.db, {
        salonId: staff.salonId,
        staffId: staff.id,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        userAgent: (request.headers['user-agent'] ?? '').slice(0, 300),
      });
      return reply.code(201).send(summary(row));
    },
  });

  app.delete('/api/admin/push-subscriptions/', {
    config: { auth: 'staff' },
    schema: { body: pushUnsubscribeRequestSchema },
    handler: async (request, reply) => {
      if (!(await removeOwn(ctx.db, staffOf(request).id, request.body.endpoint))) throw notFound();
      return reply.code(204).send();
    },
  });
}
