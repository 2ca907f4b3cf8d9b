import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { storeAdminTokens } from '#tests/setup/admin-fixtures';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import { ReceiptSendButtons } from './receipt-send';

let online = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
afterEach(() => {
  online = true;
});

function serveCustomer(customer: Record<string, unknown>) {
  storeAdminTokens();
  server.use(http.get('/api/admin/customers/7/', () => HttpResponse.json({ id: 7, name: '山田 花子', ...customer })));
}

describe('領収書の送信 (checkout result)', () => {
  it('sends by e-mail at once and says so; LINE is disabled for a customer not linked to it', async () => {
    serveCustomer({ email: 'hanako@example.jp', is_line_linked: false });
    let sent: unknown = null;
    server.use(
      http.post('/api/admin/checkouts/41/send-receipt/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ channel: 'email', to: 'hanako@example.jp' }, { status: 202 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReceiptSendButtons checkout={{ id: 41, customer_id: 7 }} />);

    await waitFor(() => expect(screen.getByRole('button', { name: 'LINEで送る' })).toBeDisabled());
    await user.click(screen.getByRole('button', { name: 'メールで送る' }));
    expect(await screen.findByRole('status')).toHaveTextContent(REGISTER_MESSAGES.receiptSent);
    expect(sent).toEqual({ channel: 'email' });
  });

  it('offers both when the customer cannot be read here, and shows the server’s refusal', async () => {
    storeAdminTokens();
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json({ detail: '見つかりません。' }, { status: 404 })),
      http.post('/api/admin/checkouts/41/send-receipt/', () =>
        HttpResponse.json({ detail: REGISTER_MESSAGES.receiptNoLine, code: 'not_line_linked' }, { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReceiptSendButtons checkout={{ id: 41, customer_id: 7 }} />);

    expect(screen.getByRole('button', { name: 'メールで送る' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'LINEで送る' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REGISTER_MESSAGES.receiptNoLine);
  });

  it('is disabled offline, with the reason', async () => {
    online = false;
    serveCustomer({ email: 'hanako@example.jp', is_line_linked: true });
    renderWithProviders(<ReceiptSendButtons checkout={{ id: 41, customer_id: 7 }} />);
    expect(await screen.findByText(/オフラインのため領収書の送信はできません/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'メールで送る' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'LINEで送る' })).toBeDisabled();
  });

  it('shows nothing for a checkout without a customer', () => {
    storeAdminTokens();
    renderWithProviders(<ReceiptSendButtons checkout={{ id: 41, customer_id: null }} />);
    expect(screen.queryByRole('button', { name: 'メールで送る' })).not.toBeInTheDocument();
  });
});
