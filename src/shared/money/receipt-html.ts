/**
 * The printable receipt (GET /api/admin/checkouts/{id}/receipt/): a 適格簡易請求書 — the salon's name and 登録番号,
 * the date, each line (reduced-rate lines marked ※, with the legend), and per tax rate the total and the tax it
 * contains. One HTML page with its styles and no script (the app's CSP allows no inline script); every value is
 * escaped. Paper: 80 mm thermal rolls by default, A4 with `paper=a4`. Shared: the browser writes the same page for a
 * checkout recorded offline (src/features/register/components/receipt-print.tsx), so the printed receipt is the one
 * the server would give.
 */
import { formatDateTimeJa } from '../format';
import { REDUCED_TAX_RATE } from './types';
import { PAYMENT_METHOD_LABELS, type Checkout } from '../schemas/register';

interface ReceiptSalon {
  name: string;
  invoice_registration_number: string;
  address: string;
  phone_number: string;
}

interface ReceiptPageOptions {
  /** 但し書き (e.g. 「ネイル施術代として」). */
  proviso?: string;
  /** Print the customer's name (宛名). */
  withName: boolean;
  paper: '80mm' | 'a4';
}

const escapeHtml = (text: string | number) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const yen = (amount: number) => `¥${amount.toLocaleString('ja-JP')}`;

const STYLES = `
body{font-family:"Hiragino Kaku Gothic ProN","Noto Sans JP",sans-serif;color:#000;margin:0}
.receipt{max-width:72mm;margin:0 auto;padding:4mm 0;font-size:12px;line-height:1.5}
.a4 .receipt{max-width:170mm;font-size:14px}
h1{font-size:1.5em;text-align:center;margin:0 0 .5em;letter-spacing:.3em}
.addressee{font-size:1.2em;border-bottom:1px solid #000;margin:0 0 .5em}
.void{border:2px solid #000;text-align:center;font-weight:bold;padding:.2em;margin:.5em 0}
table{width:100%;border-collapse:collapse}
td{padding:.1em 0;vertical-align:top}
td.amount{text-align:right;white-space:nowrap}
.lines{border-top:1px dashed #000;border-bottom:1px dashed #000;margin:.5em 0}
.total td{font-size:1.3em;font-weight:bold;border-top:1px solid #000}
.seller,.meta,.legend,.proviso{margin:.3em 0}
.legend{font-size:.9em}
@media print{body{-webkit-print-color-adjust:exact;print-color-adjust:exact}.receipt{padding:0}}
`;

const PAGE_RULES = {
  '80mm': '@page{size:80mm auto;margin:3mm}',
  a4: '@page{size:A4;margin:15mm}',
} as const;

function row(label: string, amount: string, className = ''): string {
  const cls = className ? ` class="${className}"` : '';
  return `<tr${cls}><td>${label}</td><td class="amount">${amount}</td></tr>`;
}

function lineRows(checkout: Checkout): string {
  return checkout.lines
    .map((line) => {
      const mark = line.tax_rate === REDUCED_TAX_RATE ? '※' : '';
      const quantity = line.quantity > 1 ? `<br>\u3000${escapeHtml(yen(line.unit_price))} × ${line.quantity}` : '';
      return row(`${escapeHtml(line.name)}${mark}${quantity}`, escapeHtml(yen(line.unit_price * line.quantity)));
    })
    .join('');
}

function taxRows(checkout: Checkout): string {
  return checkout.tax_by_rate
    .map((entry) => {
      const mark = entry.rate === REDUCED_TAX_RATE ? '※' : '';
      return (
        row(`${entry.rate}%対象${mark}`, escapeHtml(yen(entry.taxable_total))) +
        row(`（内消費税等 ${entry.rate}%）`, escapeHtml(yen(entry.tax)))
      );
    })
    .join('');
}

function paymentRows(checkout: Checkout): string {
  const paid = checkout.payments
    .filter((payment) => payment.method !== 'cash')
    .map((payment) => row(escapeHtml(PAYMENT_METHOD_LABELS[payment.method]), escapeHtml(yen(payment.amount))));
  const cash =
    checkout.cash_received > 0
      ? [
          row('お預かり（現金）', escapeHtml(yen(checkout.cash_received))),
          row('お釣り', escapeHtml(yen(checkout.change))),
        ]
      : [];
  return [...paid, ...cash].join('');
}

/** 但し書き as 「但し … として」, whether or not the staff typed the として themselves (the field suggests it). */
const provisoText = (proviso: string) => escapeHtml(/として$/.test(proviso) ? proviso : `${proviso} として`);

export function receiptHtml(checkout: Checkout, salon: ReceiptSalon, options: ReceiptPageOptions): string {
  const reduced = checkout.lines.some((line) => line.tax_rate === REDUCED_TAX_RATE);
  const addressee =
    options.withName && checkout.customer_name
      ? `<p class="addressee">${escapeHtml(checkout.customer_name)} 様</p>`
      : '';
  const discounts = checkout.discounts
    .map((discount) => row(escapeHtml(discount.name), escapeHtml(`-${yen(discount.amount)}`)))
    .join('');
  const registration = salon.invoice_registration_number
    ? `<br>登録番号 ${escapeHtml(salon.invoice_registration_number)}`
    : '';
  const contact = [salon.address, salon.phone_number].filter(Boolean).map(escapeHtml).join('<br>');
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>領収書 ${escapeHtml(checkout.receipt_number)}</title>
<style>${STYLES}${PAGE_RULES[options.paper]}</style></head>
<body class="${options.paper === 'a4' ? 'a4' : 'roll'}"><main class="receipt">
<h1>領収書</h1>
${checkout.status === 'voided' ? '<p class="void">この会計は取り消されました</p>' : ''}
${addressee}
<p class="seller"><strong>${escapeHtml(salon.name)}</strong>${registration}${contact ? `<br>${contact}` : ''}</p>
<p class="meta">${escapeHtml(formatDateTimeJa(checkout.checked_out_at))}<br>No. ${escapeHtml(checkout.receipt_number)}</p>
<table class="lines">${lineRows(checkout)}</table>
<table>${row('小計', escapeHtml(yen(checkout.subtotal)))}${discounts}
${row('合計', escapeHtml(yen(checkout.total)), 'total')}
${taxRows(checkout)}${paymentRows(checkout)}</table>
${options.proviso ? `<p class="proviso">但し ${provisoText(options.proviso)}</p>` : ''}
${reduced ? '<p class="legend">※は軽減税率（8%）対象です。</p>' : ''}
</main></body></html>
`;
}
