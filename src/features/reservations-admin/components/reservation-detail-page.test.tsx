import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { clearNotifications, fixDeviceClock, LAZY, makeReservation, staffProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
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
  it('shows the code (not the number), status, customer link, menu and the date and time like 2030年5月20日(月) 10:00〜11:30', async () => {
    const reservation = makeReservation({ customer_id: 42, status: 'pending' });
    serve(reservation);
    open(reservation);
    expect(await screen.findByText(reservation.reservation_code, {}, LAZY)).toBeInTheDocument();
    expect(screen.getByText('予約コード')).toBeInTheDocument();
    // The UUID is for the address only.
    expect(screen.queryByText(reservation.reservation_number)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '予約詳細' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '山田 花子 様' })).toHaveAttribute('href', '/admin/customers/42');
    expect(screen.getByText('グラデーションジェル')).toBeInTheDocument();
    expect(screen.getByText('2030年5月20日(月) 10:00〜11:30')).toBeInTheDocument();
    expect(screen.getByText('保留中')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約一覧へ戻る' })).toHaveAttribute('href', '/admin/reservations');
  });

  it('shows 要承認 with the customer’s no-shows and late cancels while the held booking waits', async () => {
    const reservation = makeReservation({
      status: 'pending',
      needs_approval: true,
      customer_no_show_count: 2,
      customer_late_cancel_count: 1,
    });
    serve(reservation);
    open(reservation);
    expect(await screen.findByText('要承認', {}, LAZY)).toBeInTheDocument();
    expect(screen.getByText('無断欠席 2回・直前キャンセル 1回')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '確定する' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '確定する' }),
    );
    await waitFor(() => expect(screen.queryByText('要承認')).not.toBeInTheDocument());
    expect(screen.getByText('無断欠席 2回・直前キャンセル 1回')).toBeInTheDocument();
  });

  it('shows the options booked and a nominated staff member with the 指名料', async () => {
    const reservation = makeReservation({
      options: [
        { id: 1, name: 'ジェルオフ', price: '1100', duration_minutes: 30 },
        { id: 2, name: 'アート1本', price: '550', duration_minutes: 10 },
      ],
      is_nominated: true,
      nomination_fee: '1100',
      staff_name: '鈴木 彩',
    });
    serve(reservation);
    open(reservation);
    expect(
      await screen.findByText('ジェルオフ（+30分 ¥1,100）、アート1本（+10分 ¥550）', {}, LAZY),
    ).toBeInTheDocument();
    expect(screen.getByText('鈴木 彩（指名・指名料 ¥1,100）')).toBeInTheDocument();
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
        HttpResponse.json({ detail: SERVER_MESSAGES.staleStatus, code: 'stale_status' }, { status: 409 }),
      ),
    );
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: '確定する' }, LAZY));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '確定する' }),
    );
    const alert = (await screen.findByText(MESSAGES.adminConfirmFailed)).closest('[role="alert"]');
    expect(alert).toHaveTextContent(SERVER_MESSAGES.staleStatus);
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
    expect(await screen.findByText(cancelled.reservation_code, {}, LAZY)).toBeInTheDocument();
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

  describe('日時を変更', () => {
    function serveMove(reservation: Reservation, answer?: () => Response) {
      const bodies: unknown[] = [];
      let current = reservation;
      server.use(
        http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)),
        http.get('/api/admin/reservations/:number/', () => HttpResponse.json(current)),
        http.get('/api/admin/detailed-time-slots/', () =>
          HttpResponse.json({
            available_times: ['10:00', '10:30', '11:00'],
            outside_business_hours: ['18:00'],
            booked_times: ['12:00'],
          }),
        ),
        http.post('/api/admin/reservations/:number/reschedule/', async ({ request }) => {
          const body = (await request.json()) as { start_time: string };
          bodies.push(body);
          if (answer) return answer();
          // The server keeps the booking's 90 minutes.
          current = {
            ...current,
            start_time: body.start_time,
            end_time: body.start_time.replace(/T\d\d:\d\d/, 'T12:30'),
          };
          return HttpResponse.json(current);
        }),
      );
      return bodies;
    }

    it("offers the day's free times, then (営業時間外) ones, asks once more, moves it and shows the new time", async () => {
      const reservation = makeReservation({ status: 'confirmed', start_time: '2030-05-20T10:00:00' });
      const bodies = serveMove(reservation);
      open(reservation);
      await userEvent.click(await screen.findByRole('button', { name: '日時を変更' }, LAZY));
      const dialog = await screen.findByRole('dialog', { name: '日時を変更' });
      const time = await within(dialog).findByLabelText(/^新しい時間/, { selector: 'input' });
      await waitFor(() => expect(time).toBeEnabled());
      await userEvent.click(time);
      const listbox = await screen.findByRole('listbox');
      // Its own time is not offered; booked ones never are.
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['10:30', '11:00', '18:00 (営業時間外)']);
      await userEvent.click(within(listbox).getByRole('option', { name: '11:00' }));
      await userEvent.click(within(dialog).getByRole('button', { name: '次へ' }));
      expect(dialog).toHaveTextContent('2030年5月20日(月) 10:00〜11:30 から 2030年5月20日(月) 11:00〜12:30');
      expect(bodies).toEqual([]);
      await userEvent.click(within(dialog).getByRole('button', { name: '変更する' }));

      await waitFor(() =>
        expect(bodies).toEqual([{ start_time: '2030-05-20T11:00:00', expected_start_time: '2030-05-20T10:00:00' }]),
      );
      expect(await screen.findByText(MESSAGES.rescheduled)).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog', { name: '日時を変更' })).not.toBeInTheDocument());
      expect(screen.getAllByText('2030年5月20日(月) 11:00〜12:30').length).toBeGreaterThan(0);
    });

    it("shows the server's refusal and leaves the reservation as it was", async () => {
      const reservation = makeReservation({ status: 'pending', start_time: '2030-05-20T10:00:00' });
      serveMove(reservation, () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.staffTimeTaken, code: 'slot_unavailable' }, { status: 409 }),
      );
      open(reservation);
      await userEvent.click(await screen.findByRole('button', { name: '日時を変更' }, LAZY));
      const dialog = await screen.findByRole('dialog', { name: '日時を変更' });
      const time = await within(dialog).findByLabelText(/^新しい時間/, { selector: 'input' });
      await waitFor(() => expect(time).toBeEnabled());
      await userEvent.click(time);
      await userEvent.click(await screen.findByRole('option', { name: '10:30' }));
      await userEvent.click(within(dialog).getByRole('button', { name: '次へ' }));
      await userEvent.click(within(dialog).getByRole('button', { name: '変更する' }));
      expect(await within(dialog).findByText(SERVER_MESSAGES.staffTimeTaken)).toBeInTheDocument();
      await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
      expect(screen.getByText('2030年5月20日(月) 10:00〜11:30')).toBeInTheDocument();
    });

    it('is offered only for active reservations; status actions carry the start on screen', async () => {
      const done = makeReservation({ status: 'completed' });
      serve(done);
      const first = open(done);
      await screen.findByText(done.reservation_code, {}, LAZY);
      expect(screen.queryByRole('button', { name: '日時を変更' })).not.toBeInTheDocument();
      first.unmount();

      const pending = makeReservation({ status: 'pending', start_time: '2030-05-20T10:00:00' });
      const bodies: unknown[] = [];
      server.use(
        http.get('/api/admin/reservations/:number/', () => HttpResponse.json(pending)),
        http.post('/api/admin/reservations/:number/confirm/', async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json({ ...pending, status: 'confirmed' });
        }),
      );
      open(pending);
      await userEvent.click(await screen.findByRole('button', { name: '確定する' }, LAZY));
      await userEvent.click(
        within(await screen.findByRole('dialog', { name: '確認' })).getByRole('button', { name: '確定する' }),
      );
      await waitFor(() => expect(bodies).toEqual([{ expected_start_time: '2030-05-20T10:00:00' }]));
    });
  });
});

describe('while the detail reloads after an action', () => {
  it('キャンセル and 日時を変更 stay usable: the reload does not hold the action', async () => {
    const reservation = makeReservation({ status: 'pending' });
    serve(reservation);
    open(reservation);
    await userEvent.click(await screen.findByRole('button', { name: '確定する' }, LAZY));
    // From now on the reload gets no answer (a connection that answers slowly, or not at all).
    server.use(http.get('/api/admin/reservations/:number/', () => delay('infinite')));
    const dialog = await screen.findByRole('dialog', { name: '確認' });
    await userEvent.click(within(dialog).getByRole('button', { name: '確定する' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'キャンセル' })).toBeEnabled());
    expect(screen.getByRole('button', { name: '日時を変更' })).toBeEnabled();
  });
});
