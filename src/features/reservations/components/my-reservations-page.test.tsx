import { configure, screen, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseCustomerHandlers, reservationFixture, signInCustomer } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';

configure({ asyncUtilTimeout: 5000 });

const upcoming = reservationFixture({
  reservation_number: '11111111-1111-4111-8111-111111111111',
  reservation_code: 'ABCD2345',
  status: 'confirmed',
});
const past = reservationFixture({
  reservation_number: '22222222-2222-4222-8222-222222222222',
  reservation_code: 'WXYZ6789',
  status: 'completed',
  start_time: '2030-01-05T10:00:00',
  end_time: '2030-01-05T11:30:00',
});

describe('/reservations: the customer’s list', () => {
  it('shows a loading state, then upcoming and past bookings with status and code, each linking to its detail', async () => {
    signInCustomer();
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/', async () => {
        await delay(50);
        return HttpResponse.json({ upcoming: [upcoming], past: [past] });
      }),
    );
    renderRoute('/reservations');
    expect(await screen.findByText('予約一覧を読み込み中…')).toBeInTheDocument();
    const ahead = await screen.findByRole('region', { name: '今後のご予約' });
    const before = screen.getByRole('region', { name: '過去のご予約' });
    const link = within(ahead).getByRole('link', { name: /ABCD2345/ });
    expect(link).toHaveAttribute('href', `/reservations/${upcoming.reservation_number}`);
    expect(within(ahead).getByText('確定')).toBeInTheDocument();
    expect(within(before).getByRole('link', { name: /WXYZ6789/ })).toHaveAttribute(
      'href',
      `/reservations/${past.reservation_number}`,
    );
    expect(within(before).getByText('2030年1月5日(土) 10:00〜11:30')).toBeInTheDocument();
  });

  it('says there are no bookings yet and offers booking', async () => {
    signInCustomer();
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/', () => HttpResponse.json({ upcoming: [], past: [] })),
    );
    renderRoute('/reservations');
    expect(await screen.findByText('まだご予約はありません。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約する' })).toHaveAttribute('href', '/reserve');
  });

  it('offers a retry when the list cannot be loaded', async () => {
    signInCustomer();
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/', () => HttpResponse.error()),
    );
    renderRoute('/reservations');
    expect(await screen.findByText(MESSAGES.reservationListFailed)).toBeInTheDocument();
  });

  it('asks a signed-out visitor to log in with LINE', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/reservations');
    expect(await screen.findByRole('button', { name: 'LINEでログインして確認する' })).toBeInTheDocument();
  });
});
