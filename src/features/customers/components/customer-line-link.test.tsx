import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { clearNotifications, staffProfile, storeAdminTokens, superuserProfile } from '#tests/setup/admin-fixtures';
import { customerFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AdminProfile } from '#src/shared/schemas/auth';
import { CustomerDetailPage } from './customer-detail-page';

const routes = [{ path: '/admin/customers/:customerId', element: <CustomerDetailPage /> }];
const UNLINKED = customerFixture({ phone_number: '' });
const LINKED = customerFixture({ is_line_linked: true, line_user_id: 'U1', line_display_name: 'はなこ' });

/** The customer page seen by `viewer`; DELETE …/line-link/ answers 204 and the customer is 未連携 from then on. */
function serve(viewer: AdminProfile, customer = LINKED) {
  storeAdminTokens();
  let current = customer;
  const deletes: Request[] = [];
  server.use(
    http.get('/api/admin/me/', () => HttpResponse.json(viewer)),
    http.get('/api/admin/customers/7/', () => HttpResponse.json(current)),
    http.get('/api/admin/customers/7/reservations/', () => HttpResponse.json([])),
    http.get('/api/admin/customers/7/visits/', () => HttpResponse.json([])),
    http.delete('/api/admin/customers/7/line-link/', ({ request }) => {
      deletes.push(request);
      current = UNLINKED;
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return deletes;
}

afterEach(() => clearNotifications());

describe('a customer’s LINE link on the customer page', () => {
  it('ordinary staff neither make a link URL nor remove a link', async () => {
    serve(staffProfile, UNLINKED);
    renderRoute('/admin/customers/7', { routes });
    expect(await screen.findByText('未連携')).toBeInTheDocument();
    await screen.findByRole('button', { name: '予約作成' });
    expect(screen.queryByRole('button', { name: 'LINE連携URL生成' })).not.toBeInTheDocument();

    serve(staffProfile, LINKED);
    renderRoute('/admin/customers/7', { routes });
    expect(await screen.findByText('連携済み（はなこ）')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LINE連携を解除' })).not.toBeInTheDocument();
  });

  it('a superuser removes the link after confirming; cancelling sends nothing', async () => {
    const deletes = serve(superuserProfile);
    renderRoute('/admin/customers/7', { routes });
    const unlink = await screen.findByRole('button', { name: 'LINE連携を解除' });

    await userEvent.click(unlink);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.customerLineUnlinkQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'LINE連携を解除' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '解除する' }));
    expect(await screen.findByText(MESSAGES.customerLineUnlinked)).toBeInTheDocument();
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.headers.get('authorization')).toMatch(/^Bearer /);
    // The customer is read again: 未連携, and the link URL can be made anew.
    expect(await screen.findByText('未連携')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'LINE連携URL生成' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LINE連携を解除' })).not.toBeInTheDocument();
  });

  it('says why when the removal is refused', async () => {
    serve(superuserProfile);
    server.use(
      http.delete('/api/admin/customers/7/line-link/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.customerNotLinked, code: 'not_linked' }, { status: 409 }),
      ),
    );
    renderRoute('/admin/customers/7', { routes });
    await userEvent.click(await screen.findByRole('button', { name: 'LINE連携を解除' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '解除する' }));
    expect(await screen.findByText(SERVER_MESSAGES.customerNotLinked)).toBeInTheDocument();
  });
});
