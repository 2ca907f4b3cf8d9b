import { ApiError, apiResponse, buildUrl } from './api-client';
import type { StaffDatabase } from './db';
import { urlKey } from './offline-engine';

/**
 * What the sync (src/lib/sync.ts) pulls, declared by the features beside their offline readers
 * (docs/architecture.md#offline-design): each pull fetches its own lists or answers with the helpers here and
 * writes them into the local database. The sync itself knows no endpoint.
 */

type Query = Record<string, string | number | undefined>;

interface Page<T> {
  rows: T;
  total: number;
  serverTime: number;
}

export class SyncHttpError extends Error {
  constructor(readonly status: number) {
    super(`sync: HTTP ${status}`);
  }
}

interface PullContext {
  db: StaffDatabase;
  /** A full sync (first, daily, window or staff changed): every row, and what the server no longer shows goes. */
  full: boolean;
  /** This pull's watermark from the last sync (null in a full sync). */
  since: string | null;
  /** The days the reservation copy covers, device-local, `yyyy-MM-dd` inclusive. */
  window: { from: string; to: string };
  now: Date;
  /** The value another pull (named in `after`) resolved with. */
  resultOf(name: string): Promise<unknown>;
}

export interface PullResult {
  /** Rows written (counted into the report: a delta that wrote some refreshes the screens). */
  count?: number;
  /** The next watermark of a pull that reads deltas (`updated_since`). */
  since?: string;
  /** Handed to the pulls that run after this one. */
  value?: unknown;
}

export interface SyncPull {
  name: string;
  /** Pulls whose result this one needs (it starts when they are done). */
  after?: readonly string[];
  run(context: PullContext): Promise<PullResult>;
}

const PAGE_SIZE = 1000;
const CONCURRENCY = 4;
const WATERMARK_MARGIN_MS = 2 * 60_000;

export async function getPage<T>(path: string, query: Query): Promise<Page<T>> {
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
export async function eachPage<T>(
  path: string,
  query: Query,
  full: boolean,
  onPage: (rows: T[]) => Promise<void>,
): Promise<{ count: number; serverTime: number }> {
  let count = 0;
  const fetchPage = async (offset: number) => {
    const page = await getPage<T[]>(path, { ...query, limit: PAGE_SIZE, offset });
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

/**
 * The next `updated_since`: the server's clock (its Date header) minus a margin, never the device's: a row written
 * by a transaction that began before this sync but committed after it is still picked up next time.
 */
export const watermark = (serverTime: number) => new Date(serverTime - WATERMARK_MARGIN_MS).toISOString();

/** Keeps a whole GET answer by URL (the readers of answerByUrl read it back). */
export async function keepAnswer(db: StaffDatabase, table: 'schedule' | 'responses', path: string, query: Query = {}) {
  const { rows } = await getPage<unknown>(path, query);
  await db[table].put({ url: urlKey(buildUrl(path, query)), data: rows, savedAt: Date.now() });
  return rows;
}
