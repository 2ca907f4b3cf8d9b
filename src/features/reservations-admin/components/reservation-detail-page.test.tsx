import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { clearNotifications, fixDeviceClock, LAZY, makeReservation } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { ReservationDetailPage } from './reservation-detail-page';

const routes = [
  { path: '/admin/reservations/:reservationNumber', element: <ReservationDetailPage /> },
  { path: '/admin/reservations', element: <p>list page</p> },
];

function serve(reservation: Reservation) {
  let current = reservation;
  const posted: string[] = [];
  server.use(
    http.get('/api/admin/reservations/:number/', () => HttpResponse.json(current)),
    http.post('/api/admin/reservations/:number/:action/', ({ params }) => {
      posted.push(String(params.action));
      const to = ({ confirm: 'confirmed', cancel: 'cancelled', complete: 'completed', 'no-show': 'no_show' } as const)[
        String(params.action) as 'confirm'
      ];
      current = { ...current, status: to };
      return HttpResponse.json(current);
    }),
  );
  return posted;
}

const open = (reservation: Reservation) =>
  renderRoute(`/admin/reservations/${reservation.reservation_number}`, { routes });

fixDeviceClock();
afterEach(clearNotifications);

describe('admin reservation detail (予約詳細)', () => {
  it('shows the number, status, customer link, menu and the date-time like 2030年05月20日 10:00', async () => {
    const reservation = makeReservation({ customer_id: 42, status: 'pending' });
    serve(reservation);
    open(reservation);
    expect(await screen.findByText(reservation.reservation_number, {}, LAZY)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '予約詳細' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '山田 花子 様' })).toHaveAttribute('href', '/admin/customers/42');
    expect(screen.getByText('グラデーションジェル')).toBeInTheDocument();
    expect(screen.getByText('2030年05月20日 10:00')).toBeInTheDocument();
    expect(screen.getByText('保留中')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約一覧へ戻る' })).toHaveAttribute('href', '/admin/reservations');
  });

  it('confirms a pending reservation after asking この予約を確定しますか？, then reloads it', async () => {
    const reservation = makeReservation({ status: 'pending' });
    const posted = serve(reservation);
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: '確定する' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.adminConfirmQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: '確定する' }));
    await waitFor(() => expect(posted).toEqual(['confirm']));
    expect(await screen.findByText('確定')).toBeInTheDocument();
    // Confirmed: no second confirm, cancel still offered.
    expect(screen.queryByRole('button', { name: '確定する' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'キャンセル' })).toBeInTheDocument();
  });

  it('asks この予約をキャンセルしますか？ and does nothing when the staff member goes back', async () => {
    const reservation = makeReservation({ status: 'confirmed' });
    const posted = serve(reservation);
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: 'キャンセル' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.adminCancelQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: '戻る' }));
    expect(posted).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'キャンセル' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: 'キャンセルする' }),
    );
    await waitFor(() => expect(posted).toEqual(['cancel']));
    expect(await screen.findByText('キャンセル', { selector: '[data-status] *, [data-status]' })).toBeInTheDocument();
  });

  it('says 予約の確定処理に失敗しました。 when the confirmation fails', async () => {
    const reservation = makeReservation({ status: 'pending' });
    serve(reservation);
    server.use(
      http.post('/api/admin/reservations/:number/confirm/', () =>
        HttpResponse.json({ detail: MESSAGES.staleStatus, code: 'stale_status' }, { status: 409 }),
      ),
    );
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: '確定する' }, LAZY));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '確定する' }),
    );
    const alert = (await screen.findByText(MESSAGES.adminConfirmFailed)).closest('[role="alert"]');
    expect(alert).toHaveTextContent(MESSAGES.staleStatus);
  });

  it('says 予約のキャンセル処理に失敗しました。 when the cancellation fails', async () => {
    const reservation = makeReservation({ status: 'confirmed' });
    serve(reservation);
    server.use(
      http.post('/api/admin/reservations/:number/cancel/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: 'キャンセル' }, LAZY));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: 'キャンセルする' }),
    );
    expect((await screen.findByText(MESSAGES.adminCancelFailed)).closest('[role="alert"]')).toBeInTheDocument();
  });

  it('offers 完了 and 無断欠席 once the reservation has begun, and shows completed in blue', async () => {
    const reservation = makeReservation({ status: 'confirmed', start_time: '2030-01-09T15:00:00' });
    const posted = serve(reservation);
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: '完了' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: '確認' });
    expect(dialog).toHaveTextContent(MESSAGES.adminCompleteQuestion);
    expect(screen.getByRole('button', { name: '無断欠席' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '完了' }));
    await waitFor(() => expect(posted).toEqual(['complete']));
    const badge = await screen.findByText('完了', { selector: '[data-status] *, [data-status]' });
    expect(badge.closest('[data-status]')).toHaveAttribute('data-status', 'completed');
    expect(screen.queryByRole('button', { name: 'キャンセル' })).not.toBeInTheDocument();
  });

  it('does not offer 完了 or 無断欠席 before the start, nor anything for a cancelled reservation', async () => {
    const future = makeReservation({ status: 'pending', start_time: '2030-01-10T10:00:00' });
    serve(future);
    const { unmount } = open(future);
    expect(await screen.findByRole('button', { name: '確定する' }, LAZY)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '完了' })).not.toBeInTheDocument();
    unmount();

    const cancelled = makeReservation({ status: 'cancelled' });
    serve(cancelled);
    open(cancelled);
    expect(await screen.findByText(cancelled.reservation_number, {}, LAZY)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /確定する|キャンセル|完了|無断欠席/ })).not.toBeInTheDocument();
  });

  it('says 予約データが見つかりません。 for an unknown number and 予約情報の取得に失敗しました。 when loading fails', async () => {
    server.use(
      http.get('/api/admin/reservations/missing/', () =>
        HttpResponse.json({ detail: MESSAGES.reservationNotFound, code: 'not_found' }, { status: 404 }),
      ),
      http.get('/api/admin/reservations/broken/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
    );
    const { router } = renderRoute('/admin/reservations/missing', { routes });
    expect(await screen.findByText(MESSAGES.adminReservationMissing, {}, LAZY)).toBeInTheDocument();
    await router.navigate('/admin/reservations/broken');
    expect(await screen.findByText(MESSAGES.reservationFetchFailed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '再読み込み' })).toBeInTheDocument();
  });
});
