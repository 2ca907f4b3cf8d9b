import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { promptForUpdates } from './app/pwa-update';
import { AppRouter } from './app/router';
import { registerServiceWorker } from './lib/pwa';

const container = document.getElementById('root');
if (!container) throw new Error('#root がありません');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);

promptForUpdates();
void registerServiceWorker();
