import { ApiError, apiRequest, ensureFreshToken } from './api-client';
import type { OutboxEntry } from './db';
import { loadDatabase } from './db-loader';
import { changeKindOf, statePathOf } from './outbox-changes';
import { isWaiting, needsDecision, updateOutboxSnapshot } from './outbox-state';
import { outboxChanged } from './outbox-store';
import { clearTokens, currentStaffId, staffSession } from './token-session';

/** Replays the outbox (src/lib/outbox.ts has the rules): one run at a time, in order, per target. */

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

export const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

type SentListener = (entry: OutboxEntry, data: unknown) => void;
const sentListeners = new Set<SentListener>();

/** Told about every entry the server accepted (the offline layer stores the answer and refreshes the screens). */
export function onOutboxSent(listener: SentListener): () => void {
  sentListeners.add(listener);
  return () => sentListeners.delete(listener);
}

type FlushListener = (result: FlushResult) => void;
const flushListeners = new Set<FlushListener>();

/** Told about the end of every run (the retry schedule, src/lib/outbox-retry.ts, decides from it). */
export function onOutboxFlushed(listener: FlushListener): () => void {
  flushListeners.add(listener);
  return () => flushListeners.delete(listener);
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
  running.then(
    (result) => {
      for (const listener of flushListeners) listener(result);
    },
    () => {},
  );
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
  const form = changeKindOf(entry.kind)?.form;
  try {
    const data = await apiRequest(entry.path, {
      method: entry.method,
      body: form ? form(entry) : entry.body,
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
async function serverStateOf(entry: OutboxEntry): Promise<unknown> {
  const path = statePathOf(entry);
  if (!path) return null;
  return apiRequest(path, { offline: false, auth: 'admin' }).catch(() => null);
}

type Finish = (sent: number, stopped?: FlushResult['stopped']) => Promise<FlushResult>;

async function flushOnce(): Promise<FlushResult> {
  const db = await loadDatabase();
  const entries = await db.outbox.orderBy('seq').toArray();
  const finish: Finish = async (sent, stopped) => {
    const left = await db.outbox.count();
    await outboxChanged();
    return { sent, remaining: left, stopped };
  };
  if (!entries.some(isWaiting)) return { sent: 0, remaining: entries.length };
  if (isOffline()) return { sent: 0, remaining: entries.length, stopped: 'offline' };

  updateOutboxSnapshot({ flushing: true, lastAttemptAt: Date.now() });
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
  return sendInOrder(entries, finish);
}

async function sendInOrder(entries: readonly OutboxEntry[], finish: Finish): Promise<FlushResult> {
  const db = await loadDatabase();
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

/** For tests: forget the in-page state. */
export function resetFlushForTests(): void {
  running = null;
  again = false;
  againAfterNetworkFailure = false;
}
