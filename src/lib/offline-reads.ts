import type { Service } from '../shared/schemas/booking';
import type { AdminCustomer } from '../shared/schemas/customers';
import type { Reservation } from '../shared/schemas/reservations';
import type { OfflineAdapter } from './api-client';
import type { StaffDatabase } from './db';
import { loadDatabase } from './db-loader';

/**
 * The staff app's answers without a network (DESIGN.md §6), installed into the API client as its OfflineAdapter:
 *   - the reservation list, a reservation, the customer list, a customer and their reservations are answered from
 *     the Dexie tables, with the server's filters, order and page sizes;
 *   - the menu, the opening-time screen's answers and the staff profile are answered as last seen, by URL;
 *   - every successful answer (and the answers of confirm, cancel, memo) updates those tables on the way.
 * Anything else has no local answer, and the request fails as it would without this layer.
 */

/** Answers kept whole, by URL: the opening-time screen's. */
const SCHEDULE_PATHS = new Set(['/api/admin/configured-dates/', '/api/admin/available-slots/', '/api/admin/users/']);
/** Other small answers kept whole, by URL. */
const RESPONSE_PATHS = new Set(['/api/admin/me/', '/api/config/', '/api/services/']);

const RESERVATION_PATH = /^\/api\/admin\/reservations\/([^/]+)\/$/;
const RESERVATION_WRITE_PATH =
  /^\/api\/admin\/reservations\/(?:[^/]+\/(?:confirm|cancel|complete|no-show)|create-for-customer|create-with-new-customer)\/$/;
const CUSTOMER_PATH = /^\/api\/admin\/customers\/(\d+)\/$/;
const CUSTOMER_RESERVATIONS_PATH = /^\/api\/admin\/customers\/(\d+)\/reservations\/$/;

/** The server's default page sizes (server/features/reservations, src/shared/schemas/customers.ts). */
const RESERVATION_PAGE_DEFAULT = 500;
const CUSTOMER_PAGE_DEFAULT = 100;

/** Pathname plus the query sorted by name: two requests for the same thing share one key. */
export function urlKey(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a, av], [b, bv]) =>
    a === b ? av.localeCompare(bv) : a < b ? -1 : 1,
  );
  const query = new URLSearchParams(params).toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

function page<T>(rows: T[], params: URLSearchParams, defaultLimit: number): T[] {
  const limit = Number(params.get('limit')) || defaultLimit;
  const offset = Number(params.get('offset')) || 0;
  return rows.slice(offset, offset + limit);
}

const byStart = (a: Reservation, b: Reservation) =>
  a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id - b.id;

/** GET /api/admin/reservations/: start_date and end_date inclusive (salon-local days), repeated status, user_id. */
export async function localReservationList(db: StaffDatabase, params: URLSearchParams): Promise<Reservation[]> {
  const from = params.get('start_date');
  const to = params.get('end_date');
  // Naive local date-times compare as text; "T99" sorts after every time of that day.
  const lower = from ? `${from}T00:00:00` : '';
  const upper = to ? `${to}T99` : '\uffff';
  const rows = await db.reservations.where('start_time').between(lower, upper, true, false).toArray();
  const statuses = new Set(params.getAll('status').filter(Boolean));
  const staffId = params.get('user_id') ? Number(params.get('user_id')) : null;
  const matching = rows.filter(
    (row) => (statuses.size === 0 || statuses.has(row.status)) && (staffId === null || row.staff_id === staffId),
  );
  return page(matching.sort(byStart), params, RESERVATION_PAGE_DEFAULT);
}

/** Hiragana typed into the search also finds katakana furigana, as on the server. */
const toKatakana = (text: string) =>
  text.replace(/[\u3041-\u3096]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0x60));

/** GET /api/admin/customers/: name (name or furigana), email and phone_number contain the text; by id. */
export async function localCustomerList(db: StaffDatabase, params: URLSearchParams): Promise<AdminCustomer[]> {
  const name = params.get('name')?.trim().toLowerCase() ?? '';
  const email = params.get('email')?.trim().toLowerCase() ?? '';
  const phone = params.get('phone_number')?.trim() ?? '';
  const rows = await db.customers.orderBy('id').toArray();
  const matching = rows.filter(
    (row) =>
      (!name ||
        row.name.toLowerCase().includes(name) ||
        row.furigana.toLowerCase().includes(name) ||
        row.furigana.includes(toKatakana(name))) &&
      (!email || row.email.toLowerCase().includes(email)) &&
      (!phone || row.phone_number.includes(phone)),
  );
  return page(matching, params, CUSTOMER_PAGE_DEFAULT);
}

