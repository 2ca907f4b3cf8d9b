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
 * Background Sync (Chromium; Safari and Firefox have none and the app flushes on `online` and on start instead):
 * the app registers the tag when it queues a change. The outbox needs the staff member's token, which lives in the
 * page, so the worker asks the open pages to flush and waits for their answer; a page that still has entries
 * waiting (or no page at all) fails the event, and the browser tries again later.
 */
const FLUSH_ANSWER_TIMEOUT_MS = 60_000;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

function askPageToFlush(client: Client): Promise<number> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(-1), FLUSH_ANSWER_TIMEOUT_MS);
    channel.port1.onmessage = (message) => {
      clearTimeout(timer);
      resolve(Number((message.data as { waiting?: unknown } | null)?.waiting ?? -1));
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
      const waiting = await Promise.all(pages.map(askPageToFlush));
      if (!waiting.some((count) => count === 0)) throw new Error('the outbox still has entries waiting');
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
