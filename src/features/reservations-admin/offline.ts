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
import { eachPage, watermark, type SyncPull } from '../../lib/sync-pulls';
import { visitNoteChange, visitPhotoChange } from '../../components/karte/karte-changes';
import { reservationCancelChange, reservationConfirmChange } from './offline-changes';
import { matchesReservationText } from './search';
import { dayBoardRoute } from './board-offline';

const RESERVATIONS = '/api/admin/reservations/';

/**
 * The rolling window of reservations (src/lib/sync.ts): a delta since the watermark, or in full, when what fell out
 * of the window (and, in full, what the server no longer shows this staff member) is dropped.
 */
const reservationsPull: SyncPull = {
  name: 'reservations',
  run: async ({ db, window, since }) => {
    const query = { start_date: window.from, end_date: window.to, updated_since: since ?? undefined };
    const lower = `${window.from}T00:00:00`;
    const upper = `${window.to}T99`;
    const seen = new Set<string>();
    const { count, serverTime } = await eachPage<Reservation>(RESERVATIONS, query, !since, async (rows) => {
      for (const row of rows) seen.add(row.reservation_number);
      await db.reservations.bulkPut(rows);
    });
    await db.transaction('rw', db.reservations, async () => {
      // The window moves a day at a time: what fell out of it goes.
      await db.reservations.where('start_time').below(lower).delete();
      await db.reservations.where('start_time').above(upper).delete();
      if (since) return;
      // A full sync also drops what the server no longer shows this staff member (scope changes). The rows stay
      // readable throughout: nothing is cleared before the new answers are in.
      const kept = await db.reservations.where('start_time').between(lower, upper, true, true).primaryKeys();
      await db.reservations.bulkDelete(kept.filter((key) => !seen.has(key)));
    });
    return { count, since: watermark(serverTime) };
  },
};

/** Reservations by start, then id: the server's order of GET /api/admin/reservations/. */
const byStart = (a: Reservation, b: Reservation) =>
  a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id - b.id;

/**
 * GET /api/admin/reservations/ from the local copy: start_date and end_date inclusive (salon-local days), repeated
 * status, user_id, the short reservation code, the name/phone text (q), and the server's page size. The local copy is already this staff member's scope; like the
 * server, only a superuser's user_id filters (an ordinary staff member's is ignored: they see their own).
 */
async function localReservationList(db: StaffDatabase, params: URLSearchParams): Promise<Reservation[]> {
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
  const text = params.get('q')?.trim() || null;
  const matching = rows.filter(
    (row) =>
      (statuses.size === 0 || statuses.has(row.status)) &&
      (staffId === null || row.staff_id === staffId) &&
      (wantedCode === null || row.reservation_code === wantedCode) &&
      (text === null || matchesReservationText(row, text)),
  );
  return page(matching.sort(byStart), params, RESERVATION_PAGE_DEFAULT);
}

/** The front desk's reservations: the list and each reservation, kept from every answer and change. */
export const reservationsOffline: OfflineFeature = {
  name: 'reservations-admin',
  persistedRoots: [reservationAdminKeys.all[0]],
  localFirstRoots: [reservationAdminKeys.all[0]],
  pulls: [reservationsPull],
  // A カルテ photo (src/components/karte) is taken on this feature's detail screen.
  changes: [reservationConfirmChange, reservationCancelChange, visitPhotoChange, visitNoteChange],
  routes: [
    dayBoardRoute,
    {
      path: RESERVATIONS,
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
