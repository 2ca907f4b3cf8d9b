/**
 * 無断欠席 and 直前キャンセル per customer (migration 0015), which the salon's approval rule is built on
 * (server/scheduling/approval-rule.ts). Shared by reservations (the cancel flag, the detail) and customers (the counts).
 *
 * A late cancel is stored on the reservation when it is cancelled (`cancelled_late`), under the salon's hours at that
 * moment, so changing `late_cancel_hours` later never rewrites history. Any cancel counts, by the customer or by
 * staff: staff cancelling a booking the salon itself had to drop counts too (the staff member can see the reason in
 * the history; keeping the rule one column keeps the counts one indexed query).
 */
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from './client';
import { reservations, salons } from './schema';

export interface IncidentCounts {
  no_show_count: number;
  late_cancel_count: number;
}

export const NO_INCIDENTS: IncidentCounts = { no_show_count: 0, late_cancel_count: 0 };

/** The rows that count: exactly the predicate of the partial index reservations_customer_incidents_idx. */
const counted = or(eq(reservations.status, 'no_show'), eq(reservations.cancelled_late, true))!;
const counts = {
  no_show_count: sql<number>`count(*) filter (where ${reservations.status} = 'no_show')`.mapWith(Number),
  late_cancel_count: sql<number>`count(*) filter (where ${reservations.cancelled_late})`.mapWith(Number),
};

/** The counts of these customers, in one query; a customer without any is absent (read it as NO_INCIDENTS). */
export async function incidentCounts(db: Executor, customerIds: readonly number[]) {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return new Map<number, IncidentCounts>();
  const rows = await db
    .select({ customer_id: reservations.customer_id, ...counts })
    .from(reservations)
    .where(and(inArray(reservations.customer_id, ids), counted))
    .groupBy(reservations.customer_id);
  return new Map(rows.map(({ customer_id, ...row }) => [customer_id, row]));
}

/**
 * The counts of the customer whose id is `customerId`, as one column of the caller's query: a list reads its rows
 * and their counts in one statement. Pass the id qualified with its table or subquery name (e.g.
 * `sql\`"customers"."id"\``): drizzle leaves columns of a one-table query unqualified, which inside this subquery
 * would name the reservation's own id. The predicate is the partial index's, as in `counted`.
 */
export function incidentCountsColumn(customerId: SQL) {
  return sql<IncidentCounts>`(
    select json_build_object('no_show_count', count(*) filter (where incident.status = 'no_show'),
      'late_cancel_count', count(*) filter (where incident.cancelled_late))
    from ${reservations} incident
    where incident.customer_id = ${customerId} and (incident.status = 'no_show' or incident.cancelled_late))`;
}

export async function incidentCountsOf(db: Executor, customerId: number): Promise<IncidentCounts> {
  return (await incidentCounts(db, [customerId])).get(customerId) ?? NO_INCIDENTS;
}

/**
 * The columns a cancel sets in its own UPDATE: when, and whether it came less than the salon's `late_cancel_hours`
 * before the start (read from the salons row by the same statement). `now` is the app's clock.
 */
export function cancelColumns(now: Date) {
  return {
    cancelled_at: now,
    cancelled_late: sql<boolean>`${reservations.start_time} < ${now.toISOString()}::timestamptz + make_interval(hours => (select ${salons.late_cancel_hours} from ${salons} where ${salons.id} = ${reservations.salon_id}))`,
  };
}
