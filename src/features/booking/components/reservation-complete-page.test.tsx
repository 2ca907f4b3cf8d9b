import { configure, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  baseCustomerHandlers,
  errorBody,
  RESERVATION_NUMBER,
  reservationFixture,
  signInCustomer,
} from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';

configure({ asyncUtilTimeout: 5000 });

describe('/reservation-complete/{number}', () => {
  it('shows the date with its times, the menu, the short code, why to keep it, the e-mail note and the links', async () => {
    signInCustomer();
    const options = [{ id: 21, name: 'ジェルオフ', price: '1100', duration_minutes: 30 }];
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/:number/', ({ params }) =>
        params.number === RESERVATION_NUMBER
          ? HttpResponse.json(reservationFixture({ options, is_nominated: true }))
          : HttpResponse.json(errorBody(MESSAGES.reservationNotFound, 'not_found'), { status: 404 }),
      ),
    );
    renderRoute(`/reservation-complete/${RESERVATION_NUMBER}`);
    expect(await screen.findByRole('heading', { name: 'ご予約を受け付けました' })).toBeInTheDocument();
    expect(screen.getByText(RESERVATION_NUMBER)).toBeInTheDocument();
    expect(screen.getByText('K7M4Q9TX')).toBeInTheDocument();
    const summary = screen.getByLabelText('ご予約内容');
    expect(summary).toHaveTextContent('日時2030年5月20日(月) 10:00〜11:30');
    expect(summary).toHaveTextContent('メニューグラデーションジェル + ジェルオフ');
    expect(summary).toHaveTextContent('担当佐藤 美咲（指名）');
    expect(screen.getByText(/予約の確認・変更・キャンセルの際に必要になります/)).toBeInTheDocument();
    expect(screen.getByText(/確認メールをお送りしました/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '続けて予約する' })).toHaveAttribute('href', '/reserve');
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: '予約一覧を見る' })).toHaveAttribute('href', '/reservations');
    expect(screen.getByRole('link', { name: '予約内容を確認する' })).toHaveAttribute(
      'href',
      `/reservations/${RESERVATION_NUMBER}`,
    );
  });

  it('says the booking is confirmed when the salon confirmed it at once, and promises a later word otherwise', async () => {
    signInCustomer();
    let status: 'pending' | 'confirmed' = 'confirmed';
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/:number/', () => HttpResponse.json(reservationFixture({ status }))),
    );
    const confirmed = renderRoute(`/reservation-complete/${RESERVATION_NUMBER}`);
    expect(await screen.findByText(/ご予約は確定しています/)).toBeInTheDocument();
    expect(screen.queryByText(/改めてご連絡いたします/)).not.toBeInTheDocument();
    confirmed.unmount();
    status = 'pending';
    renderRoute(`/reservation-complete/${RESERVATION_NUMBER}`);
    expect(await screen.findByText(/改めてご連絡いたします/)).toBeInTheDocument();
    expect(screen.queryByText(/ご予約は確定しています/)).not.toBeInTheDocument();
  });

  it('says not found instead of success for a number that is unknown or not the caller’s', async () => {
    signInCustomer();
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/:number/', () =>
        HttpResponse.json(errorBody(MESSAGES.reservationNotFound, 'not_found'), { status: 404 }),
      ),
    );
    renderRoute('/reservation-complete/anything-at-all');
    expect(await screen.findByText(MESSAGES.reservationNotFound)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: '予約が見つかりません' })).toBeInTheDocument();
    expect(screen.queryByText('ご予約を受け付けました')).not.toBeInTheDocument();
    expect(screen.queryByText(/確認メールをお送りしました/)).not.toBeInTheDocument();
  });

  it('says the number is missing without one', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/reservation-complete');
    expect(await screen.findByText(MESSAGES.reservationNumberMissing)).toBeInTheDocument();
  });
});
