/**
 * キャンセル待ち offers: the outbox worker's sweep (worker.ts) finds, for every waiting entry of today or later, the
 * starts bookable now that match its service, options, staff choice and window, and queues one message per entry
 * with the starts it has not been offered yet: LINE when the customer is linked (counted against the LINE budget
 * like any push, line-budget.ts), else e-mail. The link opens the booking wizard on that day (/reserve?waitlist=<id>).
 *
 * First come, first served: every matching entry is offered the same starts; booking one is an ordinary booking, and
 * the database's exclusion constraint gives each start to one of them. An offer is only a message, never a hold.
 *
 * Each start is offered to an entry once: the offer rows (unique per entry and start) are inserted with the
 * message in one transaction, and only the starts this transaction inserted are announced, so repeated sweeps and
 * several instances sweeping at once never send an offer twice.
 *
 * The sweep also closes entries: past days expire, and an entry whose customer has booked that service on that day
 * (through an offer or not) is booked.
 */
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import { formatDateJa } from '#src/shared/format';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { withinWindow } from '#src/shared/slots';
import { localDateOf, localDateTimeToInstant } from '#src/shared/time';
import type { Database } from '../db/client';
import type { OpenStartsFinder } from '../scheduling/open-starts';
import { customers, reservations, salons, services, waitlistEntries, waitlistOffers } from '../db/schema';
import { linkCard } from './line-cards';
import { enqueueNotifications, type LineMessage, type NewNotification } from './outbox';

interface WaitlistSweepOptions {
  now: Date;
  timeZone: string;
  publicUrl: string;
  findOpenStarts: OpenStartsFinder;
}

/** The starts named in one message at most: the first ones of the day; the wizard shows them all. */
const STARTS_PER_MESSAGE = 6;

const WAITLIST_OFFER_KIND = 'waitlist_offer';

/** The link in an offer: the booking wizard with the entry's menu on its day. */
function waitlistOfferUrl(publicUrl: string, entryId: number): string {
  return `${publicUrl.replace(/\/+$/, '')}/reserve?waitlist=${entryId}`;
}

interface OfferContent {
  salonName: string;
  customerName: string;
  serviceName: string;
  date: string;
  times: readonly string[];
  url: string;
}

function offerLines(offer: OfferContent): string[] {
  const shown = offer.times.slice(0, STARTS_PER_MESSAGE).join('、');
  const more = offer.times.length > STARTS_PER_MESSAGE ? ' ほか' : '';
  return [
    `${offer.customerName} 様`,
    `キャンセル待ちの${formatDateJa(offer.date)}「${offer.serviceName}」に空きが出ました。`,
    `空いた時間: ${shown}${more}`,
    '',
    'ご予約は先着順です。先に埋まった場合は、引き続きキャンセル待ちのままお待ちいただけます。',
  ];
}

function renderWaitlistOfferLine(offer: OfferContent): LineMessage[] {
  const lines = offerLines(offer);
  const text = [`【${offer.salonName}】`, ...lines, 'ご予約はこちらから:', offer.url].join('\n');
  return [
    linkCard({
      altText: text,
      title: `【${offer.salonName}】${SERVER_MESSAGES.waitlistOfferTitle}`,
      lines,
      button: { label: SERVER_MESSAGES.waitlistOfferButton, url: offer.url },
    }),
  ];
}

function renderWaitlistOfferEmail(offer: OfferContent): { subject: string; text: string } {
  return {
    subject: `【${offer.salonName}】${SERVER_MESSAGES.waitlistOfferTitle}`,
    text: [...offerLines(offer), '', 'ご予約はこちらから:', offer.url, '', offer.salonName].join('\n'),
  };
}

