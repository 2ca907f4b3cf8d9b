import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { storeAdminTokens } from '#tests/setup/admin-fixtures';
import type { Checkout, CreateCheckoutRequest } from '#src/shared/schemas/register';
import { CheckoutPage } from './checkout-page';

const NUMBER = '0b6f3c1e-8a7d-4e7b-9a51-3f0d2c9e1a44';
const routes = [
  { path: '/admin/reservations/:reservationNumber/checkout', element: <CheckoutPage /> },
  { path: '/admin/customers/:customerId/checkout', element: <CheckoutPage /> },
];

const DRAFT = {
  reservation_number: NUMBER,
  customer_id: 7,
  staff_id: 2,
  lines: [
    { kind: 'service', ref_id: 1, name: 'ジェルネイル', unit_price: 6600, quantity: 1, tax_rate: 10 },
    { kind: 'nomination', ref_id: null, name: '指名料', unit_price: 550, quantity: 1, tax_rate: 10 },
  ],
};

function serveRegister() {
  storeAdminTokens();
  server.use(
    http.get('/api/admin/reservations/:number/checkout-draft/', () => HttpResponse.json(DRAFT)),
    http.get('/api/admin/customers/7/', () => HttpResponse.json({ id: 7, name: '山田 花子' })),
    http.get('/api/admin/me/', () => HttpResponse.json({ id: 2, role: 'front_desk', is_superuser: false })),
    http.get('/api/admin/settings/', () => HttpResponse.json({ tax_rounding: 'floor', opening_float: 30000 })),
    http.get('/api/admin/products/', () =>
      HttpResponse.json([{ id: 3, name: 'ハーブティー', price: 1080, tax_rate: 8 }]),
    ),
  );
}

/** Every checkout carries the receipt number drawn on the device and its time (offline/checkout-change.ts). */
const deviceDrawn = {
  receipt_number: expect.stringMatching(/^D[A-Z0-9]{6}-\d{8}-\d+$/) as unknown,
  checked_out_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) as unknown,
};

const amountOf = (label: string) => within(screen.getByRole('group', { name: label })).getAllByText(/¥/)[0];

async function typeCash(user: ReturnType<typeof userEvent.setup>, keys: string[]) {
  for (const key of keys) await user.click(screen.getByRole('button', { name: `${key}を入力` }));
}

