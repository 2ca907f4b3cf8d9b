import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, staffProfile, superuserProfile } from '#tests/setup/admin-fixtures';
import { customerFixture, reservationFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { StaffBookingDialogContext, type StaffBookingDialogProps } from '#src/lib/staff-booking-dialog-slot';
import { CustomerDetailPage } from './customer-detail-page';

const routes = [
  { path: '/admin/customers/:customerId', element: <CustomerDetailPage /> },
  { path: '/admin/customers/:customerId/memo', element: <p>memo screen</p> },
  { path: '/admin/line-history', element: <p>history screen</p> },
];

const UNLINKED = customerFixture({ phone_number: '' });
const LINKED = customerFixture({ is_line_linked: true, line_user_id: 'U1', line_display_name: 'はなこ' });

function serve(detail = UNLINKED, reservations: Reservation[] = []) {
  server.use(
    http.get('/api/admin/customers/7/', () => HttpResponse.json(detail)),
    http.get('/api/admin/customers/7/reservations/', () => HttpResponse.json(reservations)),
  );
}

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
});

afterEach(() => clearNotifications());

describe('customer detail', () => {
  // Seen by a superuser, who alone makes and removes LINE links (customer-line-link.test.tsx: ordinary staff).
  beforeEach(() => server.use(http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile))));

  it('shows the customer’s no-shows and late cancels, with 要承認 when the salon’s rule applies', async () => {
    serve(customerFixture({ no_show_count: 2, late_cancel_count: 1, needs_approval: true }));
    renderRoute('/admin/customers/7', { routes });
    expect(await screen.findByText('無断欠席 2回・直前キャンセル 1回')).toBeInTheDocument();
    expect(screen.getByText('要承認')).toBeInTheDocument();
  });

  it('shows the customer with 未登録 for empty fields, 未連携, and the unlinked actions', async () => {
    serve();
    renderRoute('/admin/customers/7', { routes });

    expect(await screen.findByRole('heading', { level: 1, name: '山田 花子' })).toBeInTheDocument();
    expect(screen.getAllByText('ヤマダ ハナコ').length).toBeGreaterThan(0);
    expect(screen.getByText('hanako@example.com')).toBeInTheDocument();
    expect(screen.getByText('電話番号').nextSibling).toHaveTextContent('未登録');
    expect(screen.getByText('未連携')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← 顧客一覧に戻る' })).toHaveAttribute('href', '/admin/customers');
    expect(screen.getByRole('link', { name: '顧客メモを編集' })).toHaveAttribute('href', '/admin/customers/7/memo');
    expect(await screen.findByRole('button', { name: 'LINE連携URL生成' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'LINEでメッセージを送信' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'チャット履歴' })).toHaveAttribute(
      'href',
      `/admin/line-history?query=${encodeURIComponent('山田 花子')}`,
    );
    expect(await screen.findByText('予約履歴はありません。')).toBeInTheDocument();
  });

  it('shows 連携済み with the display name and the send-message action when linked', async () => {
    serve(LINKED);
    renderRoute('/admin/customers/7', { routes });

    expect(await screen.findByText('連携済み（はなこ）')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'LINEでメッセージを送信' })).toHaveAttribute(
      'href',
      '/admin/customers/7/send-message',
    );
    expect(screen.queryByRole('button', { name: 'LINE連携URL生成' })).not.toBeInTheDocument();
  });

  it('switches the customer’s 再来店のご案内 off and on (PATCH rebook_prompts_enabled)', async () => {
    serve({ ...LINKED, rebook_prompts_enabled: true });
    const bodies: unknown[] = [];
    server.use(
      http.patch('/api/admin/customers/7/', async ({ request }) => {
        const body = (await request.json()) as { rebook_prompts_enabled: boolean };
        bodies.push(body);
        return HttpResponse.json({ ...LINKED, ...body });
      }),
    );
    renderRoute('/admin/customers/7', { routes });
    const toggle = await screen.findByRole('switch', { name: '再来店のご案内をLINEで送る' });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(bodies).toEqual([{ rebook_prompts_enabled: false }, { rebook_prompts_enabled: true }]);
  });

  it('lists the reservation history with status badges', async () => {
    serve(UNLINKED, [
      reservationFixture({ reservation_number: 'R-2', status: 'completed', start_time: '2025-07-02T09:30:00' }),
      reservationFixture({ reservation_number: 'R-1', status: 'pending', service_name: 'ハンドケア' }),
    ]);
    renderRoute('/admin/customers/7', { routes });

    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: '2025年7月2日(水) 09:30' })).toHaveAttribute(
      'href',
      '/admin/reservations/R-2',
    );
    expect(within(rows[0]!).getByText('完了')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('ハンドケア')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('保留中')).toBeInTheDocument();
  });

  it('says 顧客情報が見つかりません。 for an unknown or out-of-scope customer', async () => {
    server.use(
      http.get('/api/admin/customers/7/', () =>
        HttpResponse.json({ detail: '見つかりません。', code: 'not_found' }, { status: 404 }),
      ),
      http.get('/api/admin/customers/7/reservations/', () => HttpResponse.json([])),
    );
    renderRoute('/admin/customers/7', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.customerNotFound);
  });

  it('asks for a reload when the customer cannot be loaded', async () => {
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })),
    );
    renderRoute('/admin/customers/7', { routes });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'データの取得に失敗しました。ページを再読み込みしてください。',
    );
  });

  it('generates the LINE link URL, copies it and shows it', async () => {
    serve();
    server.use(
      http.post('/api/admin/customers/7/generate-line-link/', () =>
        HttpResponse.json(
          {
            link_url: 'http://salon.test/link-customer/abc',
            message: 'LINE連携のお願い\nhttp://salon.test/link-customer/abc',
            expires_at: '2025-06-08T10:00:00',
          },
          { status: 201 },
        ),
      ),
    );
    renderRoute('/admin/customers/7', { routes });
    await userEvent.click(await screen.findByRole('button', { name: 'LINE連携URL生成' }));

    expect(await screen.findByLabelText('LINE連携URL')).toHaveValue('http://salon.test/link-customer/abc');
    expect(writeText).toHaveBeenCalledWith('http://salon.test/link-customer/abc');
    expect(screen.getByText(/クリップボードにコピーしました/)).toBeInTheDocument();
  });

  it.each([
    [
      'with the server error',
      { detail: 'この顧客は既にLINEと連携済みです。', code: 'conflict' },
      409,
      'エラー: この顧客は既にLINEと連携済みです。',
    ],
    ['without one', '<html>bad gateway</html>', 502, 'LINE連携URLの生成に失敗しました。'],
  ])('reports a failed link URL %s', async (_name, body, status, message) => {
    serve();
    server.use(
      http.post('/api/admin/customers/7/generate-line-link/', () =>
        typeof body === 'string' ? new HttpResponse(body, { status }) : HttpResponse.json(body, { status }),
      ),
    );
    renderRoute('/admin/customers/7', { routes });
    await userEvent.click(await screen.findByRole('button', { name: 'LINE連携URL生成' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });
});

describe('予約作成 on a customer (the staff booking dialog, 既存顧客)', () => {
  it('opens the dialog the admin routes provide, for this customer', async () => {
    serve();
    server.use(http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)));
    const opened: StaffBookingDialogProps[] = [];
    const FakeDialog = (props: StaffBookingDialogProps) => {
      if (props.opened) opened.push(props);
      return props.opened ? <p>booking dialog for {props.customerId}</p> : null;
    };
    renderRoute('/admin/customers/7', {
      routes: routes.map((route) => ({
        ...route,
        element: (
          <StaffBookingDialogContext value={(props) => <FakeDialog {...props} />}>
            {route.element}
          </StaffBookingDialogContext>
        ),
      })),
    });
    await userEvent.click(await screen.findByRole('button', { name: '予約作成' }));
    expect(await screen.findByText('booking dialog for 7')).toBeInTheDocument();
    expect(opened.at(-1)?.customerId).toBe(7);
    expect(opened.at(-1)?.initial).toBeUndefined();
  });
});
