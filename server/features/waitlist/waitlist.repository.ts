/** Every statement of the waitlist API on waitlist_entries (the offers are written by server/outbox/waitlist-offers.ts). */
import { and, asc, count, eq, isNull, max, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { customers, services, staffUsers, waitlistEntries, waitlistOffers } from '../../db/schema';

const entryColumns = {
  id: waitlistEntries.id,
  customer_id: waitlistEntries.customer_id,
  service_id: waitlistEntries.service_id,
  service_name: services.name,
  option_ids: waitlistEntries.option_ids,
  staff_id: waitlistEntries.staff_id,
  staff_name: staffUsers.full_name,
  date: waitlistEntries.date,
  time_from: waitlistEntries.time_from,
  time_to: waitlistEntries.time_to,
  status: waitlistEntries.status,
  created_at: waitlistEntries.created_at,
};

/** Locks the customer's row: joins of one customer run one at a time, so the count of waiting entries holds. */
export async function lockCustomer(tx: Executor, salonId: number, customerId: number) {
  const [row] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.salon_id, salonId)))
    .for('update');
  return row;
}

export async function countWaiting(tx: Executor, customerId: number, fromDate: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.customer_id, customerId),
        eq(waitlistEntries.status, 'waiting'),
        sql`${waitlistEntries.date} >= ${fromDate}::date`,
      ),
    );
  return Number(row?.n ?? 0);
}

export async function insertEntry(tx: Executor, values: typeof waitlistEntries.$inferInsert) {
  const [row] = await tx.insert(waitlistEntries).values(values).returning({ id: waitlistEntries.id });
  return row!.id;
}

function selectEntries(executor: Executor, where: SQL | undefined) {
  return executor
    .select(entryColumns)
    .from(waitlistEntries)
    .innerJoin(services, eq(services.id, waitlistEntries.service_id))
    .leftJoin(staffUsers, eq(staffUsers.id, waitlistEntries.staff_id))
    .where(where)
    .orderBy(asc(waitlistEntries.date), asc(waitlistEntries.created_at), asc(waitlistEntries.id));
}

export async function findEntry(executor: Executor, salonId: number, id: number) {
  const [row] = await selectEntries(executor, and(eq(waitlistEntries.id, id), eq(waitlistEntries.salon_id, salonId)));
  return row;
}

/** The customer's waiting entries from `fromDate` on. */
export function listWaitingForCustomer(executor: Executor, salonId: number, customerId: number, fromDate: string) {
  return selectEntries(
    executor,
    and(
      eq(waitlistEntries.salon_id, salonId),
      eq(waitlistEntries.customer_id, customerId),
      eq(waitlistEntries.status, 'waiting'),
      sql`${waitlistEntries.date} >= ${fromDate}::date`,
    ),
  );
}

/** Withdraws the customer's own waiting entry (a compare-and-swap on its status); false when there is none. */
export async function withdraw(executor: Executor, salonId: number, customerId: number, id: number, at: Date) {
  const rows = await executor
    .update(waitlistEntries)
    .set({ status: 'withdrawn', updated_at: at })
    .where(
      and(
        eq(waitlistEntries.id, id),
        eq(waitlistEntries.salon_id, salonId),
        eq(waitlistEntries.customer_id, customerId),
        eq(waitlistEntries.status, 'waiting'),
      ),
    )
    .returning({ id: waitlistEntries.id });
  return rows.length > 0;
}

/**
 * The entries of one day for the staff list, with the customer's name and the offers made. `staffId` scopes it like
 * the reservations: entries naming that staff member or naming no one.
 */
export function listForDay(executor: Executor, salonId: number, date: string, staffId: number | undefined) {
  const conditions = [
    eq(waitlistEntries.salon_id, salonId),
    eq(waitlistEntries.date, date),
    sql`${waitlistEntries.status} <> 'withdrawn'`,
  ];
  if (staffId !== undefined) {
    conditions.push(or(eq(waitlistEntries.staff_id, staffId), isNull(waitlistEntries.staff_id))!);
  }
  const offers = executor
    .select({
      entry_id: waitlistOffers.entry_id,
      offers: count().as('offers'),
      last_offered_at: max(waitlistOffers.offered_at).as('last_offered_at'),
    })
    .from(waitlistOffers)
    .groupBy(waitlistOffers.entry_id)
    .as('offers');
  return executor
    .select({
      ...entryColumns,
      customer_name: customers.name,
      offers: sql<number>`coalesce(${offers.offers}, 0)`.mapWith(Number),
      last_offered_at: offers.last_offered_at,
    })
    .from(waitlistEntries)
    .innerJoin(services, eq(services.id, waitlistEntries.service_id))
    .innerJoin(customers, eq(customers.id, waitlistEntries.customer_id))
    .leftJoin(staffUsers, eq(staffUsers.id, waitlistEntries.staff_id))
    .leftJoin(offers, eq(offers.entry_id, waitlistEntries.id))
    .where(and(...conditions))
    .orderBy(asc(waitlistEntries.created_at), asc(waitlistEntries.id));
}
