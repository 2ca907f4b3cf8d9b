import type { QueryClient } from '@tanstack/react-query';
import { customerKeys } from '../../lib/query-keys';
import { reservationAdminKeys } from '../../lib/query-keys';
import { setOfflineAdapter } from '../../lib/api-client';
import { clearStaffData, db, readMeta } from '../../lib/db';
import { onConnectionBack } from '../../lib/connection-state';
import { flushOutbox, onOutboxSent, reloadOutbox } from '../../lib/outbox';
import { startOutboxRetry } from '../../lib/outbox-retry';
import { getOutboxSnapshot, isWaiting } from '../../lib/outbox-state';
import { persistQueryCache } from '../../lib/query-persist';
import { loadSyncState, syncNow } from '../../lib/sync';
import { updateSyncSnapshot } from '../../lib/sync-state';
import { accessTokenOf, currentStaffId, staffSession, subscribeToTokens } from '../../lib/token-session';
import { staffOfflineEngine } from './staff-offline';

/**
 * The staff app's offline layer (docs/architecture.md#offline-design), started by the admin area once a staff member is signed in and
 * loaded as a chunk of its own (it brings Dexie). It
 *   - restores the persisted query cache (admin queries only) and keeps saving it;
 *   - answers admin GETs from IndexedDB when there is no network, and stores every answer on the way;
 *   - syncs the local copy on start, on `online` and on focus (deltas by `updated_since`);
 *   - flushes the outbox on start, `online`, `visibilitychange`, after any successful request, when the server
 *     answers again after a time without answers, on a backoff timer while online but failing, and when the
 *     service worker's Background Sync asks;
 *   - asks for persistent storage, so that the browser does not evict the queue under storage pressure;
 *   - at logout, drops the staff member's data and cache (the outbox stays: no change is lost by signing out).
 */

const FOCUS_SYNC_INTERVAL_MS = 30_000;

/**
 * Background Sync (sw/sw.ts): the worker has no token, so it asks an open page to flush. The page answers at once
 * that it has taken the queue over (its own retry schedule, src/lib/outbox-retry.ts, keeps trying while it is
 * open) and flushes after answering: the worker's sync event then never stays in flight while a flush waits on
 * the network, and a new version's worker told to skip waiting is not held back by it.
 */
function answerBackgroundSync(event: MessageEvent) {
  if ((event.data as { type?: unknown } | null)?.type !== 'FLUSH_OUTBOX') return;
  event.ports[0]?.postMessage({ accepted: true });
  void flushOutbox('background-sync');
}

const SYNC_META_KEY = 'sync';

export async function startOfflineLayer(queryClient: QueryClient): Promise<() => void> {
  await db.open();
  // Another staff member's copy (their session ended without a logout on this device) is not this one's to see.
  const previous = await readMeta<{ staffId?: number }>(SYNC_META_KEY);
  if (previous?.staffId !== undefined && previous.staffId !== currentStaffId()) await clearStaffData();

  // What each feature keeps and answers offline is declared in the feature (src/app/offline/staff-offline.ts).
  const engine = staffOfflineEngine;
  for (const root of engine.localFirstRoots) queryClient.setQueryDefaults([root], { networkMode: 'always' });
  const persistence = await persistQueryCache(
    queryClient,
    db,
    engine.persistedRoots,
    `staff:${currentStaffId() ?? ''}`,
  );
  await Promise.all([reloadOutbox(), loadSyncState()]);

  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flushSoon = (reason: string) => {
    if (!getOutboxSnapshot().entries.some(isWaiting)) return;
    clearTimeout(flushTimer);
    flushTimer = setTimeout(() => void flushOutbox(reason), 300);
  };
  setOfflineAdapter(engine.adapter(() => flushSoon('after-success')));

  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  const refreshScreens = () => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: reservationAdminKeys.all });
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    }, 100);
  };
  const stopSent = onOutboxSent((entry, data) => {
    void engine.store(entry.method, new URL(entry.path, window.location.origin), data).catch(() => {});
    refreshScreens();
  });

  let lastSync = 0;
  const sync = (minIntervalMs = 0) => {
    if (Date.now() - lastSync < minIntervalMs) return;
    lastSync = Date.now();
    void syncNow().then(
      (report) => {
        if (report && !report.full && report.changed > 0) refreshScreens();
      },
      (error: unknown) => console.warn('同期に失敗しました', error),
    );
  };

  const onOnline = () => {
    void flushOutbox('online');
    sync();
  };
  const onFocus = () => sync(FOCUS_SYNC_INTERVAL_MS);
  const onVisibility = () => {
    if (document.visibilityState !== 'visible') return;
    void flushOutbox('visibilitychange');
    sync(FOCUS_SYNC_INTERVAL_MS);
  };
  const stopRetry = startOutboxRetry();
  // The server answers again after a time without answers: what is waiting goes, the screens read afresh.
  const stopConnection = onConnectionBack(() => {
    void flushOutbox('connection-back');
    refreshScreens();
    sync();
  });
  window.addEventListener('online', onOnline);
  window.addEventListener('focus', onFocus);
  document.addEventListener('visibilitychange', onVisibility);
  navigator.serviceWorker?.addEventListener('message', answerBackgroundSync);

  let signedIn = Boolean(accessTokenOf(staffSession));
  const stopTokens = subscribeToTokens(() => {
    const now = Boolean(accessTokenOf(staffSession));
    if (signedIn && !now) {
      setOfflineAdapter(null);
      updateSyncSnapshot({ lastSyncAt: null, window: null });
      void persistence
        .clear()
        .then(() => clearStaffData())
        .catch(() => {});
    }
    signedIn = now;
  });

  void navigator.storage?.persist?.().catch(() => false);
  void flushOutbox('start');
  sync();

  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('focus', onFocus);
    document.removeEventListener('visibilitychange', onVisibility);
    navigator.serviceWorker?.removeEventListener('message', answerBackgroundSync);
    stopRetry();
    stopConnection();
    clearTimeout(flushTimer);
    clearTimeout(refreshTimer);
    stopSent();
    stopTokens();
    persistence.stop();
    setOfflineAdapter(null);
  };
}
