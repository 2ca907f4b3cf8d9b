/**
 * GET /api/admin/checkouts.csv: one row per register record of the period (a checkout, a void, a refund), which is
 * what an accountant books: each row is one journal entry with its totals and tax per rate and its payments by
 * method. Voids and refunds are negative rows on the day they count, so every column adds up to the takings.
 * UTF-8 with a BOM (Excel opens it as UTF-8).
 */
import type { PaymentMethod, TaxByRate } from '#src/shared/money/types';
import { instantToLocalDateTime } from '#src/shared/time';
import type { CheckoutWithNames, CorrectionWithCheckout } from './checkouts.repository';
import { givenBackByMethod } from './takings';

const HEADER = [
  '日付',
  '時刻',
  '区分',
  'レシート番号',
  '元のレシート番号',
  'お客様',
  '担当',
  '小計',
  '値引き',
  '合計',
  '10%対象額',
  '10%消費税',
  '8%対象額',
  '8%消費税',
  '現金',
  'クレジットカード',
  'QRコード決済',
  '電子マネー',
  'その他',
  '理由',
];
const METHODS: PaymentMethod[] = ['cash', 'card', 'qr', 'emoney', 'other'];
const KIND_LABELS = { sale: '売上', void: '取消', refund: '返金' } as const;

/**
 * One CSV field: quoted when it holds a comma, quote or line break; text that a spreadsheet would read as a
 * formula (= + - @ and tab or CR first) is prefixed with ' so that opening the file never runs anything.
 */
function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function rateColumns(taxByRate: readonly TaxByRate[], sign: number): number[] {
  const of = (rate: number) => taxByRate.find((entry) => entry.rate === rate);
  return [10, 8].flatMap((rate) => [sign * (of(rate)?.taxable_total ?? 0), sign * (of(rate)?.tax ?? 0)]);
}

function methodColumns(amounts: ReadonlyArray<{ method: PaymentMethod; amount: number }>, sign: number): number[] {
  return METHODS.map(
    (method) => sign * amounts.filter((a) => a.method === method).reduce((sum, a) => sum + a.amount, 0),
  );
}

export function checkoutsCsv(
  checkouts: readonly CheckoutWithNames[],
  corrections: readonly CorrectionWithCheckout[],
  staffNames: ReadonlyMap<number, string>,
  timeZone: string,
): string {
  const rows: Array<{ sortKey: string; fields: Array<string | number> }> = [];
  for (const c of checkouts) {
    const local = instantToLocalDateTime(c.checked_out_at, timeZone);
    rows.push({
      sortKey: `${c.business_date}${local}`,
      fields: [
        ...[c.business_date, local.slice(11, 16), KIND_LABELS.sale, c.receipt_number, '', c.customer_name],
        ...[c.staff_name, c.subtotal, c.discount_total, c.total, ...rateColumns(c.tax_by_rate, 1)],
        ...[...methodColumns(c.payments, 1), ''],
      ],
    });
  }
  for (const r of corrections) {
    const local = instantToLocalDateTime(r.created_at, timeZone);
    const staff = staffNames.get(r.checkout_staff_id) ?? '';
    const gross = r.lines.reduce((sum, line) => sum + line.amount, 0);
    rows.push({
      sortKey: `${r.business_date}${local}`,
      fields: [
        ...[r.business_date, local.slice(11, 16), KIND_LABELS[r.kind], '', r.checkout_receipt_number, ''],
        ...[staff, -gross, -(gross - r.amount), -r.amount, ...rateColumns(r.tax_by_rate, -1)],
        ...[...methodColumns(givenBackByMethod(r), -1), r.reason],
      ],
    });
  }
  rows.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  const lines = [HEADER, ...rows.map((row) => row.fields)].map((fields) => fields.map(csvField).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
