/** The front-desk reservation screens (SPEC.md §2) and live updates (issue 6), wired by src/app/routes/admin. */
export { ReservationListPage } from './components/reservation-list-page';
export { ReservationDetailPage } from './components/reservation-detail-page';
export { reservationAdminKeys } from './api/reservations-admin-queries';
export { useReservationEvents } from './hooks/use-reservation-events';
