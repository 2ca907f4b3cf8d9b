import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/** A `lazy` that takes one named component export of a module: each page is its own chunk. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): RouteObject['lazy'] {
  return async () => ({ Component: (await load())[name] });
}

const reservePage = page(() => import('#src/features/booking/components/reserve-page'), 'ReservePage');
const completePage = page(
  () => import('#src/features/booking/components/reservation-complete-page'),
  'ReservationCompletePage',
);
const detailPage = page(
  () => import('#src/features/reservations/components/reservation-detail-page'),
  'ReservationDetailPage',
);
const linkPage = page(() => import('#src/features/auth/components/link-customer-page'), 'LinkCustomerPage');
const checkPage = page(() => import('#src/features/reservations/components/check-page'), 'CheckReservationPage');

/**
 * The customer area (docs/screens.md#routes): one pathless layout route, loaded on first visit with the page it shows,
 * so that neither the wizard nor the calendar is in the entry chunk and no admin code is in these.
 * Paths without their number or token show the page's "missing" message instead of the 404 page.
 */
export const customerRoute: RouteObject = {
  id: 'customer',
  lazy: page(() => import('./customer-layout'), 'CustomerLayout'),
  children: [
    { path: 'login', lazy: page(() => import('#src/features/auth/components/login-page'), 'LoginPage') },
    { path: 'callback', lazy: page(() => import('#src/features/auth/components/callback-page'), 'CallbackPage') },
    {
      path: 'login-failed',
      lazy: page(() => import('#src/features/auth/components/login-failed-page'), 'LoginFailedPage'),
    },
    { path: 'reserve', lazy: reservePage },
    { path: 'reservation-complete/:reservationNumber', lazy: completePage },
    { path: 'reservation-complete', lazy: completePage },
    { path: 'reservations/:reservationNumber', lazy: detailPage },
    // The signed-in customer's own bookings.
    {
      path: 'reservations',
      lazy: page(() => import('#src/features/reservations/components/my-reservations-page'), 'ReservationListPage'),
    },
    {
      path: 'cancellation-complete',
      lazy: page(
        () => import('#src/features/reservations/components/cancellation-complete-page'),
        'CancellationCompletePage',
      ),
    },
    { path: 'check', lazy: checkPage },
    // The manual links this name (docs/screens.md#manual).
    { path: 'check-reservation', lazy: checkPage },
    {
      path: 'confirm-reservation',
      lazy: page(() => import('#src/features/reservations/components/check-page'), 'ConfirmReservationPage'),
    },
    { path: 'manual', lazy: page(() => import('./manual-page'), 'ManualPage') },
    { path: 'link-customer/:token', lazy: linkPage },
    { path: 'link-customer', lazy: linkPage },
  ],
};
