/**
 * What the screens show about the local copy (docs/architecture.md#offline-design "最終同期 HH:mm"): kept by src/lib/sync.ts, read here
 * without loading the sync code or the database.
 */
export interface SyncSnapshot {
  /** Epoch ms of the last complete sync (also after a reload: read back from IndexedDB). */
  lastSyncAt: number | null;
  syncing: boolean;
  /** The days the reservation copy covers, `yyyy-MM-dd` inclusive. */
  window: { from: string; to: string } | null;
  /** The last sync failed for want of a network or server (the copy is as of lastSyncAt). */
  failed: boolean;
}

let snapshot: SyncSnapshot = { lastSyncAt: null, syncing: false, window: null, failed: false };
const listeners = new Set<() => void>();

export function getSyncSnapshot(): SyncSnapshot {
  return snapshot;
}

export function updateSyncSnapshot(patch: Partial<SyncSnapshot>): void {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
}

export function subscribeToSync(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "最終同期 HH:mm" (with the date when it was not today). */
export function formatLastSync(at: number, now = Date.now()): string {
  const date = new Date(at);
  const pad = (value: number) => String(value).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? `最終同期 ${time}` : `最終同期 ${date.getMonth() + 1}/${date.getDate()} ${time}`;
}
