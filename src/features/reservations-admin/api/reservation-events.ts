import { apiStream } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { accessTokenOf, staffSession } from '#src/lib/token-session';
import type { ReservationChangeEvent } from '#src/shared/schemas/events';

/**
 * The live-update stream GET /api/admin/events/ (server-sent events). An EventSource cannot send the
 * Authorization header, so the stream is read with fetch and a ReadableStream; it reconnects with backoff after
 * any failure and at once after the server ends a stream normally (it does so when the access token expires).
 */

export type EventStreamStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

export interface ReservationEventsOptions {
  onEvent(event: ReservationChangeEvent): void;
  onStatus?(status: EventStreamStatus): void;
  /** A 401: resolve true once a fresh access token is stored (the stream then reconnects), false to give up. */
  onUnauthorized(): Promise<boolean>;
  /** Wait before reconnect attempt `attempt` (0-based); tests shorten it. */
  backoffMs?(attempt: number): number;
}

/** 1 s, 2 s, 4 s … up to 30 s. */
export const defaultBackoffMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt);

interface SseMessage {
  event: string;
  data: string;
}

/** Splits an SSE byte stream into messages (the parts of the format this server sends, plus CRLF tolerance). */
async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block: string) => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0 || event !== 'message') onMessage({ event, data: data.join('\n') });
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      flush(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
}

function parseEvent(data: string): ReservationChangeEvent | null {
  try {
    const value = JSON.parse(data) as Partial<ReservationChangeEvent>;
    return typeof value.reservation_number === 'string' && typeof value.action === 'string'
      ? (value as ReservationChangeEvent)
      : null;
  } catch {
    return null;
  }
}

/** Opens the stream and keeps it open until the returned function is called. */
export function connectReservationEvents(options: ReservationEventsOptions): () => void {
  const backoff = options.backoffMs ?? defaultBackoffMs;
  let stopped = false;
  let controller: AbortController | null = null;
  let wake: (() => void) | null = null;

  const setStatus = (status: EventStreamStatus) => options.onStatus?.(status);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        window.removeEventListener('online', done);
        wake = null;
        resolve();
      }
      wake = done;
      // Back online: try now rather than at the end of a long backoff.
      window.addEventListener('online', done);
    });

  const run = async () => {
    let attempt = 0;
    setStatus('connecting');
    while (!stopped) {
      if (!accessTokenOf(staffSession)) break;
      controller = new AbortController();
      let opened = false;
      let cleanEnd = false;
      try {
        let response: Response;
        try {
          response = await apiStream('/api/admin/events/', {
            headers: { Accept: 'text/event-stream' },
            signal: controller.signal,
          });
        } catch (error) {
          if (!isApiError(error, 401)) throw error;
          if (stopped || !(await options.onUnauthorized())) break;
          continue;
        }
        if (!response.body) throw new Error('event stream: no body');
        await readEventStream(response.body, (message) => {
          if (message.event === 'ready') {
            opened = true;
            attempt = 0;
            setStatus('open');
          } else if (message.event === 'reservation') {
            const event = parseEvent(message.data);
            if (event) options.onEvent(event);
          }
        });
        // A stream that ended after it opened was closed by the server on purpose (token lifetime): come back at
        // once. One that never opened (a proxy answering 200 with nothing) counts as a failure.
        cleanEnd = opened;
      } catch {
        // Network loss, a proxy cutting the stream, a 5xx: reconnect below.
      }
      if (stopped) break;
      setStatus('reconnecting');
      await sleep(cleanEnd ? 0 : backoff(attempt));
      if (!cleanEnd) attempt += 1;
    }
    setStatus('stopped');
  };
  void run();

  return () => {
    stopped = true;
    controller?.abort();
    wake?.();
  };
}
