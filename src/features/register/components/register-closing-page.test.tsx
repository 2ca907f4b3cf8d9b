import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { fixDeviceClock, storeAdminTokens } from '#tests/setup/admin-fixtures';
import type { Checkout, Closing, Correction } from '#src/shared/schemas/register';
import { RegisterClosingPage } from './register-closing-page';

const routes = [{ path: '/admin/register', element: <RegisterClosingPage /> }];
const DAY = '2030-01-10';

function checkout(id: number, overrides: Partial<Checkout>): Checkout {
  return {
    id,
    receipt_number: `20300110-00000${id}`,
    receipt_number_from_client: false,
    checked_out_at: `${DAY}T1${id}:00:00`,
    business_date: DAY,
    reservation_number: null,
    customer_id: 7,
    customer_name: '山田 花子',
    staff_id: 2,
    staff_name: '佐藤',
    created_by_staff_id: 2,
    lines: [],
    discounts: [],
    subtotal: 0,
    discount_total: 0,
    total: 0,
    tax_by_rate: [],
    payments: [],
    cash_received: 0,
    change: 0,
    status: 'completed',
    corrections: [],
    ...overrides,
  };
}

const voided = { kind: 'void', business_date: DAY, amount: 3300, cash_refunded: 3300, method: 'cash' } as Correction;
const CHECKOUTS = [
  checkout(1, {
    total: 7150,
    payments: [
      { method: 'card', amount: 5000 },
      { method: 'cash', amount: 2150 },
    ],
    cash_received: 3000,
    change: 850,
  }),
  checkout(2, {
    total: 3300,
    payments: [{ method: 'cash', amount: 3300 }],
    cash_received: 5000,
    change: 1700,
    status: 'voided',
    corrections: [voided],
  }),
  checkout(3, { total: 2000, payments: [{ method: 'qr', amount: 2000 }] }),
];

function serveDay() {
  storeAdminTokens();
  const closings: Closing[] = [];
  const posted: unknown[] = [];
  server.use(
    http.get('/api/admin/checkouts/', () => HttpResponse.json(CHECKOUTS)),
    http.get('/api/admin/settings/', () => HttpResponse.json({ tax_rounding: 'floor', opening_float: 30000 })),
    http.get('/api/admin/register-closings/', () => HttpResponse.json(closings)),
    http.post('/api/admin/register-closings/', async ({ request }) => {
      const body = (await request.json()) as { date: string; counted_cash: number; memo: string };
      posted.push(body);
      const closing = {
        date: body.date,
        opening_float: 30000,
        cash_received: 8000,
        change_given: 2550,
        cash_refunded: 3300,
        expected_cash: 32150,
        counted_cash: body.counted_cash,
        difference: body.counted_cash - 32150,
        totals_by_method: { cash: 2150, card: 5000, qr: 2000, emoney: 0, other: 0 },
        memo: body.memo,
        staff_id: 1,
        closed_at: `${DAY}T20:00:00`,
      };
      closings.push(closing);
      return HttpResponse.json(closing, { status: 201 });
    }),
  );
  return posted;
}

const valueOf = (label: string) =>
  within(screen.getAllByRole('group', { name: label })[0]!)
    .getAllByText(/¥|過|—/)
    .at(-1);

describe('レジ締め', () => {
  fixDeviceClock();

  it('shows the expected cash, the difference of the count, and closes the day after a confirmation', async () => {
    const posted = serveDay();
    const user = userEvent.setup();
    renderRoute('/admin/register', { routes });

    // 30,000 float + 8,000 cash received − 2,550 change − 3,300 given back by the void.
    await waitFor(() => expect(valueOf('予想現金')).toHaveTextContent('¥32,150'));
    const methods = screen.getByRole('table', { name: '支払方法別の合計' });
    expect(within(methods).getByRole('row', { name: '現金 ¥2,150' })).toBeInTheDocument();
    expect(within(methods).getByRole('row', { name: 'クレジットカード ¥5,000' })).toBeInTheDocument();
    expect(within(methods).getByRole('row', { name: 'QRコード決済 ¥2,000' })).toBeInTheDocument();

    expect(valueOf('過不足')).toHaveTextContent('—');
    expect(screen.getByRole('button', { name: '締める' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: '10,000円の枚数' }), '3');
    await user.type(screen.getByRole('textbox', { name: '1,000円の枚数' }), '2');
    await user.type(screen.getByRole('textbox', { name: '100円の枚数' }), '1');
    expect(valueOf('過不足')).toHaveTextContent('¥50 不足');
    await user.type(screen.getByRole('textbox', { name: '50円の枚数' }), '1');
    expect(valueOf('過不足')).toHaveTextContent('過不足なし');

    await user.click(screen.getByRole('radio', { name: '合計を入力' }));
    await user.type(screen.getByRole('textbox', { name: '数えた現金（合計）' }), '32200');
    expect(valueOf('過不足')).toHaveTextContent('¥50 過剰');
    await user.type(screen.getByRole('textbox', { name: 'メモ' }), '50円玉が1枚多い');

    await user.click(screen.getByRole('button', { name: '締める' }));
    const dialog = await screen.findByRole('dialog');
    expect(posted).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: '締める' }));
    expect(await screen.findByRole('heading', { name: /締め済み/ })).toBeInTheDocument();
    expect(posted).toEqual([{ date: DAY, counted_cash: 32200, memo: '50円玉が1枚多い' }]);
    const history = screen.getByRole('table', { name: 'これまでのレジ締め' });
    expect(within(history).getByRole('row', { name: /2030\/01\/10 ¥32,150 ¥32,200 ¥50 過剰/ })).toBeInTheDocument();
  });

  it('voids a checkout of the day with a reason', async () => {
    serveDay();
    let sent: unknown = null;
    server.use(
      http.post('/api/admin/checkouts/1/void/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 9 }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/admin/register', { routes });

    expect(screen.queryByRole('button', { name: '20300110-000002を取消' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: '20300110-000001を取消' }));
    const dialog = await screen.findByRole('dialog', { name: '会計の取消' });
    const confirm = within(dialog).getByRole('button', { name: '取消する' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /理由/ }), '打ち間違い');
    await user.click(confirm);
    await waitFor(() => expect(sent).toEqual({ reason: '打ち間違い' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