describe('会計 (checkout screen)', () => {
  it('recomputes 小計, 値引き, 合計 and the tax per rate as lines and discounts are added', async () => {
    serveRegister();
    const user = userEvent.setup();
    renderRoute(`/admin/reservations/${NUMBER}/checkout`, { routes });

    expect(await screen.findByText('山田 花子 様')).toBeInTheDocument();
    await waitFor(() => expect(amountOf('合計')).toHaveTextContent('¥7,150'));
    expect(amountOf('内消費税 10%')).toHaveTextContent('¥650');

    await user.selectOptions(screen.getByRole('combobox', { name: '商品' }), 'ハーブティー ¥1,080');
    await user.click(screen.getByRole('button', { name: '商品を追加' }));
    expect(amountOf('小計')).toHaveTextContent('¥8,230');
    expect(amountOf('内消費税 8%（軽減）')).toHaveTextContent('¥80');

    await user.type(screen.getByRole('textbox', { name: '値引き名' }), '初回割');
    await user.type(screen.getByRole('textbox', { name: '値引き額（円）' }), '1000');
    await user.click(screen.getByRole('button', { name: '値引きを追加' }));
    // 1000 yen shared 869/131 between the rates (the leftover yen on the larger share), tax rounded down per rate.
    expect(amountOf('値引き')).toHaveTextContent('-¥1,000');
    expect(amountOf('合計')).toHaveTextContent('¥7,230');
    expect(amountOf('内消費税 10%')).toHaveTextContent('¥571');
    expect(amountOf('内消費税 8%（軽減）')).toHaveTextContent('¥70');

    fireEvent.change(screen.getByRole('textbox', { name: 'ハーブティーの数量' }), { target: { value: '2' } });
    expect(amountOf('小計')).toHaveTextContent('¥9,310');
  });

  it('splits card and cash, shows the change, and posts the checkout with an Idempotency-Key', async () => {
    serveRegister();
    let sent: { body: CreateCheckoutRequest; key: string | null } | null = null;
    server.use(
      http.post('/api/admin/checkouts/', async ({ request }) => {
        sent = { body: (await request.json()) as CreateCheckoutRequest, key: request.headers.get('idempotency-key') };
        return HttpResponse.json(
          { id: 41, receipt_number: '20300101-000041', total: 7150, cash_received: 3000, change: 850 } as Checkout,
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderRoute(`/admin/reservations/${NUMBER}/checkout`, { routes });
    await waitFor(() => expect(amountOf('合計')).toHaveTextContent('¥7,150'));

    await user.click(screen.getByRole('button', { name: 'クレジットカード' }));
    const card = screen.getByRole('textbox', { name: 'クレジットカードの金額' });
    expect(card).toHaveValue('7,150');
    expect(screen.getByRole('button', { name: /会計する/ })).toBeEnabled();

    await user.clear(card);
    await user.type(card, '5000');
    expect(screen.getByLabelText('現金でのお支払い')).toHaveTextContent('¥2,150');
    expect(screen.getByRole('alert')).toHaveTextContent('お預かり金額を入力してください。');
    expect(screen.getByRole('button', { name: /会計する/ })).toBeDisabled();

    await typeCash(user, ['3', '000']);
    expect(screen.getByLabelText('お預かり金額')).toHaveTextContent('¥3,000');
    expect(amountOf('おつり')).toHaveTextContent('¥850');

    await user.click(screen.getByRole('button', { name: '会計する（¥7,150）' }));
    expect(await screen.findByRole('status')).toHaveTextContent('会計が完了しました');
    expect(within(screen.getByRole('group', { name: 'おつり' })).getByText('¥850')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '領収書を印刷' })).toBeInTheDocument();
    expect(sent!.key).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(sent!.body).toEqual({
      ...deviceDrawn,
      reservation_number: NUMBER,
      lines: DRAFT.lines,
      discounts: [],
      payments: [
        { method: 'card', amount: 5000 },
        { method: 'cash', amount: 2150 },
      ],
      cash_received: 3000,
    });
  });

  it('refuses to check out while the payments do not cover the total', async () => {
    serveRegister();
    const user = userEvent.setup();
    renderRoute(`/admin/reservations/${NUMBER}/checkout`, { routes });
    await waitFor(() => expect(amountOf('合計')).toHaveTextContent('¥7,150'));

    await typeCash(user, ['5', '000']);
    expect(screen.getByRole('alert')).toHaveTextContent('お支払いが合計に足りません。');
    expect(screen.getByRole('button', { name: /会計する/ })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'QRコード決済' }));
    const qr = screen.getByRole('textbox', { name: 'QRコード決済の金額' });
    await user.clear(qr);
    await user.type(qr, '8000');
    expect(screen.getByRole('alert')).toHaveTextContent('現金以外のお支払いが合計を超えています。');
    expect(screen.getByRole('button', { name: /会計する/ })).toBeDisabled();

    await user.clear(qr);
    await user.type(qr, '2150');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(amountOf('おつり')).toHaveTextContent('¥0');
    expect(screen.getByRole('button', { name: /会計する/ })).toBeEnabled();
  });

  it('prints the receipt fetched with the staff token, with 但し書き and 宛名', async () => {
    serveRegister();
    let asked: { url: URL; authorization: string | null } | null = null;
    server.use(
      http.post('/api/admin/checkouts/', () =>
        HttpResponse.json({ id: 41, receipt_number: 'R', total: 7150, cash_received: 0, change: 0 } as Checkout, {
          status: 201,
        }),
      ),
      http.get('/api/admin/checkouts/41/receipt/', ({ request }) => {
        asked = { url: new URL(request.url), authorization: request.headers.get('authorization') };
        return new HttpResponse('<html><body>領収書</body></html>', { headers: { 'content-type': 'text/html' } });
      }),
    );
    const opened = {
      document: { title: '', open: vi.fn(), write: vi.fn(), close: vi.fn() },
      focus: vi.fn(),
      print: vi.fn(),
      close: vi.fn(),
    };
    const open = vi.spyOn(window, 'open').mockReturnValue(opened as unknown as Window);
    const user = userEvent.setup();
    renderRoute(`/admin/reservations/${NUMBER}/checkout`, { routes });
    await waitFor(() => expect(amountOf('合計')).toHaveTextContent('¥7,150'));
    await user.click(screen.getByRole('button', { name: 'クレジットカード' }));
    await user.click(screen.getByRole('button', { name: /会計する/ }));

    await user.type(await screen.findByRole('textbox', { name: '但し書き' }), 'ネイル代として');
    await user.click(screen.getByRole('checkbox', { name: '宛名（お客様のお名前）を入れる' }));
    await user.click(screen.getByRole('button', { name: '領収書を印刷' }));
    await waitFor(() => expect(opened.print).toHaveBeenCalled());
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(opened.document.write).toHaveBeenCalledWith('<html><body>領収書</body></html>');
    expect(asked!.authorization).toBe('Bearer admin-access-token');
    expect(asked!.url.searchParams.get('proviso')).toBe('ネイル代として');
    expect(asked!.url.searchParams.get('name')).toBe('1');
    open.mockRestore();
  });

  it('checks out a customer without a booking (物販) and says why the server refused', async () => {
    serveRegister();
    let sent: CreateCheckoutRequest | null = null;
    server.use(
      http.post('/api/admin/checkouts/', async ({ request }) => {
        sent = (await request.json()) as CreateCheckoutRequest;
        return HttpResponse.json({ detail: 'この日のレジは締められています。', code: 'day_closed' }, { status: 409 });
      }),
    );
    const user = userEvent.setup();
    renderRoute('/admin/customers/7/checkout', { routes });

    expect(await screen.findByText('山田 花子 様')).toBeInTheDocument();
    expect(screen.getByText('明細がありません。商品または項目を追加してください。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /会計する/ })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: '項目名' }), 'パーツ');
    await user.type(screen.getByRole('textbox', { name: '金額（税込）' }), '330');
    await user.click(screen.getByRole('button', { name: '項目を追加' }));
    await user.click(screen.getByRole('button', { name: 'ちょうど' }));
    await user.click(screen.getByRole('button', { name: '会計する（¥330）' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('この日のレジは締められています。');
    expect(sent).toEqual({
      ...deviceDrawn,
      customer_id: 7,
      lines: [{ kind: 'custom', name: 'パーツ', unit_price: 330, quantity: 1, tax_rate: 10 }],
      discounts: [],
      payments: [{ method: 'cash', amount: 330 }],
      cash_received: 330,
    });
  });
});
