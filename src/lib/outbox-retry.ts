import { flushOutbox, isOffline, onOutboxFlushed, type FlushResult } from './outbox-flush';
import { getOutboxSnapshot, isWaiting } from './outbox-state';

/**
 * The outbox sends by itself while it holds changes and the last attempt failed (docs/architecture.md#offline-design):
 * besides `online`, the page becoming visible and any successful request (src/app/offline/offline-layer.ts), a
 * timer tries again while the device is online but nothing gets through (no answer, or a server error): after 5 s,
 * doubling to a minute, back to 5 s once something was sent. Offline, the `online` event does it instead.
 */

const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;

let started = false;
let delayMs = RETRY_FIRST_MS;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Schedules the next attempt (a no-op until the offline layer started the schedule, and offline). */
export function retryLater(): void {
  if (!started || isOffline() || timer !== undefined) return;
  if (!getOutboxSnapshot().entries.some(isWaiting) && getOutboxSnapshot().loaded) return;
  timer = setTimeout(() => {
    timer = undefined;
    void flushOutbox('retry-timer');
  }, delayMs);
  delayMs = Math.min(delayMs * 2, RETRY_MAX_MS);
}

function afterFlush(result: FlushResult): void {
  if (result.sent > 0 || !result.stopped) delayMs = RETRY_FIRST_MS;
  // A session that is over waits for a login, not for a timer.
  if (result.stopped === 'offline' || result.stopped === 'server') retryLater();
}

/** Starts the schedule; returns its stop. */
export function startOutboxRetry(): () => void {
  started = true;
  delayMs = RETRY_FIRST_MS;
  const stopListening = onOutboxFlushed(afterFlush);
  return () => {
    started = false;
    clearTimeout(timer);
    timer = undefined;
    stopListening();
  };
}
