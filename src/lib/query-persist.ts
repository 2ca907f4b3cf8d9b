import type { Query, QueryClient } from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistedClient,
  type Persister,
} from '@tanstack/react-query-persist-client';
import type { StaffDatabase } from './db';

/**
 * The persisted React Query cache of the staff app (docs/architecture.md#offline-design): a cold start renders the screens seen last at
 * once, before any network. Only the admin queries named by the caller are kept (never the customer pages'), in
 * the Dexie table queryCache; the whole entry is dropped at logout.
 */

const ROW_KEY = 'admin';
/** Bump when a cached answer's shape changes: an older cache is then dropped instead of restored. */
const CACHE_VERSION = 'v1';
const MAX_AGE_MS = 14 * 24 * 60 * 60_000;
/** Writes are coalesced: the cache changes on every fetch, IndexedDB need not. */
const SAVE_DELAY_MS = 1000;

function createDexiePersister(db: StaffDatabase): Persister {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let latest: PersistedClient | null = null;
  return {
    persistClient(client) {
      latest = client;
      timer ??= setTimeout(() => {
        timer = null;
        const value = latest;
        latest = null;
        if (value) void db.queryCache.put({ key: ROW_KEY, value }).catch(() => {});
      }, SAVE_DELAY_MS);
    },
    async restoreClient() {
      return (await db.queryCache.get(ROW_KEY))?.value as PersistedClient | undefined;
    },
    async removeClient() {
      if (timer) clearTimeout(timer);
      timer = null;
      latest = null;
      await db.queryCache.delete(ROW_KEY);
    },
  };
}

function shouldPersist(roots: ReadonlySet<string>) {
  return (query: Query) => query.state.status === 'success' && roots.has(String(query.queryKey[0]));
}

// The persist package is built against its own copy of query-core's types; the client is the same object.
type PersistClient = Parameters<typeof persistQueryClientRestore>[0]['queryClient'];

/**
 * Restores the last cache (if fresh, of this shape and of this `owner`: another staff member's is dropped), then
 * keeps saving it.
 */
export async function persistQueryCache(
  queryClient: QueryClient,
  db: StaffDatabase,
  roots: ReadonlySet<string>,
  owner: string,
): Promise<{ stop(): void; clear(): Promise<void> }> {
  const persister = createDexiePersister(db);
  const buster = `${CACHE_VERSION}:${owner}`;
  const client = queryClient as unknown as PersistClient;
  try {
    await persistQueryClientRestore({ queryClient: client, persister, buster, maxAge: MAX_AGE_MS });
  } catch {
    // A cache that cannot be read is only a slower start.
  }
  const stop = persistQueryClientSubscribe({
    queryClient: client,
    persister,
    buster,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist(roots) as never },
  });
  return {
    stop,
    clear: async () => {
      stop();
      await persister.removeClient();
    },
  };
}
