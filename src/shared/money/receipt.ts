import { taxContained } from './tax';
import {
  MAX_RECEIPT_YEN,
  TAX_RATES,
  type AppliedDiscount,
  type Discount,
  type ReceiptLine,
  type TaxByRate,
  type TaxRate,
  type TaxRounding,
} from './types';

/** The amount of one line: unit price × quantity (tax-inclusive yen). */
export const lineAmount = (line: Pick<ReceiptLine, 'unit_price' | 'quantity'>) => line.unit_price * line.quantity;

/** Tax-inclusive totals per rate, for the rates that occur, standard rate first. */
export function grossByRate(lines: readonly Pick<ReceiptLine, 'unit_price' | 'quantity' | 'tax_rate'>[]) {
  const totals = new Map<TaxRate, number>();
  for (const rate of TAX_RATES) {
    const lineTotals = lines.filter((line) => line.tax_rate === rate).map(lineAmount);
    if (lineTotals.length > 0)
      totals.set(
        rate,
        lineTotals.reduce((sum, amount) => sum + amount, 0),
      );
  }
  return totals;
}

/**
 * The yen of each discount: an amount as given, a percent of the subtotal rounded down (a discount never makes a
 * fraction of a yen in the customer's favour or against it: it is simply smaller).
 */
function applyDiscounts(discounts: readonly Discount[], subtotal: number): AppliedDiscount[] {
  return discounts.map((discount) =>
    discount.percent !== undefined
      ? { name: discount.name, percent: discount.percent, amount: Math.floor((subtotal * discount.percent) / 100) }
      : { name: discount.name, amount: discount.amount ?? 0 },
  );
}

/**
 * Shares a receipt's discount between its tax rates in proportion to their totals, each share rounded down; the
 * yen left over by the rounding go to the largest share (on a tie, the standard rate's), so the shares add up to
 * the discount exactly.
 */
export function allocateDiscount(gross: ReadonlyMap<TaxRate, number>, discountTotal: number): Map<TaxRate, number> {
  const subtotal = [...gross.values()].reduce((sum, amount) => sum + amount, 0);
  const shares = new Map<TaxRate, number>();
  if (subtotal === 0) {
    for (const rate of gross.keys()) shares.set(rate, 0);
    return shares;
  }
  for (const [rate, amount] of gross) shares.set(rate, Math.floor((discountTotal * amount) / subtotal));
  const allocated = [...shares.values()].reduce((sum, share) => sum + share, 0);
  const largest = [...shares.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  shares.set(largest[0], largest[1] + (discountTotal - allocated));
  return shares;
}

/** The tax per rate of taxable (after-discount, tax-inclusive) totals: rounded once per receipt and rate. */
function taxByRate(taxable: ReadonlyMap<TaxRate, number>, rounding: TaxRounding): TaxByRate[] {
  return [...taxable].map(([rate, total]) => ({
    rate,
    taxable_total: total,
    tax: taxContained(total, rate, rounding),
  }));
}

export interface ReceiptTotals {
  subtotal: number;
  discounts: AppliedDiscount[];
  discount_total: number;
  total: number;
  tax_by_rate: TaxByRate[];
}

export type ReceiptRefusal = 'no_lines' | 'total_too_large' | 'discount_too_large';

/** Subtotal, discounts, total and tax per rate of a receipt; or why it cannot be one. */
export function computeReceipt(input: {
  lines: readonly ReceiptLine[];
  discounts?: readonly Discount[];
  rounding: TaxRounding;
}): ReceiptTotals | { refused: ReceiptRefusal } {
  if (input.lines.length === 0) return { refused: 'no_lines' };
  const gross = grossByRate(input.lines);
  const subtotal = [...gross.values()].reduce((sum, amount) => sum + amount, 0);
  if (subtotal > MAX_RECEIPT_YEN) return { refused: 'total_too_large' };
  const discounts = applyDiscounts(input.discounts ?? [], subtotal);
  const discountTotal = discounts.reduce((sum, discount) => sum + discount.amount, 0);
  if (discountTotal > subtotal) return { refused: 'discount_too_large' };
  const shares = allocateDiscount(gross, discountTotal);
  const taxable = new Map([...gross].map(([rate, amount]) => [rate, amount - (shares.get(rate) ?? 0)] as const));
  return {
    subtotal,
    discounts,
    discount_total: discountTotal,
    total: subtotal - discountTotal,
    tax_by_rate: taxByRate(taxable, input.rounding),
  };
}
