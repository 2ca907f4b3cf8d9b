import type { RouteObject } from 'react-router';
import { RootLayout, RouteLoading } from './root-layout';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorPage } from './routes/route-error';

/**
 * The route table (SPEC.md §2). Only the home and 404 pages are in the entry chunk; each area is a `lazy` route
 * so that its code (and its libraries) load when it is first visited:
 *   - the customer area (/login, /callback, /reserve, /reservations/:number, /check, ...) will be one pathless
 *     layout route here, `lazy`-loading the customer shell with its children;
 *   - the admin area is `admin/*`: its module renders the admin shell and its own nested routes, so no staff code
 *     reaches customers.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    HydrateFallback: RouteLoading,
    children: [
      { index: true, Component: HomePage },
      {
        path: 'admin/*',
        lazy: async () => {
          const { AdminEntry } = await import('./routes/admin/admin-entry');
          return { Component: AdminEntry };
        },
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
