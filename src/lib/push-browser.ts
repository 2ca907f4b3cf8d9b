/**
 * The browser's side of staff Web Push: whether this browser can take pushes at all, and its subscription. Push
 * needs a service worker (the built app registers one), PushManager and Notification; iPhone Safari has them only in
 * an app added to the home screen.
 */
export function browserSupportsPush(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

/** The service worker's registration, or null (no worker: the dev server, or the browser has none). */
export async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This browser's current subscription, if any. */
export async function currentBrowserSubscription(): Promise<PushSubscription | null> {
  const worker = await registration();
  return worker ? worker.pushManager.getSubscription() : null;
}

/**
 * At logout: this browser stops taking the signed-out staff member's notices (a shared front-desk tablet would
 * otherwise keep showing them), offline too. The server is not asked, the session having just ended: it drops the
 * subscription when the push service next answers that it is gone (server/outbox/web-push.ts). Kept apart from the
 * push API module so that the panel's shell, which calls it, does not load the request schemas.
 */
export async function endThisBrowserSubscription(): Promise<void> {
  if (!browserSupportsPush()) return;
  await (await currentBrowserSubscription())?.unsubscribe();
}
