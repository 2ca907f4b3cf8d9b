import type { Workbox } from 'workbox-window';

/**
 * Service worker registration (docs/architecture.md#offline-design). A new version waits until the user agrees: the app subscribes to
 * `onUpdateAvailable` and calls `activateUpdate()` when it is safe (no dirty form, empty outbox).
 */

type Listener = (available: boolean) => void;

let workbox: Workbox | null = null;
const listeners = new Set<Listener>();

function setUpdateAvailable(value: boolean) {
  for (const listener of listeners) listener(value);
}

/** Returns the unsubscribe function (shape fits React's useSyncExternalStore). */
export function onUpdateAvailable(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Lets the waiting worker take over, then reloads once it controls the page. */
export function activateUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

/** Registers /sw.js in production builds only; the dev server and tests run without a worker. */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // Loaded on demand so that workbox-window stays out of the entry chunk.
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => setUpdateAvailable(true));
  try {
    await workbox.register();
  } catch (error) {
    // The app works without a worker (only offline use is lost); never break the page over it.
    console.warn('Service Worker の登録に失敗しました', error);
  }
}
