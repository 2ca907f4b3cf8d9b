import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { OUTBOX_SYNC_TAG } from '../src/shared/outbox-sync';
import { openNoticeUrl, readPushNotice, showPushNotice } from './push';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/**
 * The app shell: every built asset (hashed names, so a new build is a new precache), and index.html as the answer
 * to any navigation so that the staff app opens with no network (docs/architecture.md#offline-design).
 *
 * Nothing under /api/ is cached here, on purpose: no route is registered for it, so every API call goes to the
 * network as if there were no worker. Staff data is kept by the app itself (React Query persistence, Dexie), and
 * the customer booking calls must always reach the server.
 */
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // Server-rendered pages (the LINE emulator, the dev mailbox) and API URLs opened directly are not the SPA's.
    denylist: [/^\/api\//, /^\/dev\//],
  }),
);

/**
 * Background Sync (Chromium; Safari and Firefox have none and the app flushes on `online`, on start and on its own
 * retry timer instead): the app registers the tag when it queues a change. The outbox needs the staff member's
 * token, which lives in the page, so the worker asks the open pages to flush. A page answers at once that it has
 * taken the queue over (it retries by itself while open, src/lib/outbox-retry.ts), and the event ends there; with
 * no page (or none answering within a few seconds) it fails and the browser tries again later.
 *
 * The event must not wait for the flush itself: a waiting worker told to skip waiting activates only once the
 * active one has no event in flight, and a flush that waits on a dead network (or retries) kept the old worker's
 * sync event, and so the update, waiting for up to a minute (docs/BENCHMARKS.md, "sync retry").
 */
const PAGE_ANSWER_TIMEOUT_MS = 5_000;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

function askPageToFlush(client: Client): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), PAGE_ANSWER_TIMEOUT_MS);
    channel.port1.onmessage = (message) => {
      clearTimeout(timer);
      resolve((message.data as { accepted?: unknown } | null)?.accepted === true);
    };
    client.postMessage({ type: 'FLUSH_OUTBOX' }, [channel.port2]);
  });
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: 'window' });
      if (pages.length === 0) throw new Error('no page to flush the outbox');
      const accepted = await Promise.all(pages.map(askPageToFlush));
      if (!accepted.some(Boolean)) throw new Error('no page took the outbox over');
    })(),
  );
});

// A new version waits until the app says it is safe to switch (no dirty form, empty outbox): see src/lib/pwa.ts.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Staff notices by Web Push (push.ts): shown at once, and a tap opens the reservation.
self.addEventListener('push', (event) => {
  event.waitUntil(showPushNotice(self.registration, readPushNotice(event.data, self.location.origin)));
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: unknown } | null)?.url;
  event.waitUntil(
    openNoticeUrl(self.clients, typeof url === 'string' ? url : new URL('/admin', self.location.origin).href),
  );
});

// The first install takes control at once so that the first visit is already offline-capable.
clientsClaim();
