import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { storeAdminTokens } from '#tests/setup/admin-fixtures';
import type { Checkout } from '#src/shared/schemas/register';
import { CorrectionDialog } from './correction-dialog';

/** A receipt of a gel (6,600) and two teas (1,080 each, 8%) with 1,000 off; one tea already refunded. */
const CHECKOUT = {
  id: 41,
  receipt_number: '20300110-000041',
  lines: [
    { kind: 'service', ref_id: 1, name: 'ジェルネイル', unit_price: 6600, quantity: 1, tax_rate: 10 },
    { kind: 'product', ref_id: 3, name: 'ハーブティー', unit_price: 1080, quantity: 2, tax_rate: 8 },
  ],
  subtotal: 8760,
  discount_total: 1000,
  total: 7760,
  tax_by_rate: [
    { rate: 10, taxable_total: 5847, tax: 531 },
    { rate: 8, taxable_total: 1913, tax: 141 },
  ],
  corrections: [
    {
      kind: 'refund',
      amount: 956,
      lines: [{ line_index: 1, quantity: 1, amount: 1080 }],
      tax_by_rate: [{ rate: 8, taxable_total: 956, tax: 70 }],
    },
  ],
} as unknown as Checkout;

describe('返金 by line (correction dialog)', () => {
  it('refunds the chosen quantity of a line, showing what goes back, and only what is left', async () => {
    storeAdminTokens();
    let sent: unknown = null;
    server.use(
      http.post('/api/admin/checkouts/41/refund/', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 1 }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<CorrectionDialog checkout={CHECKOUT} kind="refund" onClose={() => {}} />);

    const lines = await screen.findByRole('table', { name: '返金する明細' });
    expect(within(lines).getByRole('row', { name: /ハーブティー ¥1,080 1/ })).toBeInTheDocument();
    expect(screen.getByLabelText('返金額')).toHaveTextContent('（残りすべて）');
    fireEvent.change(screen.getByRole('textbox', { name: 'ハーブティーの返金数' }), { target: { value: '1' } });
    // The tea's price less its share of the discount (src/shared/money/refund.ts), as the server will record it.
    await waitFor(() => expect(screen.getByLabelText('返金額')).toHaveTextContent('返金額 ¥956'));
    await user.type(screen.getByRole('textbox', { name: '理由' }), '未開封');
    await user.click(screen.getByRole('button', { name: '返金する' }));
    await waitFor(() => expect(sent).toEqual({ reason: '未開封', lines: [{ line_index: 1, quantity: 1 }] }));
  });
});
