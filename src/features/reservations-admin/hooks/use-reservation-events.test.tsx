import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LAZY,
  makeReservation,
  openEventStream,
  storeAdminTokens,
  superuserProfile,
} from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { loadNotifications } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { ReservationChangeEvent } from '#src/shared/schemas/events';
import { ReservationListPage } from '../components/reservation-list-page';
import { useReservationEvents } from './use-reservation-events';

function LiveList() {
  useReservationEvents({ enabled: true, backoffMs: () => 10 });
  return <ReservationListPage />;
}

const routes = [{ path: '/admin/reservations', element: <LiveList /> }];

const booking = (overrides: Partial<ReservationChangeEvent> = {}): ReservationChangeEvent => ({
  action: 'created',
  reservation_number: 'r-1',
  staff_id: 1,
  status: 'pending',
  start_time: '2030-01-31T09:00:00',
  customer_name: '山田 花子',
  by: 'customer',
  ...overrides,
});

afterEach(async () => (await loadNotifications()).clean());

describe('live updates (GET /api/admin/events/)', () => {
  it('reads the stream with the admin token; a customer booking refreshes the list and shows a notification', async () => {
    storeAdminTokens();
    const stream = openEventStream();
    const streamAuth: Array<string | null> = [];
    let rows = [makeReservation({ customer_name: '高橋 結衣' })];
    server.use(
      http.get('/api/admin/events/', ({ request }) => {
        streamAuth.push(request.headers.get('authorization'));
        return stream.response;
      }),
      http.get('/api/admin/reservations/', () => HttpResponse.json(rows)),
    );
    renderRoute('/admin/reservations', { routes });
    expect(await screen.findByText('高橋 結衣 様', {}, LAZY)).toBeInTheDocument();
    await waitFor(() => expect(streamAuth).toEqual(['Bearer admin-access-token']));

    rows = [...rows, makeReservation({ customer_name: '山田 花子' })];
    stream.send('reservation', booking());
    // No reload: the list asks again by itself.
    expect(await screen.findByText('山田 花子 様')).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.adminNewReservationArrived)).toBeInTheDocument();
    expect(screen.getByText(/山田 花子 様 2030年1月31日\(木\) 09:00/)).toBeInTheDocument();
  });

  it('refreshes quietly for staff actions, and says so when a customer cancels', async () => {
    storeAdminTokens();
    const stream = openEventStream();
    let listCalls = 0;
    server.use(
      http.get('/api/admin/events/', () => stream.response),
      http.get('/api/admin/reservations/', () => (listCalls++, HttpResponse.json([]))),
    );
    renderRoute('/admin/reservations', { routes });
    await screen.findByText('条件に一致する予約はありません。', {}, LAZY);
    await waitFor(() => expect(listCalls).toBe(1));

    stream.send('reservation', booking({ action: 'confirmed', status: 'confirmed', by: 'staff' }));
    await waitFor(() => expect(listCalls).toBe(2));
    expect(screen.queryByText(MESSAGES.adminNewReservationArrived)).not.toBeInTheDocument();

    stream.send('reservation', booking({ action: 'cancelled', status: 'cancelled' }));
    expect(await screen.findByText(MESSAGES.adminReservationCancelledByCustomer)).toBeInTheDocument();
  });

  it("a move refreshes the list with the new time, and a customer's move is announced", async () => {
    storeAdminTokens();
    const stream = openEventStream();
    let rows = [makeReservation({ customer_name: '山田 花子', start_time: '2030-01-31T09:00:00' })];
    server.use(
      http.get('/api/admin/events/', () => stream.response),
      http.get('/api/admin/reservations/', () => HttpResponse.json(rows)),
    );
    renderRoute('/admin/reservations', { routes });
    expect(await screen.findByText('山田 花子 様', {}, LAZY)).toBeInTheDocument();
    expect(screen.queryByText(/14:30/)).not.toBeInTheDocument();

    rows = [{ ...rows[0]!, start_time: '2030-01-31T14:30:00', end_time: '2030-01-31T15:30:00' }];
    stream.send('reservation', booking({ action: 'rescheduled', start_time: '2030-01-31T14:30:00' }));
    expect(await screen.findByText(MESSAGES.adminReservationRescheduledByCustomer)).toBeInTheDocument();
    expect(screen.getByText(/山田 花子 様 → 2030年1月31日\(木\) 14:30/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText(/14:30/).length).toBeGreaterThan(1));
  });

  it('on a 401 refreshes the token through an admin call and reconnects with the new one', async () => {
    storeAdminTokens();
    const stream = openEventStream();
    const streamAuth: Array<string | null> = [];
    server.use(
      http.get('/api/admin/events/', ({ request }) => {
        const auth = request.headers.get('authorization');
        streamAuth.push(auth);
        return auth === 'Bearer fresh-access'
          ? stream.response
          : HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 });
      }),
      // Stands in for the admin area's refresh: the profile call stores a fresh token.
      http.get('/api/admin/me/', () => {
        window.localStorage.setItem('adminAccessToken', 'fresh-access');
        return HttpResponse.json(superuserProfile);
      }),
      http.get('/api/admin/reservations/', () => HttpResponse.json([])),
    );
    renderRoute('/admin/reservations', { routes });
    await waitFor(() => expect(streamAuth).toEqual(['Bearer admin-access-token', 'Bearer fresh-access']), LAZY);
  });

  it('reconnects after the stream breaks', async () => {
    storeAdminTokens();
    let connections = 0;
    server.use(
      http.get('/api/admin/events/', () => {
        connections += 1;
        if (connections === 1) return HttpResponse.error();
        return openEventStream().response;
      }),
      http.get('/api/admin/reservations/', () => HttpResponse.json([])),
    );
    renderRoute('/admin/reservations', { routes });
    await waitFor(() => expect(connections).toBe(2), LAZY);
  });
});
