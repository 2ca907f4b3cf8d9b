import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, isNotFound } from '#src/lib/api-client';
import { adminAuthKeys } from '#src/lib/query-keys';
import {
  pushSubscriptionsSchema,
  type PushSubscriptionRequest,
  type PushSubscriptions,
} from '#src/shared/schemas/push';
import { currentBrowserSubscription, registration } from '#src/lib/push-browser';

/** The VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Why subscribing did not happen, when it is the browser's answer rather than a failure. */
export class PushNotAllowedError extends Error {
  constructor(readonly reason: 'denied' | 'unsupported') {
    super(reason);
    this.name = 'PushNotAllowedError';
  }
}

/**
 * Asks for permission, subscribes this browser with the server's key and registers it with the server. Never queued
 * offline: a subscription is only useful once the server knows it.
 */
async function subscribeThisBrowser(vapidPublicKey: string) {
  const worker = await registration();
  if (!worker) throw new PushNotAllowedError('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushNotAllowedError('denied');
  const subscription =
    (await worker.pushManager.getSubscription()) ??
    (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) }));
  const json = subscription.toJSON() as PushSubscriptionRequest;
  await api.post('/api/admin/push-subscriptions/', { endpoint: json.endpoint, keys: json.keys }, { offline: false });
}

/** Tells the server first (so no notice goes to a browser that stopped), then ends the browser's subscription. */
async function unsubscribeThisBrowser() {
  const subscription = await currentBrowserSubscription();
  if (!subscription) return;
  await apiRequest('/api/admin/push-subscriptions/', {
    method: 'DELETE',
    body: { endpoint: subscription.endpoint },
    offline: false,
  }).catch((error: unknown) => {
    // Already gone on the server (removed after a push service dropped it): still end it here.
    if (!isNotFound(error)) throw error;
  });
  await subscription.unsubscribe();
}

/** `enabled`: only where this browser can take pushes (elsewhere the section only explains why not). */
export function usePushSubscriptions(enabled: boolean) {
  return useQuery({
    queryKey: adminAuthKeys.pushSubscriptions(),
    enabled,
    queryFn: () => api.get<PushSubscriptions>('/api/admin/push-subscriptions/', { schema: pushSubscriptionsSchema }),
  });
}

export function useSubscribeThisBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...adminAuthKeys.pushSubscriptions(), 'subscribe'],
    mutationFn: subscribeThisBrowser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminAuthKeys.pushSubscriptions() }),
  });
}

export function useUnsubscribeThisBrowser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...adminAuthKeys.pushSubscriptions(), 'unsubscribe'],
    mutationFn: unsubscribeThisBrowser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminAuthKeys.pushSubscriptions() }),
  });
}
