import type { TaxRate, TaxRounding } from './types';

/**
 * The tax contained in a tax-inclusive total: total × rate / (100 + rate), rounded as the salon chose. Exact
 * integer arithmetic (no floating point): the quotient and remainder decide the rounding.
 */
export function taxContained(total: number, rate: TaxRate, rounding: TaxRounding): number {
  const numerator = total * rate;
  const denominator = 100 + rate;
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  if (remainder === 0 || rounding === 'floor') return quotient;
  if (rounding === 'ceil') return quotient + 1;
  // 四捨五入: half a yen or more rounds up.
  return remainder * 2 >= denominator ? quotient + 1 : quotient;
}
