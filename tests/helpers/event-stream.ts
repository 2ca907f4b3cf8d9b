import type { ReservationChangeEvent } from '../../src/shared/schemas/events';

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** An open GET /api/admin/events/ stream, read the way the browser reads it: fetch with the Authorization header. */
export interface EventStream {
  status: number;
  contentType: string | null;
  messages: SseMessage[];
  /** Resolves with the first message matching `predicate` (already received or yet to come), or rejects after `ms`. */
  next(predicate: (message: SseMessage) => boolean, ms: number): Promise<SseMessage>;
  /** The `event: reservation` payloads received so far. */
  reservations(): ReservationChangeEvent[];
  /** Resolves when the server ends the stream (or it breaks). */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(baseUrl: string, token: string | undefined, query = ''): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/admin/events/${query}`, {
    headers: token ? { authorization: `Bearer ${token}`, accept: 'text/event-stream' } : {},
    signal: controller.signal,
  });
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  let ended: Promise<void> = Promise.resolve();
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    ended = (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const message: SseMessage = { event: 'message', data: '' };
            let hasField = false;
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              const [field, ...rest] = line.split(':');
              const value = rest.join(':').replace(/^ /, '');
              if (field === 'event') message.event = value;
              if (field === 'data') message.data += value;
              if (field === 'id') message.id = value;
              if (field === 'event' || field === 'data') hasField = true;
            }
            if (hasField) messages.push(message);
            for (const wake of waiters) wake();
          }
        }
      } catch {
        // Aborted by close(), or the server went away (a killed process): the stream has simply ended.
      }
    })();
  } else {
    await response.text();
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    messages,
    ended,
    reservations: () =>
      messages.filter((m) => m.event === 'reservation').map((m) => JSON.parse(m.data) as ReservationChangeEvent),
    next(predicate, ms) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(messages).slice(0, 2000)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
