import { grossByRate, lineAmount } from './receipt';
import { taxContained } from './tax';
import type { ReceiptLine, TaxByRate, TaxRate, TaxRounding } from './types';

/** A line given back: its position on the original receipt and how many of it. */
export interface RefundLineRequest {
  line_index: number;
  quantity: number;
}

/** A refunded line as the refund record keeps it (amount: its tax-inclusive price × quantity, before discounts). */
export interface RefundedLine extends RefundLineRequest {
  kind: ReceiptLine['kind'];
  ref_id: number | null;
  name: string;
  unit_price: number;
  tax_rate: TaxRate;
  amount: number;
}

interface RefundAmounts {
  lines: RefundedLine[];
  /** Yen handed back: the lines' prices less their share of the receipt's discount. */
  amount: number;
  tax_by_rate: TaxByRate[];
}

export type RefundRefusal = 'unknown_line' | 'refund_too_much' | 'nothing_to_refund';

interface Original {
  lines: readonly ReceiptLine[];
  tax_by_rate: readonly TaxByRate[];
}

/**
 * What a refund of some lines (all that is left when `requested` is undefined) gives back. Each rate gives back its
 * lines' prices scaled by what the customer paid at that rate after the discount (rounded down), and the tax they
 * contain; the refund that gives back the last lines gives back exactly what is left at each rate, so the refunds
 * of a receipt always add up to its total and its tax.
 */
export function computeRefund(
  original: Original,
  earlier: readonly { lines: readonly RefundLineRequest[]; tax_by_rate: readonly TaxByRate[] }[],
  requested: readonly RefundLineRequest[] | undefined,
  rounding: TaxRounding,
): RefundAmounts | { refused: RefundRefusal } {
  const left = original.lines.map((line) => line.quantity);
  for (const refund of earlier) for (const line of refund.lines) left[line.line_index]! -= line.quantity;
  const wanted = requested ?? left.map((quantity, line_index) => ({ line_index, quantity })).filter((l) => l.quantity);
  if (wanted.length === 0) return { refused: 'nothing_to_refund' };
  const after = [...left];
  for (const line of wanted) {
    if (!Number.isInteger(line.line_index) || after[line.line_index] === undefined) return { refused: 'unknown_line' };
    after[line.line_index]! -= line.quantity;
    if (after[line.line_index]! < 0) return { refused: 'refund_too_much' };
  }
  const lines = wanted.map((request) => {
    const line = original.lines[request.line_index]!;
    const { kind, name, unit_price, tax_rate } = line;
    const amount = lineAmount({ unit_price, quantity: request.quantity });
    return { ...request, kind, ref_id: line.ref_id ?? null, name, unit_price, tax_rate, amount };
  });
  const isLast = after.every((quantity) => quantity === 0);
  const gross = grossByRate(original.lines);
  const taxByRate: TaxByRate[] = [];
  for (const paid of original.tax_by_rate) {
    const given = earlier.flatMap((refund) => refund.tax_by_rate.filter((entry) => entry.rate === paid.rate));
    const amountLeft = paid.taxable_total - given.reduce((sum, entry) => sum + entry.taxable_total, 0);
    const taxLeft = paid.tax - given.reduce((sum, entry) => sum + entry.tax, 0);
    const refundedGross = lines.filter((line) => line.tax_rate === paid.rate).reduce((sum, l) => sum + l.amount, 0);
    if (!isLast && refundedGross === 0) continue;
    const scaled = Math.floor((refundedGross * paid.taxable_total) / (gross.get(paid.rate) || 1));
    const amount = isLast ? amountLeft : Math.min(scaled, amountLeft);
    const tax = isLast ? taxLeft : Math.min(taxContained(amount, paid.rate, rounding), taxLeft);
    taxByRate.push({ rate: paid.rate, taxable_total: amount, tax });
  }
  return { lines, amount: taxByRate.reduce((sum, entry) => sum + entry.taxable_total, 0), tax_by_rate: taxByRate };
}
