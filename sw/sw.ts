import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/**
 * The app shell: every built asset (hashed names, so a new build is a new precache), and index.html as the answer
 * to any navigation so that the staff app opens with no network (DESIGN.md §6).
 *
 * Nothing under /api/ is cached here: API data is kept by the app (React Query persistence, Dexie), and the
 * customer booking calls must always reach the server.
 */
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // Server-rendered pages (the LINE emulator, the dev mailbox) and API URLs opened directly are not the SPA's.
    denylist: [/^\/api\//, /^\/dev\//],
  }),
);

// A new version waits until the app says it is safe to switch (no dirty form, empty outbox): see src/lib/pwa.ts.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install takes control at once so that the first visit is already offline-capable.
clientsClaim();
