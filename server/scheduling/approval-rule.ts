/**
 * The salon's approval rule (migration 0015): from `approval_after_incidents` 無断欠席 and 直前キャンセル on
 * (counted in server/db/incidents.ts), a customer's online booking waits for staff even when the salon confirms
 * online bookings at once. Used by bookings (the status a new online booking gets) and by the customer pages.
 */
import type { Executor } from '../db/client';
import { incidentCountsOf, type IncidentCounts } from '../db/incidents';

/** Auto-confirm of online bookings and the threshold (null: off). */
export type ApprovalRule = { autoConfirm: boolean; threshold: number | null };

/** The rule in a salons row, e.g. the booking read cache's (server/features/booking/availability.service.ts). */
export function approvalRuleOf(salon: {
  auto_confirm_online_bookings: boolean;
  approval_after_incidents: number | null;
}): ApprovalRule {
  return { autoConfirm: salon.auto_confirm_online_bookings, threshold: salon.approval_after_incidents };
}

/** Whether the counts reach the salon's threshold (null: the rule is off). */
export function reachesThreshold(incidents: IncidentCounts, threshold: number | null): boolean {
  return threshold !== null && incidents.no_show_count + incidents.late_cancel_count >= threshold;
}

/**
 * Whether the rule holds back this customer's online bookings: only when the salon confirms online bookings at once
 * (otherwise every online booking waits for staff anyway) and the counts reach the threshold.
 */
export function ruleHoldsBack(rule: ApprovalRule, incidents: IncidentCounts) {
  return rule.autoConfirm && reachesThreshold(incidents, rule.threshold);
}

/**
 * How a customer's new online booking is created: confirmed when the salon confirms online bookings at once and
 * the customer is below the threshold; otherwise pending, flagged `needs_approval` when the rule is what held it.
 * The counts are read with `tx`, the booking's transaction, after the customer row is locked. The rule comes from
 * the caller: the booking takes it from the salon's settings as it read them for its other checks.
 */
export async function onlineBookingStatus(
  tx: Executor,
  rule: ApprovalRule,
  customerId: number,
): Promise<{ status: 'pending' | 'confirmed'; needs_approval: boolean }> {
  if (!rule.autoConfirm) return { status: 'pending', needs_approval: false };
  if (ruleHoldsBack(rule, await incidentCountsOf(tx, customerId))) return { status: 'pending', needs_approval: true };
  return { status: 'confirmed', needs_approval: false };
}
