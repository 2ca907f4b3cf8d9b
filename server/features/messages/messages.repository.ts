import { and, asc, count, desc, eq, exists, gte, ilike, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { broadcastRecipients, broadcasts, customers, lineMessages } from '../../db/schema';
import { customerInStaffScope } from '../../db/scope';

export type LineMessageRow = typeof lineMessages.$inferSelect;

export async function insertDirectMessage(
  db: Executor,
  row: typeof lineMessages.$inferInsert,
): Promise<LineMessageRow> {
  const [inserted] = await db.insert(lineMessages).values(row).returning();
  return inserted!;
}

/** LINE-linked customers of the salon, within `scope` (customerScopeFor) when given. */
function linkedCustomers(salonId: number, scope: SQL | undefined): SQL {
  return and(eq(customers.salon_id, salonId), isNotNull(customers.line_user_id), scope)!;
}

export async function countLinkedCustomers(db: Executor, salonId: number, scope: SQL | undefined): Promise<number> {
  const [row] = await db.select({ value: count() }).from(customers).where(linkedCustomers(salonId, scope));
  return row?.value ?? 0;
}

export async function insertBroadcast(db: Executor, row: typeof broadcasts.$inferInsert): Promise<number> {
  const [inserted] = await db.insert(broadcasts).values(row).returning({ id: broadcasts.id });
  return inserted!.id;
}

/**
 * Stores who a bulk send goes to, chosen by the database in one statement (every linked customer in scope at
 * this moment), and returns their LINE user ids in customer order.
 */
export async function insertBroadcastRecipients(
  db: Executor,
  input: { broadcastId: number; salonId: number; scope: SQL | undefined },
): Promise<string[]> {
  await db.insert(broadcastRecipients).select(
    db
      .select({
        broadcast_id: sql<number>`${input.broadcastId}::integer`.as('broadcast_id'),
        customer_id: customers.id,
      })
      .from(customers)
      .where(linkedCustomers(input.salonId, input.scope)),
  );
  const rows = await db
    .select({ lineUserId: customers.line_user_id })
    .from(broadcastRecipients)
    .innerJoin(customers, eq(customers.id, broadcastRecipients.customer_id))
    .where(eq(broadcastRecipients.broadcast_id, input.broadcastId))
    .orderBy(asc(customers.id));
  return rows.map((row) => row.lineUserId!);
}

export async function setRecipientCount(db: Executor, broadcastId: number, recipientCount: number): Promise<void> {
  await db.update(broadcasts).set({ recipient_count: recipientCount }).where(eq(broadcasts.id, broadcastId));
}

export interface HistoryFilter {
  salonId: number;
  /** Messages of this customer, and the bulk sends they received. */
  customerId?: number;
  /** Whose view (an ordinary staff member, or the one a superuser picked): their customers and their bulk sends. */
  staffId?: number;
  from?: Date;
  to?: Date;
  /** A LIKE pattern, already escaped. */
  pattern?: string;
  limit: number;
  offset: number;
}

export interface HistoryRow {
  source: 'm' | 'b';
  id: number;
  sent_at: Date;
  sender_type: 'admin' | 'customer';
  customer_id: number | null;
  customer_name: string;
  customer_line_picture_url: string;
  message: string;
  image_url: string;
  recipient_count: number | null;
}

/**
 * Direct messages (line_messages) and bulk sends (broadcasts, one entry each) in one list: the newest `limit`
 * after `offset`, newest first, and how many match in all.
 */
export async function listHistory(db: Executor, filter: HistoryFilter): Promise<{ rows: HistoryRow[]; total: number }> {
  const direct = and(
    eq(lineMessages.salon_id, filter.salonId),
    // Per-customer copies of a bulk send (if any were ever written) show as the one broadcast entry.
    isNull(lineMessages.broadcast_id),
    filter.customerId === undefined ? undefined : eq(lineMessages.customer_id, filter.customerId),
    filter.staffId === undefined ? undefined : customerInStaffScope(filter.staffId),
    filter.from ? gte(lineMessages.sent_at, filter.from) : undefined,
    filter.to ? lt(lineMessages.sent_at, filter.to) : undefined,
    filter.pattern ? or(ilike(lineMessages.message, filter.pattern), ilike(customers.name, filter.pattern)) : undefined,
  );
  const bulk = and(
    eq(broadcasts.salon_id, filter.salonId),
    filter.customerId === undefined
      ? undefined
      : exists(
          db
            .select({ one: sql`1` })
            .from(broadcastRecipients)
            .where(
              and(
                eq(broadcastRecipients.broadcast_id, broadcasts.id),
                eq(broadcastRecipients.customer_id, filter.customerId),
              ),
            ),
        ),
    filter.staffId === undefined ? undefined : eq(broadcasts.staff_id, filter.staffId),
    filter.from ? gte(broadcasts.created_at, filter.from) : undefined,
    filter.to ? lt(broadcasts.created_at, filter.to) : undefined,
    filter.pattern ? ilike(broadcasts.message, filter.pattern) : undefined,
  );

  const directSelect = db
    .select({
      source: sql<'m' | 'b'>`'m'::text`.as('source'),
      id: sql<number>`${lineMessages.id}::bigint`.mapWith(Number).as('id'),
      sent_at: lineMessages.sent_at,
      sender_type: lineMessages.sender_type,
      customer_id: sql<number | null>`${lineMessages.customer_id}`.as('customer_id'),
      customer_name: customers.name,
      customer_line_picture_url: customers.line_picture_url,
      message: lineMessages.message,
      image_url: lineMessages.image_url,
      recipient_count: sql<number | null>`null::integer`.as('recipient_count'),
    })
    .from(lineMessages)
    .innerJoin(customers, eq(customers.id, lineMessages.customer_id))
    .where(direct);
  const bulkSelect = db
    .select({
      source: sql<'m' | 'b'>`'b'::text`.as('source'),
      id: sql<number>`${broadcasts.id}::bigint`.mapWith(Number).as('id'),
      sent_at: broadcasts.created_at,
      sender_type: sql<'admin' | 'customer'>`'admin'::text`.as('sender_type'),
      customer_id: sql<number | null>`null::integer`.as('customer_id'),
      customer_name: sql<string>`''::text`.as('customer_name'),
      customer_line_picture_url: sql<string>`''::text`.as('customer_line_picture_url'),
      message: broadcasts.message,
      image_url: broadcasts.image_url,
      recipient_count: sql<number | null>`${broadcasts.recipient_count}`.as('recipient_count'),
    })
    .from(broadcasts)
    .where(bulk);

  const both = unionAll(directSelect, bulkSelect).as('history');
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(both)
      .orderBy(desc(both.sent_at), desc(both.source), desc(both.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ value: count() }).from(both),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      customer_id: row.customer_id === null ? null : Number(row.customer_id),
      recipient_count: row.recipient_count === null ? null : Number(row.recipient_count),
    })),
    total: totals[0]?.value ?? 0,
  };
}
