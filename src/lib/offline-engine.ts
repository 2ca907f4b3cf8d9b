import type { OfflineAdapter } from './api-client';
import type { StaffDatabase } from './db';
import type { ChangeKind } from './outbox-changes';
import type { SyncPull } from './sync-pulls';
import { loadDatabase } from './db-loader';

/**
 * The staff app's offline engine (docs/architecture.md#offline-design). It knows no endpoint itself: each feature
 * declares, in its own `offline.ts`, what it keeps (the GET answers it stores in the local database), how it
 * answers without a network (the same filters, order and page sizes as the server), which query roots are
 * persisted for a cold start, what the sync pulls (src/lib/sync-pulls.ts) and which changes may wait in the outbox
 * (src/lib/outbox-changes.ts). src/app/offline/staff-offline.ts lists the features; this module runs them:
 *   - `read(url)`: the first route of any feature that matches the path and has a local answer;
 *   - `store(method, url, data)`: every matching route keeps what it needs of a successful answer.
 * tests/integration/offline-parity.test.ts runs the same filters through these readers and through the server.
 */

export interface OfflineRoute {
  /** The path this route is about: a fixed path, or a pattern whose groups are handed to the handlers. */
  path: string | RegExp;
  /** The local answer for a GET of this path, or undefined when the device holds none. */
  read?(db: StaffDatabase, url: URL, params: readonly string[]): Promise<unknown>;
  /** Keeps what is needed of a successful answer (GET, or a change the server accepted). */
  store?(db: StaffDatabase, method: string, url: URL, data: unknown, params: readonly string[]): Promise<void>;
}

export interface OfflineFeature {
  name: string;
  /** Roots (first element) of the feature's query keys that the persisted query cache keeps for a cold start. */
  persistedRoots: readonly string[];
  /** Roots whose queries answer from local data: they run, rather than pause, without a network. */
  localFirstRoots?: readonly string[];
  routes?: readonly OfflineRoute[];
  /** What every sync pulls into the local database. */
  pulls?: readonly SyncPull[];
  /** The changes made here that may wait in the outbox. */
  changes?: readonly ChangeKind<never>[];
}

interface OfflineEngine {
  read(url: URL, database?: StaffDatabase): Promise<unknown>;
  store(method: string, url: URL, data: unknown, database?: StaffDatabase): Promise<void>;
  readonly persistedRoots: ReadonlySet<string>;
  readonly localFirstRoots: readonly string[];
  readonly pulls: readonly SyncPull[];
  readonly changes: readonly ChangeKind<never>[];
  /** The engine as the API client's OfflineAdapter; `onAnswer` hears of every successful answer. */
  adapter(onAnswer?: (method: string, url: URL) => void): OfflineAdapter;
}

function matchOf(route: OfflineRoute, pathname: string): readonly string[] | null {
  if (typeof route.path === 'string') return route.path === pathname ? [] : null;
  const match = route.path.exec(pathname);
  return match ? match.slice(1).map((group) => decodeURIComponent(group)) : null;
}

export function createOfflineEngine(features: readonly OfflineFeature[]): OfflineEngine {
  const routes = features.flatMap((feature) => feature.routes ?? []);
  const read = async (url: URL, database?: StaffDatabase) => {
    for (const route of routes) {
      const params = route.read ? matchOf(route, url.pathname) : null;
      if (!params) continue;
      return route.read!(database ?? (await loadDatabase()), url, params);
    }
    return undefined;
  };
  const store = async (method: string, url: URL, data: unknown, database?: StaffDatabase) => {
    if (data === undefined || data === null) return;
    const matching = routes.flatMap((route) => {
      const params = route.store ? matchOf(route, url.pathname) : null;
      return params ? [{ route, params }] : [];
    });
    if (matching.length === 0) return;
    const db = database ?? (await loadDatabase());
    for (const { route, params } of matching) await route.store!(db, method, url, data, params);
  };
  return {
    read,
    store,
    persistedRoots: new Set(features.flatMap((feature) => feature.persistedRoots)),
    localFirstRoots: features.flatMap((feature) => feature.localFirstRoots ?? []),
    pulls: features.flatMap((feature) => feature.pulls ?? []),
    changes: features.flatMap((feature) => feature.changes ?? []),
    adapter: (onAnswer) => ({
      read: (url) => read(url),
      observe: (method, url, data) => {
        void store(method, url, data).catch(() => {
          // A full or blocked IndexedDB only costs the offline copy, never the request.
        });
        onAnswer?.(method, url);
      },
    }),
  };
}

/** Pathname plus the query sorted by name: two requests for the same thing share one key. */
export function urlKey(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a, av], [b, bv]) =>
    a === b ? av.localeCompare(bv) : a < b ? -1 : 1,
  );
  const query = new URLSearchParams(params).toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** `limit` and `offset` as the server reads them, with the list's default page size. */
export function page<T>(rows: T[], params: URLSearchParams, defaultLimit: number): T[] {
  const limit = Number(params.get('limit')) || defaultLimit;
  const offset = Number(params.get('offset')) || 0;
  return rows.slice(offset, offset + limit);
}

/** A route that keeps whole GET answers by URL in one of the URL-keyed tables, and answers with them. */
export function answerByUrl(table: 'schedule' | 'responses', path: string): OfflineRoute {
  return {
    path,
    read: async (db, url) => (await db[table].get(urlKey(url)))?.data,
    store: async (db, method, url, data) => {
      if (method === 'GET') await db[table].put({ url: urlKey(url), data, savedAt: Date.now() });
    },
  };
}
