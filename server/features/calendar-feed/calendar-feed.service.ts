/**
 * Each staff member's secret calendar URL (GET /api/calendar/{token}.ics), for Google or Apple calendars.
 *
 * The token is the only secret, and the staff screen must show the same URL again whenever it is opened (a calendar
 * keeps using the URL it was given). So the database keeps a random `feed_key` per staff member and the token is
 * an HMAC of it under the server's secret: the database alone never yields a working URL, and the row is found by
 * the token's SHA-256, as link tokens are (server/db/link-tokens.ts). URLを再発行 draws a new key, which ends the
 * old URL at once. Changing the server's secret (JWT_SECRET) ends every feed URL too, as it ends every session.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Database } from '../../db/client';
import { hashLinkToken } from '../../db/link-tokens';
import { reservations, salons, staffCalendarFeeds, staffUsers } from '../../db/schema';
import { buildStaffCalendar, type FeedBooking } from './feed';

/** Bookings from this many days ago on are in the feed: recent history stays visible in the calendar app. */
const FEED_PAST_DAYS = 30;
/** A bound on one answer's size: far more than a staff member's bookings over the booking horizon. */
const FEED_MAX_EVENTS = 2000;
/** The token's form: 16 bytes, base64url (like link tokens, so server/logging.ts masks it in request logs). */
const TOKEN_FORM = /^[A-Za-z0-9_-]{22}$/;

interface CalendarFeedServiceOptions {
  db: Database;
  salonId: number;
  /** The server's secret (the JWT secret); the tokens are derived from it. */
  secret: string;
  publicUrl: string;
  timeZone: string;
  now: () => Date;
}

export type CalendarFeedService = ReturnType<typeof createCalendarFeedService>;

export function createCalendarFeedService(options: CalendarFeedServiceOptions) {
  const { db } = options;

  const tokenOf = (feedKey: string) =>
    createHmac('sha256', options.secret)
      .update(`calendar-feed\u0000${feedKey}`, 'utf8')
      .digest()
      .subarray(0, 16)
      .toString('base64url');

  const urlOf = (feedKey: string) => `${options.publicUrl.replace(/\/+$/, '')}/api/calendar/${tokenOf(feedKey)}.ics`;

  const newKey = () => {
    const feedKey = randomBytes(16).toString('base64url');
    return { feed_key: feedKey, token_hash: hashLinkToken(tokenOf(feedKey)) };
  };

  async function keyOf(staffId: number) {
    const [row] = await db
      .select({ feed_key: staffCalendarFeeds.feed_key })
      .from(staffCalendarFeeds)
      .where(eq(staffCalendarFeeds.staff_id, staffId));
    return row?.feed_key;
  }

  return {
    /**
     * The staff member's feed URL, made on first ask. Two first asks at once: the primary key keeps the first
     * key, the other insert does nothing, and both answer the stored one.
     */
    async urlFor(staffId: number): Promise<string> {
      const existing = await keyOf(staffId);
      if (existing) return urlOf(existing);
      await db
        .insert(staffCalendarFeeds)
        .values({ staff_id: staffId, ...newKey() })
        .onConflictDoNothing({ target: staffCalendarFeeds.staff_id });
      const stored = await keyOf(staffId);
      if (!stored) throw new Error(`calendar feed of staff ${staffId} was not stored`);
      return urlOf(stored);
    },

    /** A new URL; the old one is 404 from the moment this commits. */
    async regenerate(staffId: number): Promise<string> {
      const fresh = newKey();
      await db
        .insert(staffCalendarFeeds)
        .values({ staff_id: staffId, ...fresh })
        .onConflictDoUpdate({
          target: staffCalendarFeeds.staff_id,
          set: { ...fresh, updated_at: options.now() },
        });
      return urlOf(fresh.feed_key);
    },

    /** The calendar of the token's staff member, or null when no active staff member has that token. */
    async render(token: string): Promise<string | null> {
      if (!TOKEN_FORM.test(token)) return null;
      const [owner] = await db
        .select({ id: staffUsers.id, username: staffUsers.username, full_name: staffUsers.full_name })
        .from(staffCalendarFeeds)
        .innerJoin(staffUsers, eq(staffUsers.id, staffCalendarFeeds.staff_id))
        .where(and(eq(staffCalendarFeeds.token_hash, hashLinkToken(token)), eq(staffUsers.is_active, true)));
      if (!owner) return null;

      const now = options.now();
      const from = new Date(now.getTime() - FEED_PAST_DAYS * 86_400_000);
      const [salon] = await db.select({ name: salons.name }).from(salons).where(eq(salons.id, options.salonId));
      const bookings: FeedBooking[] = await db
        .select({
          reservation_number: reservations.reservation_number,
          status: sql<FeedBooking['status']>`${reservations.status}`,
          start_time: reservations.start_time,
          end_time: reservations.end_time,
          updated_at: reservations.updated_at,
          service_name: reservations.service_name,
          options: reservations.options,
          is_nominated: reservations.is_nominated,
          customer_name: reservations.customer_name,
          customer_phone: reservations.customer_phone,
        })
        .from(reservations)
        .where(
          and(
            eq(reservations.salon_id, options.salonId),
            eq(reservations.staff_id, owner.id),
            inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
            gte(reservations.start_time, from),
          ),
        )
        .orderBy(asc(reservations.start_time))
        .limit(FEED_MAX_EVENTS);

      return buildStaffCalendar({
        salonName: salon?.name ?? '',
        staffName: owner.full_name || owner.username,
        timeZone: options.timeZone,
        publicUrl: options.publicUrl,
        now,
        bookings,
      });
    },
  };
}
