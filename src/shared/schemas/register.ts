import { z } from 'zod';
import { MESSAGES } from '../messages';
import { REGISTER_MESSAGES } from '../register-messages';
import { LINE_KINDS, PAYMENT_METHODS, TAX_ROUNDINGS } from '../money/types';
import { optionalText, requiredText } from './common';
import { wholeNumber } from './menu';
import { localDateSchema, localDateTimeSchema } from './reservations';

/**
 * The register's requests and answers (docs/architecture.md#register-会計). Money is integer, tax-inclusive yen;
 * the arithmetic is src/shared/money.
 */

/** The largest price, payment or discount the register takes (yen): bounded so that no sum leaves int4. */
const MAX_REGISTER_YEN = 10_000_000;

const yen = (min = 0) => wholeNumber(REGISTER_MESSAGES.yenAmountInvalid, { min, max: MAX_REGISTER_YEN });
const id = z.coerce.number().int().positive().max(2_147_483_647);
const taxRate = z.union([z.literal(10), z.literal(8)], { error: REGISTER_MESSAGES.taxRateInvalid });

/** 適格請求書発行事業者の登録番号: `T` and 13 digits, or '' (not registered). */
export const invoiceRegistrationNumberSchema = z
  .string({ error: REGISTER_MESSAGES.invoiceRegistrationNumberInvalid })
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => value === '' || /^T\d{13}$/.test(value), {
    error: REGISTER_MESSAGES.invoiceRegistrationNumberInvalid,
  });
export const taxRoundingSchema = z.enum(TAX_ROUNDINGS, { error: REGISTER_MESSAGES.taxRoundingInvalid });
export const openingFloatSchema = wholeNumber(REGISTER_MESSAGES.openingFloatInvalid, { min: 0, max: MAX_REGISTER_YEN });

// 商品 (GET/POST /api/admin/products/, PATCH/DELETE /api/admin/products/{id}/).
export const productSchema = z.object({ id: z.number(), name: z.string(), price: z.number(), tax_rate: taxRate });
export type Product = z.infer<typeof productSchema>;
export const createProductRequestSchema = z.object({ name: requiredText(100), price: yen(), tax_rate: taxRate });
export const updateProductRequestSchema = createProductRequestSchema.partial();
export const productIdParamsSchema = z.object({ id: z.string().max(32) });
export const checkoutIdParamsSchema = z.object({ id: z.string().max(32) });

const receiptLineSchema = z.object({
  kind: z.enum(LINE_KINDS),
  ref_id: id.nullish(),
  name: requiredText(100),
  unit_price: yen(),
  quantity: wholeNumber(REGISTER_MESSAGES.quantityInvalid, { min: 1, max: 999 }),
  tax_rate: taxRate,
});

/** A line as answers carry it (plain: answer schemas are encoded, so they hold no transforms). */
const receiptLineAnswerSchema = z.object({
  kind: z.enum(LINE_KINDS),
  ref_id: z.number().nullable().optional(),
  name: z.string(),
  unit_price: z.number(),
  quantity: z.number(),
  tax_rate: taxRate,
});
const paymentAnswerSchema = z.object({ method: z.enum(PAYMENT_METHODS), amount: z.number() });

/** GET /api/admin/reservations/{n}/checkout-draft/: the booking's lines at the booked prices. */
export const checkoutDraftSchema = z.object({
  reservation_number: z.string(),
  customer_id: z.number(),
  staff_id: z.number(),
  lines: z.array(receiptLineAnswerSchema),
});

const discountRequestSchema = z
  .object({
    name: requiredText(50),
    amount: yen(1).optional(),
    percent: wholeNumber(REGISTER_MESSAGES.percentInvalid, { min: 1, max: 100 }).optional(),
  })
  .refine((discount) => (discount.amount === undefined) !== (discount.percent === undefined), {
    error: REGISTER_MESSAGES.discountAmountOrPercent,
  });

const paymentSchema = z.object({ method: z.enum(PAYMENT_METHODS), amount: yen(1) });

/**
 * POST /api/admin/checkouts/: a reservation's checkout, a customer's (物販, a walk-in), or nobody's. `receipt_number`
 * is a number the device drew offline (`DEVICE-yyyyMMdd-n`); the server keeps it when well-formed and unused, else
 * assigns its own (the answer says which). `checked_out_at` is when a device recorded it offline (salon-local): the
 * checkout belongs to that day (a day closed meanwhile refuses it, 409), within the last 7 days; a later one is now.
 */
export const createCheckoutRequestSchema = z
  .object({
    reservation_number: z.uuid({ error: MESSAGES.reservationNotFound }).optional(),
    customer_id: id.optional(),
    staff_id: id.optional(),
    receipt_number: z.string().max(64).optional(),
    checked_out_at: localDateTimeSchema.optional(),
    lines: z.array(receiptLineSchema, { error: REGISTER_MESSAGES.checkoutLinesRequired }).max(100),
    discounts: z.array(discountRequestSchema).max(10).optional(),
    payments: z.array(paymentSchema).max(10),
    cash_received: yen().optional(),
  })
  .refine((body) => body.reservation_number === undefined || body.customer_id === undefined, {
    error: REGISTER_MESSAGES.checkoutReservationOrCustomer,
    path: ['customer_id'],
  });
