import { z } from 'zod';

/** Browsers give these keys base64url-encoded (PushSubscription.toJSON()). */
const base64url = (max: number) =>
  z
    .string()
    .min(16)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/);

/** POST /api/admin/push-subscriptions/: PushSubscription.toJSON() as the browser makes it (extra members ignored). */
export const pushSubscriptionRequestSchema = z.object({
  endpoint: z.string().min(1).max(2048),
  keys: z.object({ p256dh: base64url(200), auth: base64url(100) }),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

/** DELETE /api/admin/push-subscriptions/: the browser's own endpoint. */
export const pushUnsubscribeRequestSchema = z.object({ endpoint: z.string().min(1).max(2048) });

export const pushSubscriptionSchema = z.object({
  id: z.number(),
  /** Only the push service's host (e.g. fcm.googleapis.com): the full endpoint is a capability to push to. */
  endpoint_host: z.string(),
  created_at: z.string(),
});

/** GET /api/admin/push-subscriptions/: the calling staff member's browsers and the key to subscribe with. */
export const pushSubscriptionsSchema = z.object({
  vapid_public_key: z.string(),
  subscriptions: z.array(pushSubscriptionSchema),
});
export type PushSubscriptions = z.infer<typeof pushSubscriptionsSchema>;
