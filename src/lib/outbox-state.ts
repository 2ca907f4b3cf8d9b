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
}

let snapshot: OutboxSnapshot = { loaded: false, entries: [], flushing: false, needsLogin: false };
const listeners = new Set<() => void>();

export function getOutboxSnapshot(): OutboxSnapshot {
  return snapshot;
}

export function updateOutboxSnapshot(patch: Partial<OutboxSnapshot>): void {
  snapshot = { ...snapshot, ...patch };
  for (const listener of listeners) listener();
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
