import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { clearNotifications, recordRequests, setDesktop } from '#tests/setup/admin-fixtures';
import { customerFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { CustomerListPage } from './customer-list-page';

const routes = [
  { path: '/admin/customers', element: <CustomerListPage /> },
  { path: '/admin/customers/:customerId', element: <p>customer detail</p> },
];

const CUSTOMERS = [
  customerFixture({ id: 1, name: '未連携 さん', email: '', phone_number: '' }),
  customerFixture({ id: 2, name: '名前なし さん', is_line_linked: true, line_user_id: 'U2', line_display_name: '' }),
  customerFixture({
    id: 3,
    name: '連携 さん',
    is_line_linked: true,
    line_user_id: 'U3',
    line_display_name: 'はなこ',
    line_picture_url: 'https://example.com/p.png',
  }),
];

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

afterEach(() => clearNotifications());

describe('customer list (顧客管理)', () => {
  it('shows loading, then cards with the LINE name rules and N/A for empty contact fields', async () => {
    server.use(http.get('/api/admin/customers/', () => HttpResponse.json(CUSTOMERS)));
    renderRoute('/admin/customers', { routes });

    expect(screen.getByRole('heading', { level: 1, name: '顧客管理' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('読み込み中');
    const first = (await screen.findByText('未連携 さん')).closest('a')!;
    expect(within(first).getByText('N/A')).toBeInTheDocument();
    expect(within(first).getByText('メール: N/A')).toBeInTheDocument();
    expect(within(first).getByText('電話: N/A')).toBeInTheDocument();
    expect(within(screen.getByText('名前なし さん').closest('a')!).getByText('LINE名未登録')).toBeInTheDocument();
    const linked = screen.getByText('連携 さん').closest('a')!;
    expect(within(linked).getByText('はなこ')).toBeInTheDocument();
    expect(within(linked).getByRole('img', { name: 'はなこのLINEアイコン' })).toHaveAttribute(
      'src',
      'https://example.com/p.png',
    );
    expect(linked).toHaveAttribute('href', '/admin/customers/3');
  });

  it('shows a table on wide screens, and a row click opens the customer', async () => {
    restore = setDesktop(true);
    server.use(http.get('/api/admin/customers/', () => HttpResponse.json(CUSTOMERS)));
    const { router } = renderRoute('/admin/customers', { routes });

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['名前', 'LINE', 'メールアドレス', '電話番号']);
    const row = within(table).getByText('連携 さん').closest('tr')!;
    await userEvent.click(within(row).getByText('09012345678'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers/3'));
  });

  it('searches from the collapsible panel one second after typing stops, leaving empty filters out', async () => {
    const requests = recordRequests();
    server.use(
      http.get('/api/admin/customers/', ({ request }) => {
        const name = new URL(request.url).searchParams.get('name');
        return HttpResponse.json(name ? [customerFixture({ id: 9, name: '検索 結果' })] : CUSTOMERS);
      }),
    );
    renderRoute('/admin/customers', { routes });
    await screen.findByText('連携 さん');

    const toggle = screen.getByRole('button', { name: /検索/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.type(screen.getByLabelText('名前'), '検索');
    const typedAt = Date.now();

    await screen.findByText('検索 結果', undefined, { timeout: 3000 });
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(900);
    const searches = requests.map((r) => new URL(r.url)).filter((url) => url.searchParams.has('name'));
    // One request for the whole word, not one per keystroke.
    expect(searches).toHaveLength(1);
    expect(searches[0]!.searchParams.get('name')).toBe('検索');
    expect(searches[0]!.searchParams.has('email')).toBe(false);
    expect(searches[0]!.searchParams.has('phone_number')).toBe(false);
  });

  it('says so when nothing matches', async () => {
    server.use(http.get('/api/admin/customers/', () => HttpResponse.json([])));
    renderRoute('/admin/customers', { routes });
    expect(await screen.findByText('該当する顧客はいません。')).toBeInTheDocument();
  });

  it('shows an error when the list cannot be loaded', async () => {
    server.use(http.get('/api/admin/customers/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })));
    renderRoute('/admin/customers', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.adminCustomerListLoadFailed);
  });

  it('pages through long lists with さらに表示', async () => {
    const page = (offset: number, count: number) =>
      Array.from({ length: count }, (_, i) => customerFixture({ id: offset + i + 1, name: `顧客${offset + i + 1}` }));
    server.use(
      http.get('/api/admin/customers/', ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        return HttpResponse.json(offset === 0 ? page(0, 100) : page(100, 5));
      }),
    );
    renderRoute('/admin/customers', { routes });
    await screen.findByText('顧客100');
    await userEvent.click(screen.getByRole('button', { name: 'さらに表示' }));
    expect(await screen.findByText('顧客105')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'さらに表示' })).not.toBeInTheDocument();
  });
});