/** The local answer for `url`, or undefined when there is none. */
export async function readLocal(url: URL, database?: StaffDatabase): Promise<unknown> {
  const db = database ?? (await loadDatabase());
  const path = url.pathname;
  if (path === '/api/admin/reservations/') return localReservationList(db, url.searchParams);
  if (path === '/api/admin/customers/') return localCustomerList(db, url.searchParams);
  let match = RESERVATION_PATH.exec(path);
  if (match) return db.reservations.get(decodeURIComponent(match[1]!));
  match = CUSTOMER_PATH.exec(path);
  if (match) return db.customers.get(Number(match[1]));
  match = CUSTOMER_RESERVATIONS_PATH.exec(path);
  if (match) {
    const customerId = Number(match[1]);
    if (!(await db.customers.get(customerId))) return undefined;
    const rows = await db.reservations.where('customer_id').equals(customerId).toArray();
    return page(rows.sort(byStart).reverse(), url.searchParams, RESERVATION_PAGE_DEFAULT);
  }
  if (SCHEDULE_PATHS.has(path)) return (await db.schedule.get(urlKey(url)))?.data;
  if (RESPONSE_PATHS.has(path)) {
    const answer = (await db.responses.get(urlKey(url)))?.data;
    if (answer !== undefined || path !== '/api/services/') return answer;
    const services = await db.services.orderBy('id').toArray();
    return services.length > 0 ? services : undefined;
  }
  return undefined;
}

/** Keeps the local tables current with an answer the server just gave. */
export async function storeAnswer(method: string, url: URL, data: unknown, database?: StaffDatabase): Promise<void> {
  const path = url.pathname;
  const relevant =
    path.startsWith('/api/admin/reservations/') ||
    path.startsWith('/api/admin/customers/') ||
    SCHEDULE_PATHS.has(path) ||
    RESPONSE_PATHS.has(path);
  if (!relevant || data === undefined || data === null) return;
  const db = database ?? (await loadDatabase());
  const savedAt = Date.now();

  if (method !== 'GET') {
    if (RESERVATION_WRITE_PATH.test(path)) await db.reservations.put(data as Reservation);
    else if (method === 'PATCH' && CUSTOMER_PATH.test(path)) await db.customers.put(data as AdminCustomer);
    else if (path === '/api/admin/available-slots/') {
      // The day's slots changed: the calendar's and the day's kept answers are out of date.
      await db.schedule.where('url').startsWith('/api/admin/configured-dates/').delete();
      await db.schedule.where('url').startsWith('/api/admin/available-slots/').delete();
    }
    return;
  }
  if (path === '/api/admin/reservations/' || CUSTOMER_RESERVATIONS_PATH.test(path)) {
    if (Array.isArray(data)) await db.reservations.bulkPut(data as Reservation[]);
  } else if (RESERVATION_PATH.test(path)) {
    await db.reservations.put(data as Reservation);
  } else if (path === '/api/admin/customers/') {
    if (Array.isArray(data)) await db.customers.bulkPut(data as AdminCustomer[]);
  } else if (CUSTOMER_PATH.test(path)) {
    await db.customers.put(data as AdminCustomer);
  } else if (SCHEDULE_PATHS.has(path)) {
    await db.schedule.put({ url: urlKey(url), data, savedAt });
  } else if (RESPONSE_PATHS.has(path)) {
    await db.responses.put({ url: urlKey(url), data, savedAt });
    if (path === '/api/services/' && !url.search && Array.isArray(data)) {
      await db.transaction('rw', db.services, async () => {
        await db.services.clear();
        await db.services.bulkPut(data as Service[]);
      });
    }
  }
}

export function createOfflineAdapter(onAnswer?: (method: string, url: URL) => void): OfflineAdapter {
  return {
    read: (url) => readLocal(url),
    observe: (method, url, data) => {
      void storeAnswer(method, url, data).catch(() => {
        // A full or blocked IndexedDB only costs the offline copy, never the request.
      });
      onAnswer?.(method, url);
    },
  };
}
