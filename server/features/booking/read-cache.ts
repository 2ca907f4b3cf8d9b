/**
 * A small in-memory cache for the booking reads (the menu, the salon's settings, bookable dates, the starts of a
 * day), which every customer's phone asks for again and again and which change only when someone writes
 * (docs/decisions/0004-booking-read-cache.md). Values are promises, so a hundred requests arriving on a cold key share one
 * load. An entry lives `ttlMs` at most: the bound on staleness for a change made by another instance that this
 * one was not told about. `clear()` drops everything; a load that was under way when it was called still
 * answers the requests that were waiting for it, but is not kept.
 *
 * Bookings read who is free from the database (availability.service.ts), whose constraints decide.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** The booking read cache (buildApp), so that tests writing to the database directly can do what a write does. */
    bookingReads: ReadCache;
  }
  interface FastifyContextConfig {
    /**
     * 'reservations': the route's writes change reservations (and the customer's own row) and nothing else, so they
     * drop only the answers reservations decide, and keep the salon's settings (server/app.ts).
     */
    changes?: 'reservations';
  }
}

/** What an entry holds: the salon's settings (menu, salon row, staff), or an answer that reservations decide. */
type ReadKind = 'settings' | 'answer';

export interface ReadCache {
  get<V>(key: string, load: () => Promise<V>, kind?: ReadKind): Promise<V>;
  /** Drops everything: after any write that may have changed the settings. */
  clear(): void;
  /** Drops the answers only: after a write that changed reservations (a booking, a cancel, a move). */
  clearAnswers(): void;
  /** Number of entries, for tests. */
  size(): number;
}

export function createReadCache(options: { ttlMs: number; maxEntries?: number; clock?: () => number }): ReadCache {
  const { ttlMs, maxEntries = 2_000, clock = () => performance.now() } = options;
  const entries = new Map<string, { value: Promise<unknown>; expires: number; kind: ReadKind }>();

  return {
    get<V>(key: string, load: () => Promise<V>, kind: ReadKind = 'answer'): Promise<V> {
      const now = clock();
      const hit = entries.get(key);
      if (hit && hit.expires > now) return hit.value as Promise<V>;
      if (hit) entries.delete(key);
      // Keys come from query strings: bound the map so that a stream of different ones cannot grow it.
      // Map iteration is in insertion order, so this drops the oldest entry.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const entry = { value: load() as Promise<unknown>, expires: now + ttlMs, kind };
      entries.set(key, entry);
      // A failed load is not an answer: the next request tries again.
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.value as Promise<V>;
    },
    clear: () => entries.clear(),
    clearAnswers() {
      for (const [key, entry] of entries) if (entry.kind === 'answer') entries.delete(key);
    },
    size: () => entries.size,
  };
}
