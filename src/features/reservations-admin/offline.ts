import type { StaffDatabase } from '../../lib/db';
import { page, type OfflineFeature } from '../../lib/offline-engine';
import { canSeeAllBookings, roleOf } from '../../shared/roles';
import type { AdminProfile } from '../../shared/schemas/auth';
import {
  normalizeReservationCode,
  RESERVATION_PAGE_DEFAULT,
  type Reservation,
} from '../../shared/schemas/reservations';
import { reservationAdminKeys } from '../../lib/query-keys';

/** Reservations by start, then id: the server's order of GET /api/admin/reservations/. */
export const byStart = (a: Reservation, b: Reservation) =>
  a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id - b.id;

/**
 * GET /api/admin/reservations/ from the local copy: start_date and end_date inclusive (salon-local days), repeated
 * status, user_id, the short reservation code, and the server's page size. The local copy is already this staff member's scope; like the
 * server, only a superuser's user_id filters (an ordinary staff member's is ignored: they see their own).
 */
export async function localReservationList(db: StaffDatabase, params: URLSearchParams): Promise<Reservation[]> {
  const from = params.get('start_date');
  const to = params.get('end_date');
  // Naive local date-times compare as text; "T99" sorts after every time of that day.
  const lower = from ? `${from}T00:00:00` : '';
  const upper = to ? `${to}T99` : '\uffff';
  const rows = await db.reservations.where('start_time').between(lower, upper, true, false).toArray();
  const statuses = new Set(params.getAll('status').filter(Boolean));
  const profile = (await db.responses.get('/api/admin/me/'))?.data as AdminProfile | undefined;
  const seesAll = !profile || canSeeAllBookings(roleOf(profile));
  const staffId = params.get('user_id') && seesAll ? Number(params.get('user_id')) : null;
  const code = params.get('code');
  const wantedCode = code === null ? null : normalizeReservationCode(code);
  const matching = rows.filter(
    (row) =>
      (statuses.size === 0 || statuses.has(row.status)) &&
      (staffId === null || row.staff_id === staffId) &&
      (wantedCode === null || row.reservation_code === wantedCode),
  );
  return page(matching.sort(byStart), params, RESERVATION_PAGE_DEFAULT);
}

/** The front desk's reservations: the list and each reservation, kept from every answer and change. */
export const reservationsOffline: OfflineFeature = {
  name: 'reservations-admin',
  persistedRoots: [reservationAdminKeys.all[0]],
  localFirstRoots: [reservationAdminKeys.all[0]],
  routes: [
    {
      path: '/api/admin/reservations/',
      read: (db, url) => localReservationList(db, url.searchParams),
      store: async (db, method, _url, data) => {
        if (method === 'GET' && Array.isArray(data)) await db.reservations.bulkPut(data as Reservation[]);
      },
    },
    {
      // Every change of a reservation answers with the reservation as it now is.
      path: /^\/api\/admin\/reservations\/(?:[^/]+\/(?:confirm|cancel|complete|no-show|reschedule)|create-for-customer|create-with-new-customer)\/$/,
      store: async (db, method, _url, data) => {
        if (method !== 'GET') await db.reservations.put(data as Reservation);
      },
    },
    {
      path: /^\/api\/admin\/reservations\/([^/]+)\/$/,
      read: (db, _url, [number]) => db.reservations.get(number!),
      store: async (db, method, _url, data) => {
        if (method === 'GET') await db.reservations.put(data as Reservation);
      },
    },
  ],
};
