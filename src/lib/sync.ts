import type { Service } from '../shared/schemas/booking';
import type { AdminProfile } from '../shared/schemas/auth';
import type { AdminCustomer } from '../shared/schemas/customers';
import type { Reservation } from '../shared/schemas/reservations';
import { ApiError, apiResponse, buildUrl } from './api-client';
import type { StaffDatabase } from './db';
import { loadDatabase } from './db-loader';
import { urlKey } from './offline-engine';
import { getSyncSnapshot, updateSyncSnapshot } from './sync-state';
import { accessTokenOf, currentStaffId, staffSession } from './token-session';

/**
 * Keeps the local copy (src/lib/db.ts) current (docs/architecture.md#offline-design): on start, on `online` and on focus.
 *   - Reservations of a rolling window (30 days back, 90 ahead) and every customer in scope: the first time (and
 *     once a day, or when the window moved) in full, otherwise only what changed since the last sync
 *     (`updated_since`). Pages of 1,000 rows, four at a time.
 *   - The menu, the staff profile, and the opening-time calendar of this month and the next: whole.
 * The watermark is the server's clock (its Date header) minus a margin, never the device's: a row written by a
 * transaction that began before the previous sync but committed after it is still picked up. Rows seen twice are
 * simply written twice.
 */

export const WINDOW_PAST_DAYS = 30;
export const WINDOW_FUTURE_DAYS = 90;
const PAGE_SIZE = 1000;
const CONCURRENCY = 4;
const WATERMARK_MARGIN_MS = 2 * 60_000;
const FULL_SYNC_EVERY_MS = 24 * 60 * 60_000;
const META_KEY = 'sync';

interface SyncMeta {
  window: { from: string; to: string };
  reservationsSince: string;
  customersSince: string;
  fullAt: number;
  lastSyncAt: number;
  staffId: number | null;
}

export interface SyncReport {
  full: boolean;
  reservations: number;
  customers: number;
  ms: number;
}

class SyncHttpError extends Error {
  constructor(readonly status: number) {
    super(`sync: HTTP ${status}`);
  }
}

const pad = (value: number) => String(value).padStart(2, '0');
const localDate = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The days the reservation copy covers, device-local (the front desk runs in the salon's zone). */
export function reservationWindow(now = new Date()): { from: string; to: string } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - WINDOW_PAST_DAYS);
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + WINDOW_FUTURE_DAYS);
  return { from: localDate(from), to: localDate(to) };
}

interface Page<T> {
  rows: T;
  total: number;
  serverTime: number;
}

async function get<T>(path: string, query: Record<string, string | number | undefined>): Promise<Page<T>> {
  try {
    // An expired token is refreshed before asking (once for all pages: refreshes in flight are shared).
    const { data, headers } = await apiResponse<T>(path, { query, auth: 'admin', refreshAhead: 5000, offline: false });
    const total = Number(headers.get('X-Total-Count') ?? (Array.isArray(data) ? data.length : 0));
    const serverTime = Date.parse(headers.get('Date') ?? '') || Date.now();
    return { rows: data, total, serverTime };
  } catch (error) {
    throw new SyncHttpError(error instanceof ApiError ? error.status : 0);
  }
}

/**
 * Every page of a list, each handed to `onPage` (written) as it arrives, so that writing overlaps fetching. A full
 * sync asks for the first pages at once (most lists fit in them); the first answer's X-Total-Count says what else
 * there is, fetched a few at a time. A delta asks for one page first: it is usually all there is.
 */
async function eachPage<T>(
  path: string,
  query: Record<string, string | number | undefined>,
  full: boolean,
  onPage: (rows: T[]) => Promise<void>,
): Promise<{ count: number; serverTime: number }> {
  let count = 0;
  const fetchPage = async (offset: number) => {
    const page = await get<T[]>(path, { ...query, limit: PAGE_SIZE, offset });
    count += page.rows.length;
    await onPage(page.rows);
    return page;
  };
  const firstOffsets = Array.from({ length: full ? CONCURRENCY : 1 }, (_, index) => index * PAGE_SIZE);
  // All awaited together: when the first page fails, a failure of the others is part of the same rejection rather
  // than an unhandled one.
  const [firstPage] = await Promise.all(firstOffsets.map(fetchPage));
  const { total, serverTime } = firstPage!;
  const offsets: number[] = [];
  for (let offset = firstOffsets.length * PAGE_SIZE; offset < total; offset += PAGE_SIZE) offsets.push(offset);
  let next = 0;
  const worker = async () => {
    while (next < offsets.length) await fetchPage(offsets[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, offsets.length) }, worker));
  return { count, serverTime };
}

const watermark = (serverTime: number) => new Date(serverTime - WATERMARK_MARGIN_MS).toISOString();

