import type { AdminCustomer } from '../shared/schemas/customers';
import type { Reservation } from '../shared/schemas/reservations';
import { ApiError, apiRequest, ensureFreshToken } from './api-client';
import type { OutboxEntry, OutboxKind } from './db';
import { newIdempotencyKey } from './idempotency-key';
import { loadDatabase } from './db-loader';
import { getOutboxSnapshot, isWaiting, needsDecision, updateOutboxSnapshot } from './outbox-state';
import { clearTokens, currentStaffId, staffSession } from './token-session';

/**
 * The outbox of docs/architecture.md#offline-design: confirm, cancel, memo edits and カルテ photos made without a connection wait here, in IndexedDB,
 * in the order they were made, and are replayed when the connection is back.
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

export type OutboxChange =
  | {
      kind: 'reservation-confirm' | 'reservation-cancel';
      reservationNumber: string;
      /**
       * The start the staff member saw when they pressed the button (salon-local). Sent with the action: if the
       * reservation has been moved since, the server refuses it (409 `rescheduled`, a conflict for a person to
       * look at) instead of applying it to the new time.
       */
      expectedStartTime: string;
    }
  | { kind: 'customer-notes'; customerId: number; notes: string; customerName?: string }
  /** A カルテ photo: sent as multipart; the server records its Idempotency-Key on the photo, so a replay stores one. */
  | { kind: 'visit-photo'; reservationNumber: string; photo: Blob; fileName: string };

export type SendResult<T = unknown> = { queued: false; data: T } | { queued: true };

export interface FlushResult {
  sent: number;
  /** Entries still in the outbox afterwards (waiting or refused). */
  remaining: number;
  /** Why the run ended early, if it did. */
  stopped?: 'offline' | 'login' | 'server';
}

/** A server that keeps failing (5xx, 429) is tried this many times before a person is asked. */
export const MAX_SERVER_ATTEMPTS = 5;
/** Refresh before replay when the access token expires within this margin. */
const TOKEN_MARGIN_MS = 30_000;
const LOCK_NAME = 'salon-outbox-flush';
const CHANNEL_NAME = 'salon-outbox';
export const SYNC_TAG = 'outbox-flush';

const ACTION_PATHS = { 'reservation-confirm': 'confirm', 'reservation-cancel': 'cancel' } as const;
const NEXT_STATUS = { 'reservation-confirm': 'confirmed', 'reservation-cancel': 'cancelled' } as const;

export function targetOf(change: OutboxChange): string {
  if (change.kind === 'customer-notes') return `customer:${change.customerId}`;
  // Photos wait apart from the reservation's status changes: neither holds the other back.
  if (change.kind === 'visit-photo') return `karte:${change.reservationNumber}`;
  return `reservation:${change.reservationNumber}`;
}

/** The multipart body of a stored photo (rebuilt on every attempt: a FormData cannot be kept in IndexedDB). */
function photoFormOf(photo: NonNullable<OutboxEntry['photo']>): FormData {
  const form = new FormData();
  form.set('photo', new Blob([photo.bytes], { type: photo.type }), photo.name);
  return form;
}

