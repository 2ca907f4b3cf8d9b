import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { storeAdminTokens } from '#tests/setup/admin-fixtures';
import '#src/app/offline/staff-changes';
import { db } from '#src/lib/db';
import { reloadOutbox, resetOutboxForTests } from '#src/lib/outbox';
import { CheckoutPage } from './checkout-page';

/**
 * A checkout without a connection (docs/architecture.md#register-会計): kept in the outbox with the receipt number
 * drawn on the device, shown 未送信, its receipt printed from the device, and nothing sent until the connection
 * is back.
 */

let online = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });

const routes = [{ path: '/admin/customers/:customerId/checkout', element: <CheckoutPage /> }];

beforeEach(async () => {
  online = true;
  resetOutboxForTests();
  await db.outbox.clear();
  storeAdminTokens();
});
afterEach(() => {
  online = true;
});

describe('会計 offline', () => {
  it('keeps the checkout on the device, shows it 未送信 and prints its receipt with the device’s number', async () => {
    const posted: unknown[] = [];
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json({ id: 7, name: '山田 花子' })),
      http.get('/api/admin/me/', () => HttpResponse.json({ id: 2, role: 'front_desk', is_superuser: false })),
      http.get('/api/admin/settings/', () =>
        HttpResponse.json({
          salon_name: 'ネイルサロン テスト',
          invoice_registration_number: 'T1234567890123',
          address: '',
          phone_number: '',
          tax_rounding: 'floor',
          opening_float: 0,
        }),
      ),
      http.get('/api/admin/products/', () => HttpResponse.json([])),
      http.post('/api/admin/checkouts/', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const opened = {
      document: { title: '', open: vi.fn(), write: vi.fn(), close: vi.fn() },
      focus: vi.fn(),
      print: vi.fn(),
      close: vi.fn(),
    };
    const open = vi.spyOn(window, 'open').mockReturnValue(opened as unknown as Window);
    await reloadOutbox();
    const user = userEvent.setup();
    renderRoute('/admin/customers/7/checkout', { routes });
    expect(await screen.findByText('山田 花子 様')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: '項目名' })).toBeInTheDocument());
    await user.type(screen.getByRole('textbox', { name: '項目名' }), 'パーツ');
    await user.type(screen.getByRole('textbox', { name: '金額（税込）' }), '330');
    await user.click(screen.getByRole('button', { name: '項目を追加' }));
    await user.click(screen.getByRole('button', { name: 'ちょうど' }));

    online = false;
    await user.click(screen.getByRole('button', { name: '会計する（¥330）' }));
    expect(await screen.findByRole('status')).toHaveTextContent('会計が完了しました');
    expect(screen.getByText('未送信')).toBeInTheDocument();
    const number = /領収書番号 (\S+)/.exec(screen.getByText(/^領収書番号/).textContent ?? '')![1]!;
    expect(number).toMatch(/^D[A-Z0-9]{6}-\d{8}-1$/);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'register-checkout', state: 'pending', path: '/api/admin/checkouts/' });
    expect(entry!.body).toMatchObject({
      customer_id: 7,
      receipt_number: number,
      payments: [{ method: 'cash', amount: 330 }],
    });

    await user.type(screen.getByRole('textbox', { name: '但し書き' }), 'ネイル代として');
    await user.click(screen.getByRole('button', { name: '領収書を印刷' }));
    await waitFor(() => expect(opened.print).toHaveBeenCalled());
    const html = String(opened.document.write.mock.calls[0]![0]);
    expect(html).toContain(`No. ${number}`);
    expect(html).toContain('登録番号 T1234567890123');
    // The 但し書き as typed, without a second として.
    expect(html).toContain('但し ネイル代として</p>');
    expect(posted).toEqual([]);
    open.mockRestore();
  });
});