async function syncReservations(db: StaffDatabase, window: SyncMeta['window'], since: string | null) {
  const query = { start_date: window.from, end_date: window.to, updated_since: since ?? undefined };
  const lower = `${window.from}T00:00:00`;
  const upper = `${window.to}T99`;
  const seen = new Set<string>();
  const { count, serverTime } = await eachPage<Reservation>('/api/admin/reservations/', query, !since, async (rows) => {
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
}

async function syncCustomers(db: StaffDatabase, since: string | null) {
  const seen = new Set<number>();
  const query = { updated_since: since ?? undefined };
  const { count, serverTime } = await eachPage<AdminCustomer>('/api/admin/customers/', query, !since, async (rows) => {
    for (const row of rows) seen.add(row.id);
    await db.customers.bulkPut(rows);
  });
  if (!since) {
    const kept = await db.customers.toCollection().primaryKeys();
    await db.customers.bulkDelete(kept.filter((key) => !seen.has(key)));
  }
  return { count, since: watermark(serverTime) };
}

async function keepAnswer(
  db: StaffDatabase,
  table: 'schedule' | 'responses',
  path: string,
  query: Record<string, string | number | undefined> = {},
) {
  const { rows } = await get<unknown>(path, query);
  await db[table].put({ url: urlKey(buildUrl(path, query)), data: rows, savedAt: Date.now() });
  return rows;
}

/** The small things: profile, menu, and the calendar the opening-time screen opens on. */
async function syncSmall(db: StaffDatabase, now: Date) {
  const [profile, services] = await Promise.all([
    keepAnswer(db, 'responses', '/api/admin/me/') as Promise<AdminProfile>,
    get<Service[]>('/api/services/', {}),
  ]);
  await db.transaction('rw', db.services, db.responses, async () => {
    await db.services.clear();
    if (Array.isArray(services.rows)) await db.services.bulkPut(services.rows);
    await db.responses.put({ url: '/api/services/', data: services.rows, savedAt: Date.now() });
  });
  // The schedule screen asks for a superuser's own calendar with user_id, everyone else's without.
  const userId = profile.is_superuser ? profile.id : undefined;
  const months = [0, 1].map((offset) => new Date(now.getFullYear(), now.getMonth() + offset, 1));
  await Promise.all([
    ...months.map((month) =>
      keepAnswer(db, 'schedule', '/api/admin/configured-dates/', {
        year: month.getFullYear(),
        month: month.getMonth() + 1,
        user_id: userId,
      }),
    ),
    profile.is_superuser ? keepAnswer(db, 'schedule', '/api/admin/users/') : Promise.resolve(),
  ]);
  return profile;
}

let running: Promise<SyncReport | null> | null = null;

/**
 * One sync (a call during a running one shares it). Resolves null when there was nothing to do it with (offline,
 * signed out); rejects only on unexpected errors (a network or server failure is noted in the sync snapshot).
 */
export function syncNow(options: { force?: boolean } = {}): Promise<SyncReport | null> {
  running ??= runSync(options.force ?? false).finally(() => {
    running = null;
  });
  return running;
}

async function runSync(force: boolean): Promise<SyncReport | null> {
  if (navigator.onLine === false || !accessTokenOf(staffSession)) return null;
  const started = performance.now();
  updateSyncSnapshot({ syncing: true });
  try {
    const db = await loadDatabase();
    const now = new Date();
    const window = reservationWindow(now);
    const meta = (await db.meta.get(META_KEY))?.value as SyncMeta | undefined;
    // The token's subject, not the profile: the lists need not wait for it.
    const staffId = currentStaffId();
    performance.mark('salon-sync-start');
    const full =
      force ||
      !meta ||
      meta.staffId !== staffId ||
      meta.window.from !== window.from ||
      meta.window.to !== window.to ||
      Date.now() - meta.fullAt > FULL_SYNC_EVERY_MS;
    const [reservations, customers] = await Promise.all([
      syncReservations(db, window, full ? null : meta.reservationsSince),
      syncCustomers(db, full ? null : meta.customersSince),
      syncSmall(db, now),
    ]);
    const lastSyncAt = Date.now();
    await db.meta.put({
      key: META_KEY,
      value: {
        window,
        reservationsSince: reservations.since,
        customersSince: customers.since,
        fullAt: full ? lastSyncAt : meta!.fullAt,
        lastSyncAt,
        staffId,
      } satisfies SyncMeta,
    });
    performance.measure(full ? 'salon-sync-full' : 'salon-sync-delta', 'salon-sync-start');
    updateSyncSnapshot({ lastSyncAt, window, failed: false });
    return { full, reservations: reservations.count, customers: customers.count, ms: performance.now() - started };
  } catch (error) {
    updateSyncSnapshot({ failed: true });
    if (error instanceof SyncHttpError) return null;
    throw error;
  } finally {
    updateSyncSnapshot({ syncing: false });
  }
}

/** Puts what the last sync left in IndexedDB into the snapshot (at start, before any network). */
export async function loadSyncState(): Promise<void> {
  const db = await loadDatabase();
  const meta = (await db.meta.get(META_KEY))?.value as SyncMeta | undefined;
  if (meta && getSyncSnapshot().lastSyncAt === null)
    updateSyncSnapshot({ lastSyncAt: meta.lastSyncAt, window: meta.window });
}