function requestOf(change: OutboxChange): Pick<OutboxEntry, 'method' | 'path' | 'body'> {
  if (change.kind === 'visit-photo') {
    return { method: 'POST', path: `/api/admin/reservations/${encodeURIComponent(change.reservationNumber)}/photos/` };
  }
  if (change.kind === 'customer-notes') {
    return { method: 'PATCH', path: `/api/admin/customers/${change.customerId}/`, body: { notes: change.notes } };
  }
  return {
    method: 'POST',
    path: `/api/admin/reservations/${encodeURIComponent(change.reservationNumber)}/${ACTION_PATHS[change.kind]}/`,
    body: { expected_start_time: change.expectedStartTime },
  };
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * Sends the change now when that can work (online, nothing of the same target waiting), else queues it. A send
 * that got no answer is queued with the key it was sent with, so that its replay cannot apply it twice. Any other
 * failure is thrown for the screen to show, as before the outbox existed.
 */
export async function sendOrQueue<T = unknown>(change: OutboxChange): Promise<SendResult<T>> {
  const request = requestOf(change);
  const key = newIdempotencyKey();
  const target = targetOf(change);
  const behindOthers = getOutboxSnapshot().entries.some((entry) => entry.target === target);
  if (!isOffline() && !behindOthers) {
    try {
      const data = await apiRequest<T>(request.path, {
        method: request.method,
        body: change.kind === 'visit-photo' ? photoFormOf(await photoOf(change)) : request.body,
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
      return { queued: true };
    }
  }
  await enqueue(change, key);
  if (!isOffline()) void flushOutbox('enqueue');
  return { queued: true };
}

async function photoOf(
  change: Extract<OutboxChange, { kind: 'visit-photo' }>,
): Promise<NonNullable<OutboxEntry['photo']>> {
  return { bytes: await bytesOf(change.photo), type: change.photo.type || 'image/jpeg', name: change.fileName };
}

/** Blob.arrayBuffer() where it exists; FileReader elsewhere (older Safari, jsdom). */
function bytesOf(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

async function enqueue(change: OutboxChange, idempotencyKey: string): Promise<void> {
  const db = await loadDatabase();
  const entry: OutboxEntry = {
    ...requestOf(change),
    kind: change.kind as OutboxKind,
    target: targetOf(change),
    idempotencyKey,
    staffId: currentStaffId(),
    createdAt: Date.now(),
    state: 'pending',
    attempts: 0,
  };
  if (change.kind === 'visit-photo') {
    entry.reservationNumber = change.reservationNumber;
    entry.photo = await photoOf(change);
  } else if (change.kind === 'customer-notes') {
    entry.customerId = change.customerId;
    entry.customerName = change.customerName;
    entry.notes = change.notes;
  } else {
    entry.reservationNumber = change.reservationNumber;
    entry.nextStatus = NEXT_STATUS[change.kind];
    entry.expectedStartTime = change.expectedStartTime;
  }
  await db.outbox.add(entry);
  await changed();
  requestBackgroundSync();
}

/** Re-reads the outbox into the snapshot (after a change here or in another tab). */
export async function reloadOutbox(): Promise<readonly OutboxEntry[]> {
  const db = await loadDatabase();
  const entries = await db.outbox.orderBy('seq').toArray();
  updateOutboxSnapshot({ loaded: true, entries });
  return entries;
}

let channel: BroadcastChannel | null = null;
function broadcastChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = () => void reloadOutbox();
  return channel;
}

async function changed(): Promise<void> {
  await reloadOutbox();
  broadcastChannel()?.postMessage('changed');
}

/** Lets the service worker flush where the browser has Background Sync (Chromium); elsewhere this does nothing. */
function requestBackgroundSync(): void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker?.controller) return;
  void navigator.serviceWorker.ready
    .then((registration) =>
      (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(
        SYNC_TAG,
      ),
    )
    .catch(() => {});
}

type SentListener = (entry: OutboxEntry, data: unknown) => void;
const sentListeners = new Set<SentListener>();

/** Told about every entry the server accepted (the offline layer stores the answer and refreshes the screens). */
export function onOutboxSent(listener: SentListener): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

let running: Promise<FlushResult> | null = null;
let again = false;
let againAfterNetworkFailure = false;

/**
 * Calls that say the connection may be back: the person pressed 今すぐ送信 or 再送する, or the browser went
 * `online`. Made while a pass is failing for want of a network, they still get a pass of their own; any other call
 * then waits for the next trigger rather than knocking again at once.
 */
const CONNECTION_MAY_BE_BACK = new Set(['button', 'online', 'retry']);

/**
 * Sends what is waiting, in order. One run at a time in this tab (a call during a run asks for one more run) and,
 * through the Web Locks API, in all tabs of the app.
 */
export function flushOutbox(reason = 'manual'): Promise<FlushResult> {
  if (running) {
    again = true;
    if (CONNECTION_MAY_BE_BACK.has(reason)) againAfterNetworkFailure = true;
    return running;
  }
  running = (async () => {
    let result: FlushResult;
    let passes = 0;
    do {
      again = false;
      againAfterNetworkFailure = false;
      passes += 1;
      result = await withLock(flushOnce);
      // What started a replay that sent something (start, online, background-sync, ...): a User Timing mark, so
      // that the browser's own performance tools (and the e2e suite) can tell which trigger did the work.
      if (result.sent > 0) performance.mark('salon-outbox-sent', { detail: { reason, sent: result.sent } });
    } while (again && (!result.stopped || (result.stopped === 'offline' && againAfterNetworkFailure)) && passes < 3);
    return result;
  })().finally(() => {
    running = null;
    updateOutboxSnapshot({ flushing: false });
  });
  return running;
}

function withLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request(LOCK_NAME, work) as Promise<T>) : work();
}

interface Outcome {
  status: number;
  data: unknown;
}

/**
 * One entry, through the API client: the stored token (refreshed first when it is about to expire, and once more on
 * a 401), never answered from the offline copy. A 401 that survives the refresh means the session is over.
 */
async function send(entry: OutboxEntry): Promise<Outcome> {
  try {
    const data = await apiRequest(entry.path, {
      method: entry.method,
      body: entry.photo ? photoFormOf(entry.photo) : entry.body,
      headers: { 'Idempotency-Key': entry.idempotencyKey },
      auth: 'admin',
      refreshAhead: TOKEN_MARGIN_MS,
      offline: false,
    });
    return { status: 200, data };
  } catch (error) {
    if (!(error instanceof ApiError)) return { status: 0, data: undefined };
    return { status: error.status, data: error.body };
  }
}

