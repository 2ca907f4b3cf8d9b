import type { OutboxEntry } from './db';

/**
 * The outbox as the screens see it: a snapshot kept in memory by src/lib/outbox.ts. No Dexie here, so that the
 * update prompt (in the entry chunk) and the admin screens can read it without loading the database.
 */
export interface OutboxSnapshot {
  /** False until the outbox has been read from IndexedDB once in this page. */
  loaded: boolean;
  entries: readonly OutboxEntry[];
  flushing: boolean;
  /** A replay found the session over (refresh refused): the queue waits for the next login. */
  needsLogin: boolean;
  /** Epoch ms of the last attempt to send (a flush, or a change's first send), for the header. */
  lastAttemptAt: number | null;
}

let snapshot: OutboxSnapshot = { loaded: false, entries: [], flushing: false, needsLogin: false, lastAttemptAt: null };
const listeners = new Set<() => void>();

export function getOutboxSnapshot(): OutboxSnapshot {
  return snapshot;
}

export function updateOutboxSnapshot(patch: Partial<OutboxSnapshot>): void {
  snapshot = { ...snapshot, ...patch };
  if (patch.entries) rememberWhetherWaiting(patch.entries.length > 0);
  for (const listener of listeners) listener();
}

/**
 * Whether the outbox held anything when this device last read it, kept in localStorage beside it: the login
 * screen opens the local database (Dexie, 31 KB gzipped, and IndexedDB) only when there may be changes to
 * announce, so a first visit or an ordinary login loads neither. Unknown (storage refused) counts as yes.
 */
const WAITING_HINT_KEY = 'salon.outbox.waiting';

export function outboxMayHoldChanges(): boolean {
  try {
    return localStorage.getItem(WAITING_HINT_KEY) === '1';
  } catch {
    return true;
  }
}

function rememberWhetherWaiting(waiting: boolean): void {
  try {
    if (waiting) localStorage.setItem(WAITING_HINT_KEY, '1');
    else localStorage.removeItem(WAITING_HINT_KEY);
  } catch {
    // Private modes may refuse storage: the login screen then always looks.
  }
}

/** Fits useSyncExternalStore. */
export function subscribeToOutbox(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Entries not yet accepted by the server: waiting, on their way, or refused and waiting for a person. */
export function outboxCount(state: OutboxSnapshot = snapshot): number {
  return state.entries.length;
}

export const isWaiting = (entry: OutboxEntry) => entry.state === 'pending' || entry.state === 'sending';
export const needsDecision = (entry: OutboxEntry) => entry.state === 'conflict' || entry.state === 'failed';
