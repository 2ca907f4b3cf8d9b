import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAZY, makeReservation, setDesktop, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { ReservationListPage } from './reservation-list-page';

const routes = [
  { path: '/admin/reservations', element: <ReservationListPage /> },
  { path: '/admin/reservations/:reservationNumber', element: <p>detail page</p> },
];

function captureListRequests() {
  const urls: URL[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/admin/reservations/') urls.push(url);
  });
  return urls;
}

let restoreMedia: (() => void) | undefined;
afterEach(() => {
  restoreMedia?.();
  restoreMedia = undefined;
});

describe('admin reservation list', () => {
  it('asks for pending and confirmed from today by default, with the admin token, and shows cards on a phone', async () => {
    storeAdminTokens();
    const urls = captureListRequests();
    const headers: Array<string | null> = [];
    server.use(
      http.get('/api/admin/reservations/', async ({ request }) => {
        headers.push(request.headers.get('authorization'));
        await delay(30);
        return HttpResponse.json([
          makeReservation({ customer_name: '山田 花子', start_time: '2030-01-31T09:00:00' }),
          makeReservation({ customer_name: '高橋 結衣', status: 'confirmed', start_time: '2030-02-01T14:30:00' }),
        ]);
      }),
    );
    renderRoute('/admin/reservations', { routes });

    expect(screen.getByRole('status')).toHaveTextContent('読み込み中');
    const list = await screen.findByRole('list', { name: '予約一覧' }, LAZY);
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText(/^2030年1月31日\(木\) 09:00〜/)).toBeInTheDocument();
    expect(within(list).getByText('山田 花子 様')).toBeInTheDocument();
    expect(within(list).getByText('保留中')).toBeInTheDocument();
    expect(within(list).getByText('確定')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    const url = urls[0]!;
    expect(url.searchParams.get('start_date')).toBe(dayjs().format('YYYY-MM-DD'));
    expect(url.searchParams.has('end_date')).toBe(false);
    expect(url.searchParams.getAll('status')).toEqual(['pending', 'confirmed']);
    expect(headers[0]).toBe('Bearer admin-access-token');
    // docs/screens.md#admin-reservation-list defaults: pending and confirmed on, cancelled and completed off.
    expect(screen.getByRole('checkbox', { name: '保留中' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '確定' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'キャンセル' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: '完了' })).not.toBeChecked();
  });

  it('searches by a code typed in lower case with a hyphen (whatever the filters), or by name within them', async () => {
    storeAdminTokens();
    const urls = captureListRequests();
    server.use(http.get('/api/admin/reservations/', () => HttpResponse.json([makeReservation()])));
    const { router } = renderRoute('/admin/reservations', { routes });
    const box = await screen.findByRole('textbox', { name: '予約コード・お名前・電話番号' }, LAZY);

    await userEvent.type(box, 'k7m4-q9tx{Enter}');
    await waitFor(() => expect(urls.at(-1)?.searchParams.get('code')).toBe('K7M4Q9TX'));
    const byCode = urls.at(-1)!;
    expect(byCode.searchParams.has('start_date')).toBe(false);
    expect(byCode.searchParams.getAll('status')).toEqual([]);
    expect(screen.getByText(/予約コード K7M4Q9TX で検索しています/)).toBeInTheDocument();
    expect(router.state.location.search).toContain('q=k7m4-q9tx');

    await userEvent.clear(box);
    await userEvent.type(box, 'やまだ');
    await userEvent.click(screen.getByRole('button', { name: '検索' }));
    await waitFor(() => expect(urls.at(-1)?.searchParams.get('q')).toBe('やまだ'));
    const byName = urls.at(-1)!;
    expect(byName.searchParams.has('code')).toBe(false);
    expect(byName.searchParams.get('start_date')).toBe(dayjs().format('YYYY-MM-DD'));
    expect(byName.searchParams.getAll('status')).toEqual(['pending', 'confirmed']);
  });

  it('shows a table on a desktop; a row click opens the detail', async () => {
    restoreMedia = setDesktop(true);
    const reservation = makeReservation({ customer_name: '山田 花子', staff_name: '佐藤 美咲', status: 'completed' });
    server.use(http.get('/api/admin/reservations/', () => HttpResponse.json([reservation])));
    const { router } = renderRoute('/admin/reservations', { routes });

    const table = await screen.findByRole('table', { name: '予約一覧' }, LAZY);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['日時', 'お客様', 'メニュー', '担当', 'ステータス']);
    const badge = within(table).getByText('完了');
    expect(badge.closest('[data-status]')).toHaveAttribute('data-status', 'completed');
    await userEvent.click(within(table).getByText('グラデーションジェル'));
    expect(router.state.location.pathname).toBe(`/admin/reservations/${reservation.reservation_number}`);
  });

  it('changes the request when a status is switched, and keeps the filters in the address', async () => {
    const urls = captureListRequests();
    server.use(http.get('/api/admin/reservations/', () => HttpResponse.json([])));
    const { router } = renderRoute('/admin/reservations', { routes });
    expect(await screen.findByText('条件に一致する予約はありません。', {}, LAZY)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'キャンセル' }));
    await waitFor(() =>
      expect(urls.at(-1)!.searchParams.getAll('status').sort()).toEqual(['cancelled', 'confirmed', 'pending']),
    );
    expect(router.state.location.search).toContain('status=cancelled');

    for (const name of ['保留中', '確定', 'キャンセル']) await userEvent.click(screen.getByRole('checkbox', { name }));
    expect(await screen.findByText('ステータスを1つ以上選んでください。')).toBeInTheDocument();
  });

  it('clears the start date so that past reservations show too', async () => {
    const urls = captureListRequests();
    server.use(http.get('/api/admin/reservations/', () => HttpResponse.json([])));
    renderRoute('/admin/reservations', { routes });
    await screen.findByText('条件に一致する予約はありません。', {}, LAZY);
    await userEvent.click(screen.getByRole('button', { name: '開始日をクリア' }));
    await waitFor(() => expect(urls.at(-1)!.searchParams.has('start_date')).toBe(false));
  });

  it('says 予約情報の取得に失敗しました。 when the list cannot be loaded, and can try again', async () => {
    let calls = 0;
    server.use(
      http.get('/api/admin/reservations/', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 })
          : HttpResponse.json([makeReservation()]);
      }),
    );
    renderRoute('/admin/reservations', { routes });
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.reservationFetchFailed);
    await userEvent.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(await screen.findByRole('list', { name: '予約一覧' })).toBeInTheDocument();
  });
});

describe('admin reservation list: the new-customer button', () => {
  it('opens the dialog', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      http.get('/api/admin/reservations/', () => HttpResponse.json([])),
      http.get('/api/services/', () => HttpResponse.json([])),
    );
    renderRoute('/admin/reservations', { routes });
    await userEvent.click(await screen.findByRole('button', { name: '新規予約' }, LAZY));
    expect(await screen.findByRole('dialog', { name: '予約作成（新規顧客）' })).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
