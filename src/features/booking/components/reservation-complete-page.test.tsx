import { configure, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { baseCustomerHandlers, RESERVATION_NUMBER, signInCustomer } from '../../../../tests/helpers/customer-api-mocks';
import { server } from '../../../../tests/setup/msw-server';
import { renderRoute } from '../../../../tests/setup/render';
import { MESSAGES } from '../../../shared/messages';

configure({ asyncUtilTimeout: 5000 });

describe('/reservation-complete/{number}', () => {
  it('shows the number, why to keep it, the e-mail note and the links', async () => {
    signInCustomer();
    server.use(...baseCustomerHandlers());
    renderRoute(`/reservation-complete/${RESERVATION_NUMBER}`);
    expect(await screen.findByRole('heading', { name: 'ご予約を受け付けました' })).toBeInTheDocument();
    expect(screen.getByText(RESERVATION_NUMBER)).toBeInTheDocument();
    expect(screen.getByText(/予約の確認・変更・キャンセルの際に必要になります/)).toBeInTheDocument();
    expect(screen.getByText(/確認メールをお送りしました/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '続けて予約する' })).toHaveAttribute('href', '/reserve');
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: '予約内容を確認する' })).toHaveAttribute(
      'href',
      `/reservations/${RESERVATION_NUMBER}`,
    );
  });

  it('says the number is missing without one', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/reservation-complete');
    expect(await screen.findByText(MESSAGES.reservationNumberMissing)).toBeInTheDocument();
  });
});
