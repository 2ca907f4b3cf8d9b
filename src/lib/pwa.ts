/**
 * Service worker registration (docs/architecture.md#offline-design). A new version waits until the user agrees: the app subscribes to
 * `onUpdateAvailable` and calls `activateUpdate()` when it is safe (no dirty form, empty outbox).
 *
 * The browser's own API, not workbox-window: workbox-window takes a new worker found more than a minute after the
 * page registered for an "external" one and stops listening for later ones, so a tablet left open all day (and a
 * slow test) saw a first update prompt and no second, and its skip-waiting could miss the waiting worker.
 */

type Listener = (available: boolean) => void;

const listeners = new Set<Listener>();

function setUpdateAvailable(value: boolean) {
  for (const listener of listeners) listener(value);
}

/** Returns the unsubscribe function (shape fits React's useSyncExternalStore). */
export function onUpdateAvailable(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Lets the waiting worker take over, then reloads once it controls the page. False when no worker is waiting (the
 * caller keeps its request for the next one).
 */
export async function activateUpdate(): Promise<boolean> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const waiting = registration?.waiting;
  if (!waiting) return false;
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  waiting.postMessage({ type: 'SKIP_WAITING' });
  return true;
}

/**
 * Tells the listeners whenever a new worker has installed and waits behind the one that controls this page. A
 * worker may already be installing when the page gets its registration (the browser looked for an update while the
 * page loaded, and `updatefound` fired before anyone listened): it is followed as well.
 */
function watchForWaiting(registration: ServiceWorkerRegistration) {
  const announce = () => {
    if (registration.waiting && navigator.serviceWorker.controller) setUpdateAvailable(true);
  };
  const follow = (installing: ServiceWorker | null) => {
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') announce();
    });
  };
  announce();
  follow(registration.installing);
  registration.addEventListener('updatefound', () => follow(registration.installing));
}

/** Registers /sw.js in production builds only, after the page has loaded; the dev server and tests run without one. */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (document.readyState !== 'complete') await new Promise((resolve) => window.addEventListener('load', resolve));
  try {
    watchForWaiting(await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  } catch (error) {
    // The app works without a worker (only offline use is lost); never break the page over it.
    console.warn('Service Worker の登録に失敗しました', error);
  }
}