function errorOf(outcome: Outcome): NonNullable<OutboxEntry['error']> {
  const body = (outcome.data ?? {}) as { detail?: unknown; code?: unknown };
  return {
    status: outcome.status,
    code: typeof body.code === 'string' ? body.code : `http_${outcome.status}`,
    detail: typeof body.detail === 'string' ? body.detail : '',
  };
}

/** The object as the server has it now, for the person deciding a conflict (null: gone or out of reach). */
async function serverStateOf(entry: OutboxEntry): Promise<Reservation | AdminCustomer | null> {
  const path =
    entry.customerId !== undefined
      ? `/api/admin/customers/${entry.customerId}/`
      : `/api/admin/reservations/${encodeURIComponent(entry.reservationNumber ?? '')}/`;
  return apiRequest<Reservation | AdminCustomer>(path, { offline: false }).catch(() => null);
}

async function flushOnce(): Promise<FlushResult> {
  const db = await loadDatabase();
  const entries = await db.outbox.orderBy('seq').toArray();
  const finish = async (sent: number, stopped?: FlushResult['stopped']): Promise<FlushResult> => {
    const left = await db.outbox.count();
    await changed();
    return { sent, remaining: left, stopped };
  };
  if (!entries.some(isWaiting)) return { sent: 0, remaining: entries.length };
  if (isOffline()) return { sent: 0, remaining: entries.length, stopped: 'offline' };

  updateOutboxSnapshot({ flushing: true });
  try {
    await ensureFreshToken('admin', TOKEN_MARGIN_MS);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // Refused: the session is over. The queue stays for whoever signs in next as this staff member.
      updateOutboxSnapshot({ needsLogin: true });
      return finish(0, 'login');
    }
    // No answer (or a 5xx) from the refresh: the tokens may still be good once the server is back.
    return finish(0, 'offline');
  }
  updateOutboxSnapshot({ needsLogin: false });
  const staffId = currentStaffId();

  // A target with a refused entry holds back its later entries: they were made on top of it.
  const blocked = new Set(entries.filter(needsDecision).map((entry) => entry.target));
  let sent = 0;
  for (const entry of entries) {
    if (!isWaiting(entry) || blocked.has(entry.target)) continue;
    // Another staff member's change waits for their own session (the server would record it as this one's).
    if (entry.staffId !== null && entry.staffId !== staffId) {
      blocked.add(entry.target);
      continue;
    }
    await db.outbox.update(entry.seq!, { state: 'sending' });
    const outcome = await send(entry);

    if (outcome.status >= 200 && outcome.status < 300) {
      await db.outbox.delete(entry.seq!);
      sent += 1;
      for (const listener of sentListeners) listener(entry, outcome.data);
      continue;
    }
    if (outcome.status === 0) {
      await db.outbox.update(entry.seq!, { state: 'pending' });
      return finish(sent, 'offline');
    }
    if (outcome.status === 401) {
      await db.outbox.update(entry.seq!, { state: 'pending' });
      clearTokens(staffSession);
      updateOutboxSnapshot({ needsLogin: true });
      return finish(sent, 'login');
    }
    const error = errorOf(outcome);
    blocked.add(entry.target);
    if (outcome.status === 409 && error.code === 'idempotency_in_flight') {
      // The first attempt is still running on the server: ask again later with the same key.
      await db.outbox.update(entry.seq!, { state: 'pending' });
      continue;
    }
    if (outcome.status >= 500 || outcome.status === 429) {
      const attempts = entry.attempts + 1;
      await db.outbox.update(entry.seq!, {
        state: attempts >= MAX_SERVER_ATTEMPTS ? 'failed' : 'pending',
        attempts,
        error,
        serverState: attempts >= MAX_SERVER_ATTEMPTS ? await serverStateOf(entry) : undefined,
      });
      return finish(sent, 'server');
    }
    // 409 (the object changed meanwhile) and any other 4xx: the same request will not succeed by itself.
    await db.outbox.update(entry.seq!, {
      state: 'conflict',
      attempts: entry.attempts + 1,
      error,
      serverState: await serverStateOf(entry),
    });
  }
  return finish(sent);
}

/** The person decided a refused change is not wanted any more. */
export async function discardOutboxEntry(seq: number): Promise<void> {
  const db = await loadDatabase();
  await db.outbox.delete(seq);
  await changed();
}

/**
 * Whether sending a refused change again could ever work. A status action refused because the reservation was
 * moved (409 `rescheduled`) carries the old start, so it would only be refused again: it is never resent, and a
 * person acts on the reservation as it now is instead.
 */
export function canRetry(entry: Pick<OutboxEntry, 'error'>): boolean {
  return entry.error?.code !== 'rescheduled';
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
  await changed();
  return flushOutbox('retry');
}

/** For tests: forget the in-page state (the database itself is left to the caller). */
export function resetOutboxForTests(): void {
  running = null;
  again = false;
  againAfterNetworkFailure = false;
  updateOutboxSnapshot({ loaded: false, entries: [], flushing: false, needsLogin: false });
}
