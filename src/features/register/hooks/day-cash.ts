import { dayCash as drawerCash, type DayCash } from '#src/shared/money/drawer';
import type { Checkout, Correction } from '#src/shared/schemas/register';

/** The denominations a drawer is counted in (yen), notes then coins. */
export const DENOMINATIONS = [10000, 5000, 1000, 500, 100, 50, 10, 5, 1] as const;

export type DenominationCounts = Partial<Record<(typeof DENOMINATIONS)[number], number>>;

export function countedTotal(counts: DenominationCounts): number {
  return DENOMINATIONS.reduce((sum, value) => sum + value * (counts[value] ?? 0), 0);
}

export type { DayCash } from '#src/shared/money/drawer';

/** How a correction gave money back: a void each payment the way it was made, a refund all its own way. */
function givenBack(checkout: Checkout, correction: Correction) {
  return correction.kind === 'void' ? checkout.payments : [{ method: correction.method, amount: correction.amount }];
}

/**
 * The drawer of a day as its checkouts and their corrections on that day say (the figures the closing records,
 * server/features/register/takings.ts): a refund given that day of an earlier day's checkout is not in the day's
 * list, so the server's closing is the final word.
 */
export function dayCash(openingFloat: number, date: string, checkouts: readonly Checkout[]): DayCash {
  const corrections = checkouts.flatMap((checkout) =>
    checkout.corrections
      .filter((correction) => correction.business_date === date)
      .map((correction) => ({ given_back: givenBack(checkout, correction), cash_refunded: correction.cash_refunded })),
  );
  return drawerCash(openingFloat, checkouts, corrections);
}
