/**
 * The salon's approval rule (migration 0015): from `approval_after_incidents` 無断欠席 and 直前キャンセル on
 * (counted in server/db/incidents.ts), a customer's online booking waits for staff even when the salon confirms
 * online bookings at once. The status a new online booking gets is decided by the same rule in the database, in
 * book_reservation() (server/db/migrations/0025_book_reservation.sql: change one, change both); the customer pages
 * show the rule from here.
 */
import type { IncidentCounts } from '../db/incidents';

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
