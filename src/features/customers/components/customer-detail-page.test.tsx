import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, recordRequests, staffProfile, superuserProfile } from '#tests/setup/admin-fixtures';
import { customerFixture, reservationFixture } from '#tests/setup/fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
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

describe('create-reservation modal (予約作成（既存顧客）)', () => {
  const services = [
    { id: 3, name: 'ジェルネイル', price: '6600', duration_minutes: 90, salon: 1 },
    { id: 4, name: 'ハンドケア', price: '3000', duration_minutes: 30, salon: 1 },
  ];
  // An ordinary staff member unless a test says otherwise: they book for themselves, with no staff select.
  beforeEach(() => {
    server.use(http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)));
  });
  const slots = { available_times: ['10:00', '10:30'], outside_business_hours: ['20:00'], booked_times: ['11:00'] };

  async function openModal() {
    renderRoute('/admin/customers/7', { routes });
    await userEvent.click(await screen.findByRole('button', { name: '予約作成' }));
    return screen.findByRole('dialog', { name: '予約作成（既存顧客）' });
  }

  it('offers the available times, then the outside-hours ones labelled, never the booked ones', async () => {
    serve();
    server.use(
      http.get('/api/services/', () => HttpResponse.json(services)),
      http.get('/api/admin/detailed-time-slots/', () => HttpResponse.json(slots)),
    );
    const dialog = await openModal();

    const service = within(dialog).getByLabelText(/メニュー/);
    // "name (N分) - ¥price", in minutes however long.
    await within(dialog).findByRole('option', { name: 'ジェルネイル (90分) - ¥6,600' });
    expect(within(dialog).queryByLabelText(/担当スタッフ/)).not.toBeInTheDocument();
    const time = within(dialog).getByLabelText(/時間/);
    expect(time).toBeDisabled();
    await userEvent.selectOptions(service, '3');
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-15' } });
    await waitFor(() => expect(time).toBeEnabled());
    const labels = within(time)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(labels).toEqual(['選択してください', '10:00', '10:30', '20:00 (営業時間外)']);
    expect(within(dialog).getByRole('button', { name: '作成' })).toBeDisabled();

    // A new date clears the chosen time and asks for that day's slots.
    await userEvent.selectOptions(time, '10:30');
    expect(within(dialog).getByRole('button', { name: '作成' })).toBeEnabled();
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-16' } });
    expect(time).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: '作成' })).toBeDisabled();
    await waitFor(() => expect(time).toBeEnabled());
  });

  it('says when the day has no times', async () => {
    serve();
    server.use(
      http.get('/api/services/', () => HttpResponse.json(services)),
      http.get('/api/admin/detailed-time-slots/', () =>
        HttpResponse.json({ available_times: [], outside_business_hours: [], booked_times: ['10:00'] }),
      ),
    );
    const dialog = await openModal();
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-15' } });
    expect(await within(dialog).findByText('この日は予約可能な時間がありません。')).toBeInTheDocument();
  });

  it('creates a confirmed reservation, shows the success text, closes after 1.5 s and reloads the history', async () => {
    let historyLoads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/admin/customers/7/', () => HttpResponse.json(UNLINKED)),
      http.get('/api/admin/customers/7/reservations/', () => {
        historyLoads += 1;
        return HttpResponse.json(historyLoads > 1 ? [reservationFixture({ start_time: '2030-01-15T20:00:00' })] : []);
      }),
      http.get('/api/services/', () => HttpResponse.json(services)),
      http.get('/api/admin/detailed-time-slots/', () => HttpResponse.json(slots)),
      http.post('/api/admin/reservations/create-for-customer/', async () => {
        await gate;
        return HttpResponse.json(reservationFixture(), { status: 201 });
      }),
    );
    const requests = recordRequests();
    const dialog = await openModal();
    await within(dialog).findByRole('option', { name: /ハンドケア/ });
    await userEvent.selectOptions(within(dialog).getByLabelText(/メニュー/), '4');
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-15' } });
    const time = within(dialog).getByLabelText(/時間/);
    await waitFor(() => expect(time).toBeEnabled());
    await userEvent.selectOptions(time, '20:00');
    await userEvent.click(within(dialog).getByRole('button', { name: '作成' }));
    expect(await within(dialog).findByRole('button', { name: '作成中...' })).toBeDisabled();
    release();

    expect(await within(dialog).findByText(MESSAGES.adminReservationCreatedConfirmed)).toBeInTheDocument();
    const create = requests.find((r) => r.url.endsWith('/create-for-customer/'))!;
    expect(await create.json()).toEqual({ service_id: 4, customer_id: 7, start_time: '2030-01-15T20:00:00' });
    const shownAt = Date.now();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 3000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1300);
    expect(await screen.findByRole('link', { name: '2030年1月15日(火) 20:00' })).toBeInTheDocument();
  });

  it.each([
    [
      'the server error',
      { detail: 'この時間には既に別の予約があります。別の時間を選んでください。', code: 'conflict' },
      409,
      'この時間には既に別の予約があります。別の時間を選んでください。',
    ],
    ['作成に失敗しました。 without one', '', 502, '作成に失敗しました。'],
  ])('shows %s in a red box when creation fails', async (_name, body, status, message) => {
    serve();
    server.use(
      http.get('/api/services/', () => HttpResponse.json(services)),
      http.get('/api/admin/detailed-time-slots/', () => HttpResponse.json(slots)),
      http.post('/api/admin/reservations/create-for-customer/', () =>
        typeof body === 'string' ? new HttpResponse(body, { status }) : HttpResponse.json(body, { status }),
      ),
    );
    const dialog = await openModal();
    await within(dialog).findByRole('option', { name: /ハンドケア/ });
    await userEvent.selectOptions(within(dialog).getByLabelText(/メニュー/), '4');
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-15' } });
    const time = within(dialog).getByLabelText(/時間/);
    await waitFor(() => expect(time).toBeEnabled());
    await userEvent.selectOptions(time, '10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: '作成' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('lets a superuser without slots book for the staff member who has free time that day', async () => {
    const asked: Array<string | null> = [];
    serve();
    server.use(
      http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
      http.get('/api/admin/users/', () =>
        HttpResponse.json([
          { ...superuserProfile, is_active: true },
          {
            id: 5,
            username: 'sato',
            full_name: '佐藤 A',
            email: '',
            is_superuser: false,
            is_active: true,
            is_line_linked: false,
          },
          {
            id: 6,
            username: 'gone',
            full_name: '退職 B',
            email: '',
            is_superuser: false,
            is_active: false,
            is_line_linked: false,
          },
        ]),
      ),
      http.get('/api/services/', () => HttpResponse.json(services)),
      http.get('/api/admin/detailed-time-slots/', ({ request }) => {
        const userId = new URL(request.url).searchParams.get('user_id');
        asked.push(userId);
        // The admin has no opening slots; 佐藤 is open 10:00–11:00.
        return HttpResponse.json(
          userId === '5'
            ? { available_times: ['10:00', '10:30'], outside_business_hours: ['09:00', '11:00'], booked_times: [] }
            : { available_times: [], outside_business_hours: ['09:00', '10:00', '10:30', '11:00'], booked_times: [] },
        );
      }),
      http.post('/api/admin/reservations/create-for-customer/', () =>
        HttpResponse.json(reservationFixture(), { status: 201 }),
      ),
    );
    const requests = recordRequests();
    const dialog = await openModal();
    await within(dialog).findByRole('option', { name: /ハンドケア/ });
    await userEvent.selectOptions(within(dialog).getByLabelText(/メニュー/), '4');
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-15' } });
    const staff = within(dialog).getByLabelText(/担当スタッフ/);
    await waitFor(() => expect(staff).toHaveValue('5'));
    // Only active staff are offered, each with their free times that day.
    expect(
      within(staff)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([`${superuserProfile.full_name}（空き 0枠）`, '佐藤 A（空き 2枠）']);
    const time = within(dialog).getByLabelText(/^時間/);
    await waitFor(() => expect(time).toBeEnabled());
    expect(
      within(time)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['選択してください', '10:00', '10:30', '09:00 (営業時間外)', '11:00 (営業時間外)']);
    expect(asked.sort()).toEqual([String(superuserProfile.id), '5']);
    await userEvent.selectOptions(time, '10:30');
    await userEvent.click(within(dialog).getByRole('button', { name: '作成' }));
    expect(await within(dialog).findByText(MESSAGES.adminReservationCreatedConfirmed)).toBeInTheDocument();
    const create = requests.find((r) => r.url.endsWith('/create-for-customer/'))!;
    expect(await create.json()).toEqual({
      service_id: 4,
      customer_id: 7,
      start_time: '2030-01-15T10:30:00',
      staff_id: 5,
    });
  });

  it('logs service and time-slot failures and shows empty lists', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    serve();
    server.use(
      http.get('/api/services/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })),
      http.get('/api/admin/detailed-time-slots/', () => HttpResponse.json({ detail: 'x', code: 'e' }, { status: 500 })),
    );
    const dialog = await openModal();
    fireEvent.change(within(dialog).getByLabelText(/日付/), { target: { value: '2030-01-15' } });
    await waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    expect(within(within(dialog).getByLabelText(/メニュー/)).getAllByRole('option')).toHaveLength(1);
    expect(within(within(dialog).getByLabelText(/時間/)).getAllByRole('option')).toHaveLength(1);
    errors.mockRestore();
  });
});
