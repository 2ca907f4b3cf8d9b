import { useSyncExternalStore } from 'react';

/**
 * Whether the server answers (docs/architecture.md#offline-design). navigator.onLine says only that the device has
 * a network; a phone with signal and nothing coming back (a "black hole") stays online. The transport
 * (src/lib/api-transport.ts) notes every exchange here: a request that got no answer, or none within its time
 * limit, makes the connection unstable; any answer makes it good again. The shell then tells three states apart:
 * オフライン (navigator.onLine false), 接続が不安定です (online, no answers), and normal.
 */
interface ConnectionSnapshot {
  /** The last request got no answer while the device was online. */
  unstable: boolean;
  /** Epoch ms of the last request that got no answer. */
  lastFailureAt: number | null;
}

let snapshot: ConnectionSnapshot = { unstable: false, lastFailureAt: null };
const listeners = new Set<() => void>();

function update(next: ConnectionSnapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

export function getConnectionSnapshot(): ConnectionSnapshot {
  return snapshot;
}

function subscribeToConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An HTTP answer arrived (whatever its status: the server is reachable). */
export function noteAnswer(): void {
  if (snapshot.unstable) update({ ...snapshot, unstable: false });
}

/** No answer arrived (a network failure or the time limit). Offline, that is no news. */
export function noteNoAnswer(): void {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  update({ unstable: true, lastFailureAt: Date.now() });
}

/** How often at most the app reacts to the connection coming back (onConnectionBack). */
const CONNECTION_BACK_MIN_INTERVAL_MS = 10_000;

/**
 * Calls `listener` when the connection goes from unstable (no answers) back to answering, at most once per 10 s. On a
 * network that answers some requests and drops others (a POST reset while GETs get through), each answer says
 * "back" and each failed send "unstable" again, and the reaction (a flush, a sync and the screens read afresh,
 * src/app/offline/offline-layer.ts) made the requests that said "back" next: a loop as fast as the network. The
 * outbox's own retries (src/lib/outbox-retry.ts) go on meanwhile.
 */
export function onConnectionBack(listener: () => void): () => void {
  let unstable = snapshot.unstable;
  let reactedAt = Number.NEGATIVE_INFINITY;
  return subscribeToConnection(() => {
    const now = snapshot.unstable;
    if (unstable && !now && Date.now() - reactedAt >= CONNECTION_BACK_MIN_INTERVAL_MS) {
      reactedAt = Date.now();
      listener();
    }
    unstable = now;
  });
}

/** For tests. */
export function resetConnectionForTests(): void {
  snapshot = { unstable: false, lastFailureAt: null };
}

/** The three states of the shell: 'offline', 'unstable' (online, no answers), 'online'. */
type ConnectionState = 'offline' | 'unstable' | 'online';

function subscribeAll(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  const stop = subscribeToConnection(listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
    stop();
  };
}

const stateNow = (): ConnectionState =>
  navigator.onLine === false ? 'offline' : snapshot.unstable ? 'unstable' : 'online';

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(subscribeAll, stateNow, () => 'online');
}
