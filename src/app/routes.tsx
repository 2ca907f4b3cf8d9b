import type { RouteObject } from 'react-router';
import { RootLayout, RouteLoading } from './root-layout';
import { customerRoute } from './routes/customer/customer-routes';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';
import { RouteErrorPage } from './routes/route-error';

/**
 * The route table (docs/screens.md#routes). Only the home and 404 pages are in the entry chunk; each area is a `lazy` route
 * so that its code (and its libraries) load when it is first visited:
 *   - the customer area (/login, /callback, /reserve, /reservations/:number, /check, ...) is one pathless
 *     layout route (routes/customer/customer-routes.ts), `lazy`-loading the customer shell and each page;
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
      customerRoute,
      {
        path: 'admin/*',
        lazy: async () => {
          const { AdminEntry } = await import('./routes/admin/admin-entry');
          return { Component: AdminEntry };
        },
      },
      {
        // Staff LINE link registration (docs/screens.md#register-line); outside admin/* because the link handed to staff says so.
        path: 'register-line/:token?',
        lazy: async () => {
          const { RegisterLinePage } = await import('../features/admin-auth/components/register-line-page');
          return { Component: RegisterLinePage };
        },
      },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
