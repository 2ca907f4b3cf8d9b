import Dexie, { type EntityTable } from 'dexie';
import type { Service } from '../shared/schemas/booking';
import type { AdminCustomer } from '../shared/schemas/customers';
import type { Reservation } from '../shared/schemas/reservations';

/**
 * The staff app's local data (docs/architecture.md#offline-design): the one Dexie instance. Only the admin area loads this module, and
 * only through `import()` (src/lib/outbox.ts, offline-reads.ts, sync.ts), so that Dexie never reaches the customer
 * pages nor the admin area's first screen.
 *
 *   reservations  the rolling window (see sync.ts), full objects as GET /api/admin/reservations/ answers them
 *   customers     every customer in the staff member's scope
 *   services      the menu
 *   schedule      answers of the opening-time screen's GETs, by URL (configured dates, slots, staff list)
 *   responses     other small answers kept by URL (the staff profile, the public config)
 *   outbox        changes made offline, in the order they were made (src/lib/outbox.ts)
 *   meta          sync watermarks and the last sync time
 *   queryCache    the persisted React Query cache (src/lib/query-persist.ts)
 */

/**
 * pending: waiting to be sent; sending: a request is (or was, before a crash) on its way and is replayed with the
 * same key; conflict: the server refused it (409 or another 4xx) and a person must decide; failed: the server kept
 * failing (5xx) and a person must decide. Only pending and sending entries are ever sent without a person.
 */
export type OutboxState = 'pending' | 'sending' | 'conflict' | 'failed';

/**
 * One queued change. The outbox knows no feature: what a change means is its kind's business
 * (src/lib/outbox-changes.ts, declared by the features), and the kind's own fields are kept on the entry beside
 * the request (a reservation's number and the status it goes to, a customer's memo, a photo's bytes, ...).
 */
export interface OutboxEntry {
  /** Auto-increment: the order in which the changes were made, and so the order of replay. */
  seq?: number;
  /** The change kind's name (`reservation-confirm`, `customer-notes`, ...). */
  kind: string;
  /** What the change is about (`reservation:<number>`, `customer:<id>`). Entries of one target replay in order. */
  target: string;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** Sent as Idempotency-Key: the server runs the change once however often it arrives. */
  idempotencyKey: string;
  /** The staff member (token subject) who made the change; only their session replays it. */
  staffId: number | null;
  createdAt: number;
  state: OutboxState;
  attempts: number;
  /** The server's refusal and its state of the object at that moment (conflict and failed entries). */
  error?: { status: number; code: string; detail: string };
  serverState?: unknown;
  /**
   * The kind's own fields (see its `keep`), typed by the kind that reads them (src/lib/outbox-changes.ts); the
   * outbox itself never reads them.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind narrows its own fields
  [field: string]: any;
}

export interface UrlAnswer {
  /** Pathname and sorted query string. */
  url: string;
  data: unknown;
  savedAt: number;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export interface PersistedCacheRow {
  key: string;
  value: unknown;
}

export class StaffDatabase extends Dexie {
  reservations!: EntityTable<Reservation, 'reservation_number'>;
  customers!: EntityTable<AdminCustomer, 'id'>;
  services!: EntityTable<Service, 'id'>;
  schedule!: EntityTable<UrlAnswer, 'url'>;
  responses!: EntityTable<UrlAnswer, 'url'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  meta!: EntityTable<MetaRow, 'key'>;
  queryCache!: EntityTable<PersistedCacheRow, 'key'>;

  constructor(name = 'salon-staff') {
    super(name);
    this.version(1).stores({
      reservations: 'reservation_number, start_time, customer_id',
      customers: 'id',
      services: 'id',
      schedule: 'url',
      responses: 'url',
      outbox: '++seq, target',
      meta: 'key',
      queryCache: 'key',
    });
  }
}

export const db = new StaffDatabase();

/** The staff member's data, dropped at logout. The outbox stays: a change is never lost by signing out. */
export async function clearStaffData(database: StaffDatabase = db): Promise<void> {
  const tables = [
    database.reservations,
    database.customers,
    database.services,
    database.schedule,
    database.responses,
    database.meta,
    database.queryCache,
  ];
  await database.transaction('rw', tables, async () => {
    await Promise.all(tables.map((table) => table.clear()));
  });
}

export async function readMeta<T>(key: string, database: StaffDatabase = db): Promise<T | undefined> {
  return (await database.meta.get(key))?.value as T | undefined;
}

export async function writeMeta(key: string, value: unknown, database: StaffDatabase = db): Promise<void> {
  await database.meta.put({ key, value });
}