/** Runs one sweep; returns the number of offer messages queued. */
export async function sweepWaitlist(db: Database, options: WaitlistSweepOptions): Promise<number> {
  const { now, timeZone, publicUrl, findOpenStarts } = options;
  const today = localDateOf(now, timeZone);

  // One statement: entries of past days expire, entries whose customer booked that day's menu are booked, and the
  // rest are read. The read sees the table as the statement found it, so it leaves out what the two updates took.
  const expired = db.$with('expired').as(
    db
      .update(waitlistEntries)
      .set({ status: 'expired', updated_at: now })
      .where(and(eq(waitlistEntries.status, 'waiting'), lt(waitlistEntries.date, today)))
      .returning({ id: waitlistEntries.id }),
  );
  const booked = db.$with('booked').as(
    db
      .update(waitlistEntries)
      .set({ status: 'booked', updated_at: now })
      .where(
        and(
          eq(waitlistEntries.status, 'waiting'),
          gte(waitlistEntries.date, today),
          sql`exists (select 1 from ${reservations}
            where ${reservations.customer_id} = ${waitlistEntries.customer_id}
              and ${reservations.service_id} = ${waitlistEntries.service_id}
              and ${inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES])}
              and (${reservations.start_time} at time zone ${timeZone})::date = ${waitlistEntries.date})`,
        ),
      )
      .returning({ id: waitlistEntries.id }),
  );
  const waiting = await db
    .with(expired, booked)
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.status, 'waiting'),
        sql`${waitlistEntries.id} not in (select ${expired.id} from ${expired})`,
        sql`${waitlistEntries.id} not in (select ${booked.id} from ${booked})`,
      ),
    )
    .orderBy(waitlistEntries.created_at, waitlistEntries.id);
  if (waiting.length === 0) return 0;

  const offered = await db
    .select({ entry_id: waitlistOffers.entry_id, start_time: waitlistOffers.start_time })
    .from(waitlistOffers)
    .where(
      inArray(
        waitlistOffers.entry_id,
        waiting.map((entry) => entry.id),
      ),
    );
  const alreadyOffered = new Set(offered.map((row) => `${row.entry_id}|${row.start_time.getTime()}`));

  // One availability reading per menu choice and day, however many wait for it.
  const startsByChoice = new Map<string, Promise<Map<number, string[]> | null>>();
  let queued = 0;
  for (const entry of waiting) {
    const optionIds = [...entry.option_ids].sort((a, b) => a - b);
    const key = `${entry.date}|${entry.service_id}|${optionIds.join(',')}|${entry.staff_id ?? ''}`;
    if (!startsByChoice.has(key)) {
      startsByChoice.set(
        key,
        findOpenStarts({ date: entry.date, serviceId: entry.service_id, optionIds, staffId: entry.staff_id }).catch(
          () => null,
        ),
      );
    }
    const byStaff = await startsByChoice.get(key)!;
    if (!byStaff) continue;
    const fresh = new Map<string, { start: Date; staffId: number }>();
    for (const [staffId, times] of [...byStaff].sort(([a], [b]) => a - b)) {
      for (const time of times) {
        if (!withinWindow(time, entry.time_from, entry.time_to) || fresh.has(time)) continue;
        const start = localDateTimeToInstant(`${entry.date}T${time}:00`, timeZone);
        if (alreadyOffered.has(`${entry.id}|${start.getTime()}`)) continue;
        fresh.set(time, { start, staffId });
      }
    }
    if (fresh.size === 0) continue;
    if (await offer(db, entry, fresh, { publicUrl, now })) queued += 1;
  }
  return queued;
}

/** Records the entry's new starts and queues their message in one transaction; false when none was new after all. */
async function offer(
  db: Database,
  entry: typeof waitlistEntries.$inferSelect,
  fresh: Map<string, { start: Date; staffId: number }>,
  context: { publicUrl: string; now: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(waitlistOffers)
      .values(
        [...fresh.values()].map(({ start, staffId }) => ({
          entry_id: entry.id,
          start_time: start,
          staff_id: staffId,
          offered_at: context.now,
        })),
      )
      .onConflictDoNothing({ target: [waitlistOffers.entry_id, waitlistOffers.start_time] })
      .returning({ start_time: waitlistOffers.start_time });
    if (inserted.length === 0) return false;
    const newStarts = new Set(inserted.map((row) => row.start_time.getTime()));
    const times = [...fresh]
      .filter(([, value]) => newStarts.has(value.start.getTime()))
      .map(([time]) => time)
      .sort();
    const [who] = await tx
      .select({
        name: customers.name,
        email: customers.email,
        line_user_id: customers.line_user_id,
        salonName: salons.name,
        serviceName: services.name,
      })
      .from(customers)
      .innerJoin(salons, eq(salons.id, customers.salon_id))
      .innerJoin(services, eq(services.id, entry.service_id))
      .where(eq(customers.id, entry.customer_id));
    if (!who) return true;
    const content: OfferContent = {
      salonName: who.salonName,
      customerName: who.name.trim() || 'お客',
      serviceName: who.serviceName,
      date: entry.date,
      times,
      url: waitlistOfferUrl(context.publicUrl, entry.id),
    };
    const base = { salonId: entry.salon_id, kind: WAITLIST_OFFER_KIND, reservationId: null };
    const rows: NewNotification[] = who.line_user_id
      ? [
          {
            ...base,
            channel: 'line',
            recipient: who.line_user_id,
            payload: { messages: renderWaitlistOfferLine(content), email: renderWaitlistOfferEmail(content) },
          },
        ]
      : who.email.trim()
        ? [{ ...base, channel: 'email', recipient: who.email.trim(), payload: renderWaitlistOfferEmail(content) }]
        : [];
    await enqueueNotifications(tx, rows);
    return true;
  });
}
