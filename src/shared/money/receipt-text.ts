/**
 * The receipt as plain text, for sending it to the customer by e-mail or LINE (POST
 * /api/admin/checkouts/{id}/send-receipt/): the same 適格簡易請求書 fields as the printed page (receipt-html.ts) —
 * the salon's name and 登録番号, the date, each line (reduced-rate lines marked ※, with the legend), per tax rate the
 * total and the tax it contains, payments and change, and the receipt number.
 */
import { formatDateTimeJa } from '../format';
import { REDUCED_TAX_RATE } from './types';
import { PAYMENT_METHOD_LABELS, type Checkout } from '../schemas/register';

interface ReceiptTextSalon {
  name: string;
  invoice_registration_number: string;
  address: string;
  phone_number: string;
}

const yen = (amount: number) => `¥${amount.toLocaleString('ja-JP')}`;
// A full-width space between label and amount: plain text has no columns, and it reads as one in Japanese.
const entry = (label: string, amount: string) => `${label}\u3000${amount}`;

function lineEntries(checkout: Checkout): string[] {
  return checkout.lines.map((line) => {
    const mark = line.tax_rate === REDUCED_TAX_RATE ? '※' : '';
    const quantity = line.quantity > 1 ? `（${yen(line.unit_price)} × ${line.quantity}）` : '';
    return entry(`${line.name}${mark}${quantity}`, yen(line.unit_price * line.quantity));
  });
}

function taxEntries(checkout: Checkout): string[] {
  return checkout.tax_by_rate.flatMap((rate) => {
    const mark = rate.rate === REDUCED_TAX_RATE ? '※' : '';
    return [
      entry(`${rate.rate}%対象${mark}`, yen(rate.taxable_total)),
      entry(`（内消費税等 ${rate.rate}%）`, yen(rate.tax)),
    ];
  });
}

function paymentEntries(checkout: Checkout): string[] {
  const paid = checkout.payments
    .filter((payment) => payment.method !== 'cash')
    .map((payment) => entry(PAYMENT_METHOD_LABELS[payment.method], yen(payment.amount)));
  const cash =
    checkout.cash_received > 0
      ? [entry('お預かり（現金）', yen(checkout.cash_received)), entry('お釣り', yen(checkout.change))]
      : [];
  return [...paid, ...cash];
}

export function receiptText(checkout: Checkout, salon: ReceiptTextSalon): string {
  const reduced = checkout.lines.some((line) => line.tax_rate === REDUCED_TAX_RATE);
  const rule = '--------------------';
  return [
    '領収書',
    ...(checkout.status === 'voided' ? ['（この会計は取り消されました）'] : []),
    ...(checkout.customer_name ? [`${checkout.customer_name} 様`] : []),
    '',
    salon.name,
    ...(salon.invoice_registration_number ? [`登録番号 ${salon.invoice_registration_number}`] : []),
    ...[salon.address, salon.phone_number].filter(Boolean),
    formatDateTimeJa(checkout.checked_out_at),
    `No. ${checkout.receipt_number}`,
    rule,
    ...lineEntries(checkout),
    rule,
    entry('小計', yen(checkout.subtotal)),
    ...checkout.discounts.map((discount) => entry(discount.name, `-${yen(discount.amount)}`)),
    entry('合計', yen(checkout.total)),
    ...taxEntries(checkout),
    ...paymentEntries(checkout),
    ...(reduced ? ['', '※は軽減税率（8%）対象です。'] : []),
  ].join('\n');
}
