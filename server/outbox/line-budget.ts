/**
 * The LINE plan's monthly push budget (docs/architecture.md#notifications-outbox). LINE's plans allow a number of
 * pushes a month (the free plan: 200; a multicast to N users costs N); replies to a customer's message are free.
 * The worker reserves a row's pushes here before sending it, in one statement on the month's counter row, so two
 * workers can never both take the last ones: PostgreSQL's ON CONFLICT DO UPDATE locks the counter row and checks
 * the limit against its latest value. At the limit the row is not pushed: a customer notice goes by e-mail
 * instead where there is an address (a new outbox row), and the LINE row records why it was not sent.
 */
import { and, eq, sql } from 'drizzle-orm';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { localDateOf } from '#src/shared/time';
import type { Database, Executor } from '../db/client';
import { customers, linePushCounts, notificationsOutbox, reservations, salons } from '../db/schema';
import {
  enqueueNotification,
  isDeferredPayload,
  isEmailPayload,
  isLinePayload,
  isMulticastPayload,
  type OutboxRow,
} from './outbox';

/** `YYYY-MM` of `at` in the salon's time zone: LINE counts by calendar month. */
export function salonMonth(at: Date, timeZone: string): string {
  return localDateOf(at, timeZone).slice(0, 7);
}

/** What one row costs in LINE's count: one per push, one per recipient of a multicast. */
function pushCost(row: Pick<OutboxRow, 'channel' | 'payload'>): number {
  if (row.channel !== 'line') return 0;
  return isMulticastPayload(row.payload) ? new Set(row.payload.to).size : 1;
}

interface LineUsage {
  month: string;
  pushes_sent: number;
  /** 0 = no limit. */
  limit: number;
}

export async function lineUsage(db: Executor, salonId: number, month: string): Promise<LineUsage> {
  const [row] = await db
    .select({
      limit: salons.line_monthly_push_limit,
      pushes: sql<number>`coalesce((select ${linePushCounts.pushes} from ${linePushCounts}
        where ${linePushCounts.salon_id} = ${salons.id} and ${linePushCounts.month} = ${month}), 0)`.mapWith(Number),
    })
    .from(salons)
    .where(eq(salons.id, salonId));
  return { month, pushes_sent: row?.pushes ?? 0, limit: row?.limit ?? 0 };
}

/**
 * Whether this month's pushes (salon-local month of `at`) have reached the salon's limit, read like the worker
 * reads it: what a push queued now would meet. A guess for the caller to word its answer and choose a channel;
 * the worker's reservePushes still decides every push.
 */
export async function lineBudgetSpent(db: Executor, salonId: number, at: Date, timeZone: string): Promise<boolean> {
  const usage = await lineUsage(db, salonId, salonMonth(at, timeZone));
  return usage.limit > 0 && usage.pushes_sent >= usage.limit;
}

/**
 * Counts the row's pushes in `month` unless that would pass the salon's limit. True: send it (also when the row
 * was counted by an earlier attempt, which is not counted again); false: the month's budget does not allow it.
 * The claim (attempt count) fences the write like markNotificationFailed: a row taken over after its lease ran
 * out is counted by its new worker only.
 *
 * One statement: the counter is raised only for this claim's row not counted yet, and the row is marked counted
 * (`line_push_month`) only when the counter was raised, so that an attempt after a crash never counts twice and a
 * refused row is left unmarked. Should the row change between the statement's start and its mark (its lease ran
 * out and another worker took it over in that instant), the counter keeps the count: a budget errs on the side
 * of counting a push once too often, never of letting one pass uncounted.
 */
export async function reservePushes(
  db: Database,
  row: Pick<OutboxRow, 'id' | 'attempts' | 'salon_id' | 'channel' | 'payload' | 'line_push_month'>,
  month: string,
): Promise<boolean> {
  if (row.line_push_month) return true;
  const cost = pushCost(row);
  if (cost === 0) return true;
  const limit = sql`(select ${salons.line_monthly_push_limit} from ${salons} where ${salons.id} = ${row.salon_id})`;
  const unmarked = and(
    eq(notificationsOutbox.id, row.id),
    eq(notificationsOutbox.attempts, row.attempts),
    sql`${notificationsOutbox.line_push_month} is null`,
  );
  const ours = sql<boolean>`exists (select 1 from ${notificationsOutbox} where ${unmarked})`;
  const counted = db.$with('counted').as(
    db
      .insert(linePushCounts)
      .select(
        sql`select ${row.salon_id}::integer, ${month}::text, ${cost}::integer
          where ${ours} and (${limit} = 0 or ${cost} <= ${limit})`,
      )
      .onConflictDoUpdate({
        target: [linePushCounts.salon_id, linePushCounts.month],
        set: { pushes: sql`${linePushCounts.pushes} + excluded.pushes` },
        setWhere: sql`${limit} = 0 or ${linePushCounts.pushes} + excluded.pushes <= ${limit}`,
      })
      .returning({ pushes: linePushCounts.pushes }),
  );
  const marked = db.$with('marked').as(
    db
      .update(notificationsOutbox)
      .set({ line_push_month: month })
      .where(and(unmarked, sql`exists (select 1 from ${counted})`))
      .returning({ id: notificationsOutbox.id }),
  );
  const [result] = await db
    .with(counted, marked)
    .select({
      ours,
      counted: sql<boolean>`exists (select 1 from ${counted})`,
    })
    .from(salons)
    .where(eq(salons.id, row.salon_id));
  // Counted meanwhile by the same claim, or the claim is no longer ours: never count twice.
  if (!result?.ours) return true;
  return result.counted;
}

