import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { ReactElement } from 'react';
import { AppProviders } from '../../src/app/providers';
import { routes as appRoutes } from '../../src/app/routes';
import { createQueryClient } from '../../src/lib/query-client';

/** A QueryClient for one test: no retries (a failure shows at once), no cache shared with other tests. */
export function createTestQueryClient() {
  return createQueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

export interface RenderRouteOptions {
  /** The route table; the app's own by default. */
  routes?: RouteObject[];
  queryClient?: ReturnType<typeof createTestQueryClient>;
}

/** Renders the app (or the given routes) at `path` inside the app providers. */
export function renderRoute(path: string, options: RenderRouteOptions = {}) {
  const queryClient = options.queryClient ?? createTestQueryClient();
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** Renders one component inside the providers and a router (for components that use Link or hooks). */
export function renderWithProviders(
  ui: ReactElement,
  options: { path?: string } & Omit<RenderRouteOptions, 'routes'> = {},
): RenderResult {
  const path = options.path ?? '/';
  return renderRoute(path, { ...options, routes: [{ path: '*', element: ui }] });
}