export type CreateCheckoutRequest = z.input<typeof createCheckoutRequestSchema>;

const taxByRateSchema = z.array(z.object({ rate: z.number(), taxable_total: z.number(), tax: z.number() }));
const refundedLineSchema = z.object({
  line_index: z.number(),
  quantity: z.number(),
  kind: z.enum(LINE_KINDS),
  ref_id: z.number().nullable(),
  name: z.string(),
  unit_price: z.number(),
  tax_rate: z.number(),
  amount: z.number(),
});

/** A void or a refund: a record of its own that refers to the checkout. */
export const correctionSchema = z.object({
  id: z.number(),
  checkout_id: z.number(),
  kind: z.enum(['void', 'refund']),
  business_date: z.string(),
  amount: z.number(),
  tax_by_rate: taxByRateSchema,
  lines: z.array(refundedLineSchema),
  method: z.enum(PAYMENT_METHODS),
  cash_refunded: z.number(),
  reason: z.string(),
  staff_id: z.number(),
  created_at: z.string(),
});
export type Correction = z.infer<typeof correctionSchema>;

const CHECKOUT_STATUSES = ['completed', 'voided', 'partially_refunded', 'refunded'] as const;

export const checkoutSchema = z.object({
  id: z.number(),
  receipt_number: z.string(),
  /** Whether the receipt number is the one the device sent (false: the server assigned one). */
  receipt_number_from_client: z.boolean(),
  checked_out_at: z.string(),
  business_date: z.string(),
  reservation_number: z.string().nullable(),
  customer_id: z.number().nullable(),
  customer_name: z.string(),
  staff_id: z.number(),
  staff_name: z.string(),
  created_by_staff_id: z.number(),
  lines: z.array(receiptLineAnswerSchema),
  discounts: z.array(z.object({ name: z.string(), amount: z.number(), percent: z.number().optional() })),
  subtotal: z.number(),
  discount_total: z.number(),
  total: z.number(),
  tax_by_rate: taxByRateSchema,
  payments: z.array(paymentAnswerSchema),
  cash_received: z.number(),
  change: z.number(),
  status: z.enum(CHECKOUT_STATUSES),
  corrections: z.array(correctionSchema),
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const checkoutListQuerySchema = z.object({ date: localDateSchema.optional() });

export const voidRequestSchema = z.object({ reason: requiredText(200) });
export const refundRequestSchema = z.object({
  reason: requiredText(200),
  /** The lines given back (positions on the receipt); absent: everything not yet refunded. */
  lines: z
    .array(
      z.object({
        line_index: wholeNumber(REGISTER_MESSAGES.refundUnknownLine, { min: 0, max: 99 }),
        quantity: wholeNumber(REGISTER_MESSAGES.quantityInvalid, { min: 1, max: 999 }),
      }),
    )
    .min(1)
    .max(100)
    .optional(),
  /** How the money goes back; by default cash when the customer paid any cash, else their largest payment's way. */
  method: z.enum(PAYMENT_METHODS).optional(),
});

// レジ締め.
export const createClosingRequestSchema = z.object({
  date: localDateSchema,
  counted_cash: yen(),
  memo: optionalText(500).optional(),
});
const totalsByMethodSchema = z.record(z.enum(PAYMENT_METHODS), z.number());
export const closingSchema = z.object({
  date: z.string(),
  opening_float: z.number(),
  cash_received: z.number(),
  change_given: z.number(),
  cash_refunded: z.number(),
  expected_cash: z.number(),
  counted_cash: z.number(),
  difference: z.number(),
  totals_by_method: totalsByMethodSchema,
  memo: z.string(),
  staff_id: z.number(),
  closed_at: z.string(),
});
export type Closing = z.infer<typeof closingSchema>;

/** A period of days (both ends included), as the closings, the sales and the CSV take it. */
export const dateRangeQuerySchema = z.object({ from: localDateSchema, to: localDateSchema });

const SALES_GROUPS = ['day', 'month', 'staff', 'menu', 'method'] as const;
export const salesQuerySchema = dateRangeQuerySchema.extend({ group: z.enum(SALES_GROUPS).default('day') });
export const salesRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number(),
  total: z.number(),
  /** By 担当 only: the checkouts with a 指名料 line (指名), of `count`. */
  nominated: z.number().optional(),
});
export type SalesRow = z.infer<typeof salesRowSchema>;

/** GET /api/admin/sales/summary/ (server/features/register/sales-summary.ts). */
export const salesSummarySchema = z.object({
  visit_count: z.number(),
  takings: z.number(),
  /** 客単価: takings per visit, rounded to yen. */
  average_spend: z.number(),
  new_visits: z.number(),
  returning_visits: z.number(),
  /** Checkouts of nobody in particular (a sale without a customer). */
  walk_in_visits: z.number(),
  new_returned_90d: z.number(),
  /** Of the period's new customers, the share who came again within 90 days (null: no new customer). */
  return_rate_90d: z.number().nullable(),
});
export type SalesSummary = z.infer<typeof salesSummarySchema>;

/** The labels of payment methods on receipts, the closing and the sales. */
export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  cash: '現金',
  card: 'クレジットカード',
  qr: 'QRコード決済',
  emoney: '電子マネー',
  other: 'その他',
};
