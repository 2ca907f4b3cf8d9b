import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseCustomerHandlers, errorBody, RESERVATION_NUMBER, signInCustomer } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { LINE_LOGIN_STATE_KEY, lineLoginNavigation } from '#src/lib/line-login';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { CHECK_PAGE_SENT } from './check-page';

configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  server.use(...baseCustomerHandlers());
});
afterEach(() => {
  vi.restoreAllMocks();
});

function notifyAnswers(...answers: Array<() => Response>) {
  let calls = 0;
  server.use(
    http.post('/api/confirm-reservation-and-notify/', async () => {
      calls += 1;
      await delay(20);
      return answers[Math.min(calls - 1, answers.length - 1)]!();
    }),
  );
  return () => calls;
}

const sent = () =>
  HttpResponse.json({
    detail: 'LINEに予約内容を送信しました。',
    reservation_number: RESERVATION_NUMBER,
    channel: 'line',
  });

describe('/check and /confirm-reservation', () => {
  it.each(['/check', '/check-reservation', '/confirm-reservation'])(
    '%s sends the latest reservation to the LINE chat once, and links its detail',
    async (path) => {
      signInCustomer();
      const calls = notifyAnswers(sent);
      renderRoute(path);
      expect(await screen.findByText('ご予約を確認しています…')).toBeInTheDocument();
      expect(await screen.findByText('LINEに送信しました')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: '予約内容をこの画面で見る' })).toHaveAttribute(
        'href',
        `/reservations/${RESERVATION_NUMBER}`,
      );
      expect(calls()).toBe(1);
    },
  );

  it('says it went by e-mail when the month’s LINE pushes are spent, and never that LINE got it', async () => {
    signInCustomer();
    notifyAnswers(() =>
      HttpResponse.json({
        detail: SERVER_MESSAGES.latestReservationSent.email,
        reservation_number: RESERVATION_NUMBER,
        channel: 'email',
      }),
    );
    renderRoute('/check');
    const title = await screen.findByText('メールで送信しました');
    expect(title.closest('[role="status"]')).toHaveTextContent(CHECK_PAGE_SENT.email.body);
    expect(screen.queryByText('LINEに送信しました')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約内容をこの画面で見る' })).toHaveAttribute(
      'href',
      `/reservations/${RESERVATION_NUMBER}`,
    );
  });

  it('says nothing could be sent when there is neither LINE budget nor an address', async () => {
    signInCustomer();
    notifyAnswers(() =>
      HttpResponse.json({
        detail: SERVER_MESSAGES.latestReservationSent.none,
        reservation_number: RESERVATION_NUMBER,
        channel: 'none',
      }),
    );
    renderRoute('/check');
    expect(await screen.findByText('送信できませんでした')).toBeInTheDocument();
    expect(screen.queryByText('LINEに送信しました')).not.toBeInTheDocument();
    expect(screen.queryByText('メールで送信しました')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約内容をこの画面で見る' })).toBeInTheDocument();
  });

  it('says no reservation was found (404), and that LINE was told', async () => {
    signInCustomer();
    notifyAnswers(() =>
      HttpResponse.json(errorBody(SERVER_MESSAGES.noUpcomingReservation, 'not_found'), { status: 404 }),
    );
    renderRoute('/check');
    expect(await screen.findByText(MESSAGES.notifyNotFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約する' })).toHaveAttribute('href', '/reserve');
  });

  it('shows the SPEC message on other errors, and can send again', async () => {
    signInCustomer();
    const calls = notifyAnswers(
      () => HttpResponse.json(errorBody(MESSAGES.serverError, 'server_error'), { status: 500 }),
      sent,
    );
    renderRoute('/check');
    expect(await screen.findByText(MESSAGES.notifyFailed)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'もう一度送信する' }));
    expect(await screen.findByText('LINEに送信しました')).toBeInTheDocument();
    expect(calls()).toBe(2);
  });

  it.each([
    ['/check', 'check_reservation'],
    ['/check-reservation', 'check_reservation'],
    ['/confirm-reservation', 'confirm_reservation'],
  ])('%s sends a signed-out visitor to the LINE login with state %s', async (path, state) => {
    const navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
    const calls = notifyAnswers(sent);
    renderRoute(path);
    expect(await screen.findByText('LINEのログイン画面へ移動しています…')).toBeInTheDocument();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledTimes(1));
    const url = new URL(String(navigateTo.mock.calls[0]![0]));
    expect(url.searchParams.get('state')).toBe(state);
    expect(window.localStorage.getItem(LINE_LOGIN_STATE_KEY)).toBe(state);
    expect(calls()).toBe(0);
  });
});
