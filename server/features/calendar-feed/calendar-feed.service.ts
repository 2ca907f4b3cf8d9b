/**
 * Each staff member's secret calendar URL (GET /api/calendar/{token}.ics), for Google or Apple calendars.
 *
 * The token is the only secret, and the staff screen must show the same URL again whenever it is opened (a calendar
 * keeps using the URL it was given). So the database keeps a random `feed_key` per staff member and the token is
 * an HMAC of it under the server's secret: the database alone never yields a working URL, and the row is found by
 * the token's SHA-256, as link tokens are (server/db/link-tokens.ts). URLを再発行 draws a new key, which ends the
 * old URL at once. Changing the server's secret (JWT_SECRET) ends every feed URL too, as it ends every session.
 *
 * A feed also belongs to the staff member's credentials: the row keeps their token_version of the moment it was
 * made, and a password reset or a deactivation (which raise it, staff.service.ts) ends it; the next look at the
 * profile makes a new URL. Customers' phone numbers are in the feed only when the staff member chose so for this
 * URL (`include_phone`, set with a new URL: a URL handed out without them never starts showing them).
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

/** What GET /api/admin/me/ and POST /api/admin/me/calendar-feed/ say of the feed (src/shared/schemas/auth.ts). */
interface CalendarFeedSettings {
  calendar_feed_url: string;
  calendar_feed_includes_phone: boolean;
}

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

  /** The staff member's feed of their current credentials, if they have one. */
  async function currentFeedOf(staffId: number) {
    const [row] = await db
      .select({ feed_key: staffCalendarFeeds.feed_key, include_phone: staffCalendarFeeds.include_phone })
      .from(staffCalendarFeeds)
      .innerJoin(staffUsers, eq(staffUsers.id, staffCalendarFeeds.staff_id))
      .where(
        and(eq(staffCalendarFeeds.staff_id, staffId), eq(staffCalendarFeeds.token_version, staffUsers.token_version)),
      );
    return row && { calendar_feed_url: urlOf(row.feed_key), calendar_feed_includes_phone: row.include_phone };
  }

  const tokenVersionOf = (staffId: number) =>
    sql<number>`(select ${staffUsers.token_version} from ${staffUsers} where ${staffUsers.id} = ${staffId})`;

  return {
    /**
     * The staff member's feed URL, made on first ask, and again after their credentials changed. Two first asks at
     * once: the first insert (or replacement of the stale row) wins, the other finds the row current and leaves
     * it, and both answer the stored one.
     */
    async feedFor(staffId: number): Promise<CalendarFeedSettings> {
      const existing = await currentFeedOf(staffId);
      if (existing) return existing;
      await db
        .insert(staffCalendarFeeds)
        .values({ staff_id: staffId, ...newKey(), token_version: tokenVersionOf(staffId) })
        .onConflictDoUpdate({
          target: staffCalendarFeeds.staff_id,
          set: {
            feed_key: sql`excluded.feed_key`,
            token_hash: sql`excluded.token_hash`,
            token_version: sql`excluded.token_version`,
            include_phone: false,
            updated_at: options.now(),
          },
          setWhere: sql`${staffCalendarFeeds.token_version} <> excluded.token_version`,
        });
      const stored = await currentFeedOf(staffId);
      if (!stored) throw new Error(`calendar feed of staff ${staffId} was not stored`);
      return stored;
    },

    /**
     * A new URL, with customers' phone numbers or without (absent: as the current URL); the old URL is 404 from
     * the moment this commits.
     */
    async regenerate(staffId: number, choice: { includePhone?: boolean } = {}): Promise<CalendarFeedSettings> {
      const current = await currentFeedOf(staffId);
      const includePhone = choice.includePhone ?? current?.calendar_feed_includes_phone ?? false;
      const fresh = { ...newKey(), token_version: tokenVersionOf(staffId), include_phone: includePhone };
      await db
        .insert(staffCalendarFeeds)
        .values({ staff_id: staffId, ...fresh })
        .onConflictDoUpdate({
          target: staffCalendarFeeds.staff_id,
          set: { ...fresh, updated_at: options.now() },
        });
      return { calendar_feed_url: urlOf(fresh.feed_key), calendar_feed_includes_phone: includePhone };
    },

    /** The calendar of the token's staff member, or null when no active staff member has that token. */
    async render(token: string): Promise<string | null> {
      if (!TOKEN_FORM.test(token)) return null;
      const [owner] = await db
        .select({
          id: staffUsers.id,
          username: staffUsers.username,
          full_name: staffUsers.full_name,
          include_phone: staffCalendarFeeds.include_phone,
        })
        .from(staffCalendarFeeds)
        .innerJoin(staffUsers, eq(staffUsers.id, staffCalendarFeeds.staff_id))
        .where(
          and(
            eq(staffCalendarFeeds.token_hash, hashLinkToken(token)),
            eq(staffUsers.is_active, true),
            eq(staffCalendarFeeds.token_version, staffUsers.token_version),
          ),
        );
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
        bookings: owner.include_phone ? bookings : bookings.map((booking) => ({ ...booking, customer_phone: '' })),
      });
    },
  };
}
