import { and, eq, gt, ne, sql, type SQL } from 'drizzle-orm';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Database } from '../db/client';
import { reservations } from '../db/schema';
import { badRequest } from '../http-errors';
import { counterKey, countInWindow, pruneExpiredCounters, throttled } from './rate-limit-counters';

/**
 * Limits on what a customer account can make the server send. Every booking and every cancellation mails the
 * address typed into the booking form (and text the customer chose, such as the name, is in that mail), so
 * without limits one account could use the salon as a mail relay.
 */
interface BookingLimits {
  /** Bookings and cancellations one customer may attempt per window (BOOKING_RATE_LIMIT). */
  changesPerWindow: number;
  windowSeconds: number;
}

export type BookingLimiter = ReturnType<typeof createBookingLimiter>;

export function createBookingLimiter(deps: { db: Database; now: () => Date; limits: BookingLimits }) {
  const { db, now, limits } = deps;
  return {
    /**
     * Counts one booking or cancellation by this customer, or refuses it with 429. Called from the handler, so
     * a repeat that the Idempotency-Key layer answers from its store is not counted again.
     */
    async countChange(customerId: number): Promise<void> {
      const at = now();
      const retryAfter = await countInWindow(db, {
        key: counterKey('booking-change', String(customerId)),
        limit: limits.changesPerWindow,
        windowMs: limits.windowSeconds * 1000,
        now: at,
      });
      await pruneExpiredCounters(db, at);
      if (retryAfter !== null) throw throttled(SERVER_MESSAGES.tooManyBookingChanges, retryAfter);
    },
  };
}

/**
 * The distinct addresses (trimmed, lower case) this customer booked with in the last 24 hours, as a column to
 * read inside the booking's transaction after the customer row is locked (saveProfileAndCountUpcoming in
 * server/features/reservations/book.repository.ts), so two bookings of one customer at once are counted one after
 * the other. The 24 hours are on the database clock, which stamps `created_at`. Addresses staff typed in were not
 * the customer's choice and do not count.
 */
export function recentEmailAddresses(customerId: number): SQL<string[]> {
  const address = sql`lower(trim(${reservations.customer_email}))`;
  return sql<string[]>`(select coalesce(json_agg(distinct ${address}), '[]'::json) from ${reservations} where ${and(
    eq(reservations.customer_id, customerId),
    eq(reservations.created_by, 'customer'),
    ne(reservations.customer_email, ''),
    gt(reservations.created_at, sql`now() - interval '24 hours'`),
  )})`;
}

/**
 * Refuses a booking whose e-mail address would be the customer's (limit + 1)th distinct one in 24 hours
 * (`known`: recentEmailAddresses), with a 400 on the e-mail field. Refused rather than booked without the mail: a
 * customer who mistyped would otherwise hold a booking they were never told about, while one who really owns that
 * many addresses can use an earlier one.
 */
export function refuseEmailAddressOverLimit(known: readonly string[], email: string, limit: number): void {
  const address = email.trim().toLowerCase();
  if (!address || known.includes(address) || known.length < limit) return;
  const message = SERVER_MESSAGES.emailAddressLimit(limit);
  throw badRequest(message, { customer_email: [message] }, 'email_address_limit');
}
