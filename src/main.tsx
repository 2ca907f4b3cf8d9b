import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { promptForUpdates } from './app/pwa-update';
import { AppRouter, routerReady } from './app/router';
import { prefetchPublicConfig } from './lib/public-config';
import { registerServiceWorker } from './lib/pwa';
import { createQueryClient } from './lib/query-client';

const container = document.getElementById('root');
if (!container) throw new Error('#root がありません');

/**
 * The built index.html links the app stylesheet as media="print" so that it does not hold back the inline first
 * screen (vite.config.ts firstScreenFirst). It is switched on here, once it has arrived, and React draws after
 * that: no unstyled flash. In development Vite injects the styles itself and there is no such link.
 */
function appStylesReady(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-app-styles]');
  if (!link) return Promise.resolve();
  const arrived = link.sheet
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        // An error (offline without the file) still draws the app, unstyled rather than not at all.
        link.addEventListener('load', () => resolve(), { once: true });
        link.addEventListener('error', () => resolve(), { once: true });
      });
  return arrived.then(() => {
    link.media = 'all';
  });
}

const queryClient = createQueryClient();
prefetchPublicConfig(queryClient);

void Promise.all([appStylesReady(), routerReady()]).then(() => {
  const root = createRoot(container);
  // A transition lets React render the first screen in slices that yield to the browser between them, rather
  // than in one long task that keeps a slow phone from answering a tap.
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <AppRouter />
        </AppProviders>
      </StrictMode>,
    );
  });
});

promptForUpdates();
void registerServiceWorker();
