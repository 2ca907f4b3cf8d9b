import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import 'dayjs/locale/ja';

import { MantineProvider } from '@mantine/core';
import { DatesProvider, type DatesProviderSettings } from '@mantine/dates';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, useSyncExternalStore, type ReactNode } from 'react';
import { notificationsRequested, onNotificationsRequested } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { theme } from './theme';

/**
 * docs/screens.md#formats: Japanese locale, weeks start on Sunday. No weekend days: Mantine draws their numbers in red 6, under
 * WCAG AA (3.3:1); the wizard's calendar colours Sundays and Saturdays itself.
 */
const DATES_SETTINGS: DatesProviderSettings = { locale: 'ja', firstDayOfWeek: 0, weekendDays: [] };

const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/** Mounts the notification stack on first use (see src/lib/notify.ts). */
function DeferredNotifications() {
  const wanted = useSyncExternalStore(onNotificationsRequested, notificationsRequested, () => false);
  if (!wanted) return null;
  return (
    // Inside a labelled region rather than a portal at the end of <body>: content outside every landmark is an
    // axe violation (`region`) whenever a notification is on screen. The stack is position: fixed either way.
    <section aria-label="お知らせ">
      <Suspense fallback={null}>
        <Notifications position="top-center" withinPortal={false} />
      </Suspense>
    </section>
  );
}

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client (no retries); the app makes one per page load. */
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

export function AppProviders({ children, queryClient, env = 'default' }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      {/* The theme's CSS variables are in index.html, computed at build time (theme-variables.ts). */}
      <MantineProvider theme={theme} withCssVariables={false} defaultColorScheme="light" env={env}>
        <DatesProvider settings={DATES_SETTINGS}>
          {children}
          <DeferredNotifications />
        </DatesProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
