import { vi } from 'vitest';

export const PUSH_ENDPOINT = 'https://push.example.com/send/abc';

/**
 * The browser's push machinery, mocked: a service worker registration with a PushManager and Notification.
 * `subscribed`: this browser already has a subscription. Undo with `endFakePushBrowser` after each test.
 */
export function fakePushBrowser(
  options: { permission?: NotificationPermission; answer?: NotificationPermission; subscribed?: boolean } = {},
) {
  type Subscription = { endpoint: string; toJSON(): unknown; unsubscribe: () => Promise<boolean> };
  let current: Subscription | null = null;
  const unsubscribe = vi.fn(async () => {
    current = null;
    return true;
  });
  const subscribe = vi.fn(async () => {
    current = {
      endpoint: PUSH_ENDPOINT,
      toJSON: () => ({ endpoint: PUSH_ENDPOINT, keys: { p256dh: 'p256dh-key-0123456789', auth: 'auth-secret-01234' } }),
      unsubscribe,
    };
    return current;
  });
  if (options.subscribed) void subscribe();
  const pushManager = { getSubscription: vi.fn(async () => current), subscribe };
  Object.defineProperty(navigator, 'serviceWorker', {
    value: { getRegistration: vi.fn(async () => ({ pushManager })) },
    configurable: true,
  });
  const notification = {
    permission: options.permission ?? (options.subscribed ? 'granted' : 'default'),
    requestPermission: vi.fn(async () => options.answer ?? 'granted'),
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', notification);
  return { subscribe, unsubscribe, notification };
}

export function endFakePushBrowser() {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
}
