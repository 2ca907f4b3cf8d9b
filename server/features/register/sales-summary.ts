/**
 * GET /api/admin/sales/summary/: the period's takings in the owner's terms — 客単価 (takings per visit), visits of
 * new customers (新規: their first checkout ever) and of returning ones (再来), and the 90-day return rate: of the
 * period's new customers, the share who came again within 90 days of that first visit (those whose 90 days are
 * not over yet count as not returned so far). A visit is a checkout that was not voided.
 */
import type { SalesSummary } from '#src/shared/schemas/register';
import { addDaysToDate } from '#src/shared/time';
import type { CustomerVisit } from './checkouts.repository';

const RETURN_WINDOW_DAYS = 90;

interface PeriodCheckout {
  id: number;
  customer_id: number | null;
}

export function salesSummary(input: {
  /** The period's checkouts (voided ones included: the takings rows already take voids out). */
  checkouts: readonly PeriodCheckout[];
  voidedIds: ReadonlySet<number>;
  /** Takings of the period (checkouts less voids and refunds), as GET /api/admin/sales/ adds them up. */
  takings: number;
  /** The whole history of the period's customers (customerVisits). */
  history: readonly CustomerVisit[];
}): SalesSummary {
  const visits = input.checkouts.filter((checkout) => !input.voidedIds.has(checkout.id));
  const byCustomer = new Map<number, CustomerVisit[]>();
  for (const visit of input.history)
    byCustomer.set(visit.customer_id, [...(byCustomer.get(visit.customer_id) ?? []), visit]);

  let newVisits = 0;
  let returningVisits = 0;
  let returned = 0;
  for (const visit of visits) {
    if (visit.customer_id === null) continue;
    const history = byCustomer.get(visit.customer_id) ?? [];
    const first = history[0];
    if (first?.id !== visit.id) {
      returningVisits += 1;
      continue;
    }
    newVisits += 1;
    const until = addDaysToDate(first.business_date, RETURN_WINDOW_DAYS);
    if (history.slice(1).some((later) => later.business_date <= until)) returned += 1;
  }
  return {
    visit_count: visits.length,
    takings: input.takings,
    average_spend: visits.length === 0 ? 0 : Math.round(input.takings / visits.length),
    new_visits: newVisits,
    returning_visits: returningVisits,
    walk_in_visits: visits.length - newVisits - returningVisits,
    new_returned_90d: returned,
    return_rate_90d: newVisits === 0 ? null : returned / newVisits,
  };
}
