import { useSyncExternalStore } from 'react';
import type { OutboxEntry } from './db';
import { getOutboxSnapshot, isWaiting, needsDecision, subscribeToOutbox, type OutboxSnapshot } from './outbox-state';
import { getSyncSnapshot, subscribeToSync, type SyncSnapshot } from './sync-state';

/** The outbox as React state (see src/lib/outbox-state.ts). */
export function useOutbox(): OutboxSnapshot {
  return useSyncExternalStore(subscribeToOutbox, getOutboxSnapshot, getOutboxSnapshot);
}

export function useSyncState(): SyncSnapshot {
  return useSyncExternalStore(subscribeToSync, getSyncSnapshot, getSyncSnapshot);
}

export interface PendingChange<T> {
  /** The value the waiting changes lead to (the optimistic one), if any are waiting. */
  value: T | undefined;
  /** Changes not yet accepted by the server are waiting (未送信). */
  waiting: boolean;
  /** The server refused one of them; a person must decide (see the shell's list). */
  refused: boolean;
}

function pendingOf<T>(
  entries: readonly OutboxEntry[],
  target: string,
  pick: (entry: OutboxEntry) => T | undefined,
): PendingChange<T> {
  let value: T | undefined;
  let waiting = false;
  let refused = false;
  for (const entry of entries) {
    if (entry.target !== target) continue;
    if (needsDecision(entry)) refused = true;
    if (isWaiting(entry)) {
      waiting = true;
      value = pick(entry) ?? value;
    }
  }
  return { value, waiting, refused };
}

/**
 * The local effect of the changes waiting for one target (a feature's reservation, customer, ...): `pick` reads
 * the value a change leads to from the fields its kind keeps (src/lib/outbox-changes.ts).
 */
export function usePendingChange<T>(target: string, pick: (entry: OutboxEntry) => T | undefined): PendingChange<T> {
  const { entries } = useOutbox();
  return pendingOf(entries, target, pick);
}
