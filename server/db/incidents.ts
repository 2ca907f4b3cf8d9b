/**
 * 無断欠席 and 直前キャンセル per customer, and the salon's rule built on them (migration 0015): from
 * `approval_after_incidents` of them on, a customer's online booking waits for staff even when the salon confirms
 * online bookings at once. Shared by reservations (the rule, the cancel flag, the detail) and customers (the counts).
 *
 * A late cancel is stored on the reservation when it is cancelled (`cancelled_late`), under the salon's hours at that
 * moment, so changing `late_cancel_hours` later never rewrites history. Any cancel counts, by the customer or by
 * staff: staff cancelling a booking the salon itself had to drop counts too (the staff member can see the reason in
 * the history; keeping the rule one column keeps the counts one indexed query).
 */
import { and, eq, inArray, or, sql } from 'drizzle-orm';
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

export async function incidentCountsOf(db: Executor, customerId: number): Promise<IncidentCounts> {
  return (await incidentCounts(db, [customerId])).get(customerId) ?? NO_INCIDENTS;
}

/** Whether the counts reach the salon's threshold (null: the rule is off). */
export function reachesThreshold(incidents: IncidentCounts, threshold: number | null): boolean {
  return threshold !== null && incidents.no_show_count + incidents.late_cancel_count >= threshold;
}

/** The salon's rule as stored now: auto-confirm of online bookings and the threshold (null: off). */
export type ApprovalRule = { autoConfirm: boolean; threshold: number | null };

export async function approvalRule(db: Executor, salonId: number): Promise<ApprovalRule> {
  const [salon] = await db
    .select({ autoConfirm: salons.auto_confirm_online_bookings, threshold: salons.approval_after_incidents })
    .from(salons)
    .where(eq(salons.id, salonId));
  return salon ?? { autoConfirm: false, threshold: null };
}

/**
 * Whether the rule holds back this customer's online bookings: only when the salon confirms online bookings at once
 * (otherwise every online booking waits for staff anyway) and the counts reach the threshold.
 */
export function ruleHoldsBack(rule: ApprovalRule, incidents: IncidentCounts) {
  return rule.autoConfirm && reachesThreshold(incidents, rule.threshold);
}

/**
 * How a customer's new online booking is created, read inside the booking's transaction (after the customer row is
 * locked) from the salon's settings as they are now: confirmed when the salon confirms online bookings at once and
 * the customer is below the threshold; otherwise pending, flagged `needs_approval` when the rule is what held it.
 */
export async function onlineBookingStatus(
  tx: Executor,
  salonId: number,
  customerId: number,
): Promise<{ status: 'pending' | 'confirmed'; needs_approval: boolean }> {
  const rule = await approvalRule(tx, salonId);
  if (!rule.autoConfirm) return { status: 'pending', needs_approval: false };
  if (ruleHoldsBack(rule, await incidentCountsOf(tx, customerId))) return { status: 'pending', needs_approval: true };
  return { status: 'confirmed', needs_approval: false };
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
