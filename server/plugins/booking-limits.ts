import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Database } from '../db/client';
import { counterKey, countInWindow, pruneExpiredCounters, throttled } from './rate-limit-counters';

/**
 * Limits on what a customer account can make the server send. Every booking and every cancellation mails the
 * address typed into the booking form (and text the customer chose, such as the name, is in that mail), so
 * without limits one account could use the salon as a mail relay. A customer's booking applies these limits in
 * the database, in book_reservation() (server/db/migrations/0025_book_reservation.sql): the count below, and the
 * distinct e-mail addresses per 24 hours (BOOKING_EMAIL_ADDRESS_LIMIT: refused rather than booked without the
 * mail, since a customer who mistyped would otherwise hold a booking they were never told about, while one who
 * really owns that many addresses can use an earlier one).
 */
interface BookingLimits {
  /** Bookings and cancellations one customer may attempt per window (BOOKING_RATE_LIMIT). */
  changesPerWindow: number;
  windowSeconds: number;
}

/** The counter a customer's booking counts itself in, inside its own transaction (book_reservation). */
export interface BookingCounter {
  key: string;
  limit: number;
  windowSeconds: number;
  /**
   * A refused booking's count rolled back with its transaction: this counts the attempt again on its own (a
   * refusal's extra round trip, never a booking's). An attempt already over the limit was answered 429 and is not
   * counted.
   */
  countRefused(): Promise<void>;
  /** Now and then deletes counters whose window has ended (pruneExpiredCounters). */
  prune(): Promise<void>;
}

export type BookingLimiter = ReturnType<typeof createBookingLimiter>;

export function createBookingLimiter(deps: { db: Database; now: () => Date; limits: BookingLimits }) {
  const { db, now, limits } = deps;
  const count = (key: string) =>
    countInWindow(db, { key, limit: limits.changesPerWindow, windowMs: limits.windowSeconds * 1000, now: now() });
  return {
    /**
     * Counts one cancellation or move by this customer, or refuses it with 429. Called from the handler, so a
     * repeat that the Idempotency-Key layer answers from its store is not counted again.
     */
    async countChange(customerId: number): Promise<void> {
      const retryAfter = await count(counterKey('booking-change', String(customerId)));
      await pruneExpiredCounters(db, now());
      if (retryAfter !== null) throw throttled(SERVER_MESSAGES.tooManyBookingChanges, retryAfter);
    },

    /**
     * The same count for a booking, which counts itself inside its transaction (the same rule as countInWindow,
     * written in book_reservation): no round trip of its own. Also from the handler, for the same reason.
     */
    bookingCounter(customerId: number): BookingCounter {
      const key = counterKey('booking-change', String(customerId));
      return {
        key,
        limit: limits.changesPerWindow,
        windowSeconds: limits.windowSeconds,
        countRefused: async () => {
          await count(key);
        },
        prune: () => pruneExpiredCounters(db, now()),
      };
    },
  };
}
