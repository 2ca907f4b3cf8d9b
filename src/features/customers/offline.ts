import type { StaffDatabase } from '../../lib/db';
import { page, type OfflineFeature } from '../../lib/offline-engine';
import { searchFold } from '../../shared/kana';
import { CUSTOMER_PAGE_DEFAULT, type AdminCustomer } from '../../shared/schemas/customers';
import { RESERVATION_PAGE_DEFAULT, type Reservation } from '../../shared/schemas/reservations';
import { customerKeys } from '../../lib/query-keys';
import { eachPage, watermark, type SyncPull } from '../../lib/sync-pulls';
import { customerNotesChange } from './offline-changes';

const CUSTOMERS = '/api/admin/customers/';

/** Every customer in scope: a delta since the watermark, or in full, when the ones out of scope go. */
const customersPull: SyncPull = {
  name: 'customers',
  run: async ({ db, since }) => {
    const seen = new Set<number>();
    const query = { updated_since: since ?? undefined };
    const { count, serverTime } = await eachPage<AdminCustomer>(CUSTOMERS, query, !since, async (rows) => {
      for (const row of rows) seen.add(row.id);
      await db.customers.bulkPut(rows);
    });
    if (!since) {
      const kept = await db.customers.toCollection().primaryKeys();
      await db.customers.bulkDelete(kept.filter((key) => !seen.has(key)));
    }
    return { count, since: watermark(serverTime) };
  },
};

const byStartNewestFirst = (a: Reservation, b: Reservation) =>
  a.start_time < b.start_time ? 1 : a.start_time > b.start_time ? -1 : b.id - a.id;

/**
 * GET /api/admin/customers/ from the local copy: name (name or furigana, both folded by searchFold as the server
 * folds them), email and phone_number contain the text; by id.
 */
async function localCustomerList(db: StaffDatabase, params: URLSearchParams): Promise<AdminCustomer[]> {
  const name = searchFold(params.get('name')?.trim() ?? '');
  const email = params.get('email')?.trim().toLowerCase() ?? '';
  const phone = params.get('phone_number')?.trim() ?? '';
  const rows = await db.customers.orderBy('id').toArray();
  const matching = rows.filter(
    (row) =>
      (!name || searchFold(row.name).includes(name) || searchFold(row.furigana).includes(name)) &&
      (!email || row.email.toLowerCase().includes(email)) &&
      (!phone || row.phone_number.includes(phone)),
  );
  return page(matching, params, CUSTOMER_PAGE_DEFAULT);
}

/** The customers in this staff member's scope, each with their reservations, and memo edits. */
export const customersOffline: OfflineFeature = {
  name: 'customers',
  persistedRoots: [customerKeys.all[0]],
  localFirstRoots: [customerKeys.all[0]],
  pulls: [customersPull],
  changes: [customerNotesChange],
  routes: [
    {
      path: CUSTOMERS,
      read: (db, url) => localCustomerList(db, url.searchParams),
      store: async (db, method, _url, data) => {
        if (method === 'GET' && Array.isArray(data)) await db.customers.bulkPut(data as AdminCustomer[]);
      },
    },
    {
      path: /^\/api\/admin\/customers\/(\d+)\/$/,
      read: (db, _url, [id]) => db.customers.get(Number(id)),
      store: async (db, method, _url, data) => {
        if (method === 'GET' || method === 'PATCH') await db.customers.put(data as AdminCustomer);
      },
    },
    {
      path: /^\/api\/admin\/customers\/(\d+)\/reservations\/$/,
      read: async (db, url, [id]) => {
        const customerId = Number(id);
        if (!(await db.customers.get(customerId))) return undefined;
        const rows = await db.reservations.where('customer_id').equals(customerId).toArray();
        return page(rows.sort(byStartNewestFirst), url.searchParams, RESERVATION_PAGE_DEFAULT);
      },
      store: async (db, method, _url, data) => {
        if (method === 'GET' && Array.isArray(data)) await db.reservations.bulkPut(data as Reservation[]);
      },
    },
  ],
};
