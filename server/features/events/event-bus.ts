import type { ReservationChangeEvent } from '#src/shared/schemas/events';

type ReservationChangeListener = (event: ReservationChangeEvent) => void;

/**
 * Live updates for the staff app (issue 6). An interface so that cross-instance fan-out (PostgreSQL
 * LISTEN/NOTIFY, docs/architecture.md#operating-contract) can replace the in-process implementation without touching publishers or streams.
 */
export interface EventBus {
  /** Call after the change committed: listeners must never see a change that was rolled back. */
  publish(event: ReservationChangeEvent): void;
  subscribe(listener: ReservationChangeListener): () => void;
  /** Number of subscribers (open streams, and the booking read cache), for diagnostics. */
  size(): number;
}

/** One Node process: every open stream of this instance hears every change made by this instance. */
export function createInProcessEventBus(options: { onListenerError?: (error: unknown) => void } = {}): EventBus {
  const listeners = new Set<ReservationChangeListener>();
  return {
    publish(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          // A broken stream must not fail the booking that published, nor starve the other streams.
          options.onListenerError?.(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    size: () => listeners.size,
  };
}
