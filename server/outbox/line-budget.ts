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
  intArray,
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

/**
 * What one row costs in LINE's count: one per push, one per recipient of a multicast; a booking's event, the pushes
 * of the messages sent straight from it (`pushes`, event-delivery.ts).
 */
function pushCost(row: Pick<OutboxRow, 'channel' | 'payload'> & { pushes?: number }): number {
  if (row.pushes !== undefined) return row.pushes;
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
 * out is counted by its new worker only. The same rules as a batch's (reserveBatchPushes, below): the counter row
 * is locked while the row is counted, and the row is marked counted (`line_push_month`) with the counter's rise, so
 * that an attempt after a crash never counts twice and a refused row is left unmarked.
 */
export async function reservePushes(db: Database, row: BudgetRow, month: string): Promise<boolean> {
  return (await reserveBatchPushes(db, [row], month)).get(row.id) ?? true;
}

type BudgetRow = Pick<OutboxRow, 'id' | 'attempts' | 'salon_id' | 'channel' | 'payload' | 'line_push_month'> & {
  pushes?: number;
};

/**
 * reservePushes for a batch of rows (the worker's, server/outbox/worker-delivery.ts): true for each row that may be
 * sent, false for each the month's budget does not allow, by the same rules, in one statement per salon whatever the
 * number of rows (one statement per row cost a booking's messages about half a millisecond on PGlite,
 * docs/BENCHMARKS.md): reserve_line_pushes() (migration 0028) locks the month's counter row (creating it at 0), reads
 * it with the salon's limit and which rows are still this claim's and not counted, counts those in their order while
 * they fit, marks them and raises the counter by their sum. A row that does not fit is refused, and so is every row
 * after it: the budget errs on the side of pushing less.
 */
export async function reserveBatchPushes(db: Database, rows: readonly BudgetRow[], month: string) {
  const decided = new Map<number, boolean>();
  const bySalon = new Map<number, BudgetRow[]>();
  for (const row of rows) {
    if (row.line_push_month || pushCost(row) === 0) decided.set(row.id, true);
    else if (bySalon.has(row.salon_id)) bySalon.get(row.salon_id)!.push(row);
    else bySalon.set(row.salon_id, [row]);
  }
  for (const [salonId, candidates] of bySalon) {
    for (const [id, allowed] of await reserveForSalon(db, salonId, candidates, month)) decided.set(id, allowed);
  }
  return decided;
}

/** One salon's rows, in one call of reserve_line_pushes() (migration 0028, which holds the rules). */
async function reserveForSalon(db: Database, salonId: number, rows: readonly BudgetRow[], month: string) {
  const result = await db.execute(sql`
    select to_json(reserve_line_pushes(${salonId}::integer, ${month}::text,
                                       ${intArray(rows.map((row) => row.id))}::bigint[],
                                       ${intArray(rows.map((row) => row.attempts))}::int[],
                                       ${intArray(rows.map(pushCost))}::int[])) as refused`);
  const [answer] = (result as unknown as { rows: Array<{ refused: unknown }> }).rows;
  const refusedIds = typeof answer?.refused === 'string' ? JSON.parse(answer.refused) : answer?.refused;
  const refused = new Set(((refusedIds ?? []) as Array<number | string>).map(Number));
  return new Map(rows.map((row) => [row.id, !refused.has(row.id)]));
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

/** Gives back pushes LINE refused for good that were counted on their booking's event row (event-delivery.ts). */
export async function releaseEventPushes(db: Database, salonId: number, month: string, pushes: number) {
  await db
    .update(linePushCounts)
    .set({ pushes: sql`greatest(${linePushCounts.pushes} - ${pushes}, 0)` })
    .where(and(eq(linePushCounts.salon_id, salonId), eq(linePushCounts.month, month)));
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
