import { OUTBOX_SYNC_TAG } from '../shared/outbox-sync';
import { ApiError, apiRequest } from './api-client';
import type { OutboxEntry } from './db';
import { loadDatabase } from './db-loader';
import { newIdempotencyKey } from './idempotency-key';
import { changeKindFor, changeKindOf, requestOf, type QueuedChange } from './outbox-changes';
import { flushOutbox, isOffline, resetFlushForTests, type FlushResult } from './outbox-flush';
import { retryLater } from './outbox-retry';
import { getOutboxSnapshot, updateOutboxSnapshot } from './outbox-state';
import { outboxChanged } from './outbox-store';
import { currentStaffId } from './token-session';

/**
 * The outbox of docs/architecture.md#offline-design: changes made without a connection (confirm, cancel, memo
 * edits, カルテ photos: whatever the features declare as queueable, src/lib/outbox-changes.ts) wait here, in
 * IndexedDB, in the order they were made, and are replayed when the connection is back. It knows no endpoint.
 *
 *   - Every entry has its own Idempotency-Key: a replay of a request that did arrive is answered from the server's
 *     record, so each change happens exactly once however often it is sent (reloads, crashes, two tabs).
 *   - Entries of one target (a reservation, a customer) replay in order; one that is stuck holds back the later
 *     ones of the same target, never those of others.
 *   - Replay uses a fresh access token: it refreshes first when the stored one is (nearly) expired. A refused
 *     refresh ends the session and keeps the queue for the next login.
 *   - A 409 or another 4xx is a conflict: the entry stops, with the server's answer and its current state, until
 *     a person discards it or sends it again. Repeated 5xx answers stop it the same way. Nothing is retried
 *     forever, nothing is dropped without a person deciding it.
 *
 * Dexie is imported on demand: this module is part of the admin screens' first chunk, the database is not.
 */

export { discardOutboxEntry, reloadOutbox } from './outbox-store';
export { flushOutbox, MAX_SERVER_ATTEMPTS, onOutboxSent } from './outbox-flush';

export type SendResult<T = unknown> = { queued: false; data: T } | { queued: true };

/**
 * Sends the change now when that can work (online, nothing of the same target waiting), else queues it. A send
 * that got no answer is queued with the key it was sent with, so that its replay cannot apply it twice. Any other
 * failure is thrown for the screen to show, as before the outbox existed.
 */
export async function sendOrQueue<T = unknown>(change: QueuedChange): Promise<SendResult<T>> {
  const kind = changeKindFor(change);
  const key = newIdempotencyKey();
  const target = kind.target(change);
  const behindOthers = getOutboxSnapshot().entries.some((entry) => entry.target === target);
  if (!isOffline() && !behindOthers) {
    updateOutboxSnapshot({ lastAttemptAt: Date.now() });
    try {
      const request = requestOf(change);
      const body = kind.form ? kind.form({ ...(await kind.keep(change)) } as OutboxEntry) : request.body;
      const data = await apiRequest<T>(request.path, {
        method: request.method,
        body,
        headers: { 'Idempotency-Key': key },
      });
      return { queued: false, data };
    } catch (error) {
      if (!(error instanceof ApiError && error.isNetworkError)) throw error;
      try {
        await enqueue(change, key);
      } catch {
        // No IndexedDB (private mode, a test without it): nothing can be kept, so say it failed.
        throw error;
      }
      // No answer (none at all, or none within the transport's time limit): sent again by itself later.
      retryLater();
      return { queued: true };
    }
  }
  await enqueue(change, key);
  if (!isOffline()) void flushOutbox('enqueue');
  return { queued: true };
}

async function enqueue(change: QueuedChange, idempotencyKey: string): Promise<void> {
  const db = await loadDatabase();
  const kind = changeKindFor(change);
  const entry: OutboxEntry = {
    ...(await kind.keep(change)),
    ...requestOf(change),
    kind: change.kind,
    target: kind.target(change),
    idempotencyKey,
    staffId: currentStaffId(),
    createdAt: Date.now(),
    state: 'pending',
    attempts: 0,
  };
  await db.outbox.add(entry);
  await outboxChanged();
  requestBackgroundSync();
}

/** Lets the service worker flush where the browser has Background Sync (Chromium); elsewhere this does nothing. */
function requestBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker?.controller) return;
  void navigator.serviceWorker.ready
    .then((registration) =>
      (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(
        OUTBOX_SYNC_TAG,
      ),
    )
    .catch(() => {});
}

/** Whether sending a refused change again could ever work (its kind decides; an unknown kind may be tried). */
export function canRetry(entry: OutboxEntry): boolean {
  return changeKindOf(entry.kind)?.canRetry?.(entry) ?? true;
}

/**
 * The person wants a refused change sent again. It gets a new Idempotency-Key: under the old one the server
 * would only repeat its stored refusal.
 */
export async function retryOutboxEntry(seq: number): Promise<FlushResult> {
  const db = await loadDatabase();
  const entry = await db.outbox.get(seq);
  if (entry && !canRetry(entry)) return { sent: 0, remaining: await db.outbox.count() };
  await db.outbox.update(seq, {
    state: 'pending',
    attempts: 0,
    idempotencyKey: newIdempotencyKey(),
    error: undefined,
    serverState: undefined,
  });
  await outboxChanged();
  return flushOutbox('retry');
}

/** For tests: forget the in-page state (the database itself is left to the caller). */
export function resetOutboxForTests(): void {
  resetFlushForTests();
  updateOutboxSnapshot({ loaded: false, entries: [], flushing: false, needsLogin: false, lastAttemptAt: null });
}
