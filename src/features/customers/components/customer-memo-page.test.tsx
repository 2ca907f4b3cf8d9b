import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { clearNotifications, recordRequests } from '#tests/setup/admin-fixtures';
import { customerFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { CustomerMemoPage } from './customer-memo-page';

const routes = [{ path: '/admin/customers/:customerId/memo', element: <CustomerMemoPage /> }];

afterEach(() => clearNotifications());

describe('customer memo screen', () => {
  it('shows the current memo in a 15-row text area and saves it with PATCH notes', async () => {
    const requests = recordRequests();
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json(customerFixture({ notes: 'ジェル希望' }))),
      http.patch('/api/admin/customers/7/', async ({ request }) => {
        const body = (await request.json()) as { notes: string };
        return HttpResponse.json(customerFixture({ notes: body.notes }));
      }),
    );
    renderRoute('/admin/customers/7/memo', { routes });

    expect(await screen.findByRole('heading', { level: 1, name: '山田 花子様のメモ' })).toBeInTheDocument();
    const memo = screen.getByLabelText('メモ');
    expect(memo).toHaveAttribute('rows', '15');
    expect(memo).toHaveAttribute('placeholder');
    expect(memo).toHaveValue('ジェル希望');
    await userEvent.type(memo, '、爪が薄い');
    await userEvent.click(screen.getByRole('button', { name: '保存する' }));

    expect(await screen.findByText(MESSAGES.adminMemoSaved)).toBeInTheDocument();
    const patch = requests.find((r) => r.method === 'PATCH')!;
    expect(await patch.json()).toEqual({ notes: 'ジェル希望、爪が薄い' });
  });

  it('says メモの保存に失敗しました。 when saving fails', async () => {
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json(customerFixture())),
      http.patch('/api/admin/customers/7/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })),
    );
    renderRoute('/admin/customers/7/memo', { routes });
    await userEvent.click(await screen.findByRole('button', { name: '保存する' }));
    expect(await screen.findByText(MESSAGES.adminMemoSaveFailed)).toBeInTheDocument();
  });

  it('says the customer was not found', async () => {
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json({ detail: 'x', code: 'not_found' }, { status: 404 })),
    );
    renderRoute('/admin/customers/7/memo', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.customerNotFound);
  });
});