/**
 * Gives a row's pushes back when LINE refused them for good (4xx: the message or recipient is wrong, so LINE
 * did not count them). Retried or timed-out attempts stay counted: LINE may have taken them.
 */
export async function releasePushes(
  db: Database,
  row: Pick<OutboxRow, 'id' | 'salon_id' | 'channel' | 'payload'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [counted] = await tx
      .select({ month: notificationsOutbox.line_push_month })
      .from(notificationsOutbox)
      .where(eq(notificationsOutbox.id, row.id))
      .for('update');
    if (!counted?.month) return;
    await tx.update(notificationsOutbox).set({ line_push_month: null }).where(eq(notificationsOutbox.id, row.id));
    await tx
      .update(linePushCounts)
      .set({ pushes: sql`greatest(${linePushCounts.pushes} - ${pushCost(row)}, 0)` })
      .where(and(eq(linePushCounts.salon_id, row.salon_id), eq(linePushCounts.month, counted.month)));
  });
}

/** Staff notices (their own LINE) have no e-mail fallback; everything else reaches a customer. */
function isCustomerNotice(row: Pick<OutboxRow, 'kind' | 'payload'>): boolean {
  return !row.kind.startsWith('staff_') || row.kind === 'staff_message';
}

/**
 * The LINE row the budget stopped: queues the same notice by e-mail when it reaches one customer who has an
 * address and is not already getting it by e-mail, and closes the LINE row saying why, in one transaction.
 * Returns how the row ended.
 */
export async function divertOverBudget(
  db: Database,
  row: OutboxRow,
): Promise<'email' | 'already_by_email' | 'not_sent'> {
  return db.transaction(async (tx) => {
    const fallback = isCustomerNotice(row) && !isMulticastPayload(row.payload) ? await fallbackAddress(tx, row) : null;
    if (fallback && 'address' in fallback) {
      // A reservation notice carries its customer e-mail (rendered with it); a reminder is rendered when sent;
      // anything else goes as its text under a subject that says where it comes from.
      const payload = isDeferredPayload(row.payload)
        ? row.payload
        : isLinePayload(row.payload) && isEmailPayload(row.payload.email)
          ? { subject: row.payload.email.subject, text: row.payload.email.text }
          : {
              subject: SERVER_MESSAGES.lineBudgetFallbackSubject(await salonName(tx, row.salon_id)),
              text: lineText(row),
            };
      await enqueueNotification(tx, {
        salonId: row.salon_id,
        channel: 'email',
        kind: row.kind,
        recipient: fallback.address,
        reservationId: row.reservation_id,
        payload,
      });
    }
    const outcome = !fallback ? 'not_sent' : 'address' in fallback ? 'email' : 'already_by_email';
    const note = {
      email: SERVER_MESSAGES.lineBudgetDivertedToEmail,
      already_by_email: SERVER_MESSAGES.lineBudgetAlreadyByEmail,
      not_sent: SERVER_MESSAGES.lineBudgetNotSent,
    }[outcome];
    await tx
      .update(notificationsOutbox)
      .set(
        // Reaching the customer another way is a handled outcome; reaching nobody stays visible as failed.
        outcome === 'not_sent'
          ? { status: 'failed', locked_until: null, last_error: note }
          : { status: 'sent', sent_at: sql`now()`, locked_until: null, last_error: note },
      )
      .where(
        and(
          eq(notificationsOutbox.id, row.id),
          eq(notificationsOutbox.status, 'sending'),
          eq(notificationsOutbox.attempts, row.attempts),
        ),
      );
    return outcome;
  });
}

/**
 * Where the notice can go by e-mail instead: the same notice (kind and reservation) already has an e-mail row,
 * or an address (a reservation's notices go to the address booked with, others to the customer's), or nowhere.
 */
async function fallbackAddress(tx: Executor, row: OutboxRow): Promise<{ address: string } | { twin: true } | null> {
  if (row.reservation_id !== null) {
    const [twin] = await tx
      .select({ id: notificationsOutbox.id })
      .from(notificationsOutbox)
      .where(
        and(
          eq(notificationsOutbox.reservation_id, row.reservation_id),
          eq(notificationsOutbox.kind, row.kind),
          eq(notificationsOutbox.channel, 'email'),
        ),
      )
      .limit(1);
    if (twin) return { twin: true };
    const [reservation] = await tx
      .select({ email: reservations.customer_email })
      .from(reservations)
      .where(eq(reservations.id, row.reservation_id));
    if (reservation?.email.trim()) return { address: reservation.email.trim() };
  }
  const [customer] = await tx
    .select({ email: customers.email })
    .from(customers)
    .where(and(eq(customers.salon_id, row.salon_id), eq(customers.line_user_id, row.recipient)))
    .limit(1);
  const address = customer?.email.trim();
  return address ? { address } : null;
}

async function salonName(tx: Executor, salonId: number): Promise<string> {
  const [salon] = await tx.select({ name: salons.name }).from(salons).where(eq(salons.id, salonId));
  return salon?.name ?? '';
}

/**
 * The LINE message as e-mail text: text messages as they are, anything else (a Flex card) by its alternative
 * text, which is the whole notice with its links (line-cards.ts).
 */
function lineText(row: OutboxRow): string {
  if (!isLinePayload(row.payload)) return '';
  return row.payload.messages
    .map((message) => {
      if (message.type === 'text') return message.text;
      if ('altText' in message && typeof message.altText === 'string') return message.altText;
      return '';
    })
    .filter(Boolean)
    .join('\n\n');
}
