/**
 * The register's money (docs/architecture.md#register-会計): integer yen, prices tax-inclusive (内税). These types
 * are shared by the server, which keeps the records, and the browser, which computes receipts offline with the
 * same functions.
 */

/** The largest subtotal a receipt may have (yen): every sum of a receipt then stays well inside int4. */
export const MAX_RECEIPT_YEN = 100_000_000;

/** Consumption tax rates: the standard rate and the reduced rate (軽減税率, marked ※ on receipts). */
export const TAX_RATES = [10, 8] as const;
export type TaxRate = (typeof TAX_RATES)[number];
export const REDUCED_TAX_RATE: TaxRate = 8;

/** How the tax contained in a total is rounded to yen, once per receipt and rate (切り捨て, 四捨五入, 切り上げ). */
export const TAX_ROUNDINGS = ['floor', 'round', 'ceil'] as const;
export type TaxRounding = (typeof TAX_ROUNDINGS)[number];

export const PAYMENT_METHODS = ['cash', 'card', 'qr', 'emoney', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const LINE_KINDS = ['service', 'option', 'nomination', 'product', 'custom'] as const;
type LineKind = (typeof LINE_KINDS)[number];

/** One line of a receipt: unit_price is tax-inclusive yen. */
export interface ReceiptLine {
  kind: LineKind;
  ref_id?: number | null;
  name: string;
  unit_price: number;
  quantity: number;
  tax_rate: TaxRate;
}

/** A discount on the whole receipt: a yen amount, or a percent of the subtotal (rounded down to yen). */
export interface Discount {
  name: string;
  amount?: number;
  percent?: number;
}

/** A discount as a receipt keeps it: its yen amount decided. */
export interface AppliedDiscount {
  name: string;
  amount: number;
  percent?: number;
}

export interface Payment {
  method: PaymentMethod;
  amount: number;
}

/** Per tax rate: the tax-inclusive total at that rate after discounts, and the tax it contains. */
export interface TaxByRate {
  rate: TaxRate;
  taxable_total: number;
  tax: number;
}
