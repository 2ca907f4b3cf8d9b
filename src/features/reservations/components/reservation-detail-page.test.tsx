import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  baseCustomerHandlers,
  errorBody,
  RESERVATION_NUMBER,
  reservationFixture,
  signInCustomer,
  signInStaff,
} from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { lineLoginNavigation } from '#src/lib/line-login';
import type { ReservationStatus } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';

configure({ asyncUtilTimeout: 5000 });

const PATH = `/reservations/${RESERVATION_NUMBER}`;

beforeEach(() => {
  server.use(...baseCustomerHandlers());
});
afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

/** Answers the app's confirmation dialog (a Mantine modal named 確認). */
async function answer(question: string, button: string) {
  const dialog = await screen.findByRole('dialog', { name: '確認' });
  expect(dialog).toHaveTextContent(question);
  await userEvent.click(within(dialog).getByRole('button', { name: button }));
}

function serve(reservation: Reservation | (() => Response), seen: string[] = []) {
  server.use(
    http.get('/api/reservations/:number/', async ({ request, params }) => {
      seen.push(`${String(params.number)} ${request.headers.get('authorization') ?? ''}`);
      await delay(20);
      return typeof reservation === 'function' ? reservation() : HttpResponse.json(reservation);
    }),
  );
  return seen;
}

describe('/reservations/{number} for a customer', () => {
  it('shows a loading text, then every field and the status badge', async () => {
    signInCustomer();
    const seen = serve(reservationFixture({ customer_phone: '' }));
    renderRoute(PATH);
    expect(await screen.findByText('予約情報を読み込み中…')).toBeInTheDocument();
    await screen.findByText('グラデーションジェル');
    const list = document.querySelector('dl')!;
    const text = list.textContent ?? '';
    for (const expected of [
      RESERVATION_NUMBER,
      'K7M4Q9TX',
      'ネイルサロン 桜',
      '¥6,600',
      '90分',
      '日時2030年5月20日(月) 10:00〜11:30',
      '山田 花子',
      'hanako@example.com',
    ]) {
      expect(text).toContain(expected);
    }
    // Phone not given: "none".
    expect(within(list).getByText('なし')).toBeInTheDocument();
    expect(screen.getByText('保留中')).toBeInTheDocument();
    expect(screen.getByText('2030年5月18日(土) 10:00')).toBeInTheDocument();
    expect(seen).toEqual([`${RESERVATION_NUMBER} Bearer customer-access`]);
    // Customers never confirm (docs/architecture.md#statuses-and-transitions).
    expect(screen.queryByRole('button', { name: '予約を確定する' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '予約をキャンセルする' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '戻る' })).toBeInTheDocument();
  });

  it.each<[ReservationStatus, string, string]>([
    ['pending', '保留中', 'yellow'],
    ['confirmed', '確定', 'green'],
    ['cancelled', 'キャンセル', 'red'],
    ['completed', '完了', 'gray'],
    ['no_show', '無断欠席', 'gray'],
  ])('shows %s as %s in %s', async (status, label, colour) => {
    signInCustomer();
    serve(reservationFixture({ status, can_cancel: status === 'pending' || status === 'confirmed' }));
    renderRoute(PATH);
    const badge = await screen.findByText(label, { selector: '[data-status] *, [data-status]' });
    const root = badge.closest('[data-status]') as HTMLElement;
    expect(root.dataset.status).toBe(status);
    expect(root.getAttribute('style')).toContain(`--mantine-color-${colour}-`);
    const cancellable = status === 'pending' || status === 'confirmed';
    expect(Boolean(screen.queryByRole('button', { name: '予約をキャンセルする' }))).toBe(cancellable);
  });

  it('hides cancel after the deadline, and says why with the deadline', async () => {
    signInCustomer();
    serve(reservationFixture({ status: 'confirmed', can_cancel: false }));
    renderRoute(PATH);
    expect(await screen.findByText(MESSAGES.cancellationDeadlinePassed)).toBeInTheDocument();
    expect(screen.getByText('2030年5月18日(土) 10:00')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '予約をキャンセルする' })).not.toBeInTheDocument();
  });

  it('cancels after asking in the app’s dialog (not the browser’s confirm) and goes to /cancellation-complete', async () => {
    signInCustomer();
    serve(reservationFixture());
    let cancelled = 0;
    server.use(
      http.post('/api/reservations/:number/cancel/', () => {
        cancelled += 1;
        return HttpResponse.json(reservationFixture({ status: 'cancelled', can_cancel: false }));
      }),
    );
    const browserConfirm = vi.spyOn(window, 'confirm');
    const { router } = renderRoute(PATH);
    await userEvent.click(await screen.findByRole('button', { name: '予約をキャンセルする' }));
    await answer(MESSAGES.adminCancelQuestion, 'キャンセルする');
    await waitFor(() => expect(router.state.location.pathname).toBe('/cancellation-complete'));
    expect(browserConfirm).not.toHaveBeenCalled();
    expect(cancelled).toBe(1);
    expect(await screen.findByRole('heading', { name: 'キャンセルが完了しました' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('does nothing when the confirmation is declined', async () => {
    signInCustomer();
    serve(reservationFixture());
    let cancelled = 0;
    server.use(
      http.post('/api/reservations/:number/cancel/', () => {
        cancelled += 1;
        return HttpResponse.json(reservationFixture({ status: 'cancelled' }));
      }),
    );
    renderRoute(PATH);
    await userEvent.click(await screen.findByRole('button', { name: '予約をキャンセルする' }));
    await answer(MESSAGES.adminCancelQuestion, '戻る');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cancelled).toBe(0);
    expect(screen.getByRole('button', { name: '予約をキャンセルする' })).toBeInTheDocument();
  });

  it('shows the cancel failure with the server reason, and reloads the reservation', async () => {
    signInCustomer();
    let reads = 0;
    serve(() => {
      reads += 1;
      return HttpResponse.json(reservationFixture({ can_cancel: reads === 1 }));
    });
    server.use(
      http.post('/api/reservations/:number/cancel/', () =>
        HttpResponse.json(errorBody(MESSAGES.cancellationDeadlinePassed, 'cancellation_deadline_passed'), {
          status: 403,
        }),
      ),
    );
    renderRoute(PATH);
    await userEvent.click(await screen.findByRole('button', { name: '予約をキャンセルする' }));
    await answer(MESSAGES.adminCancelQuestion, 'キャンセルする');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.customerCancelFailed);
    expect(alert).toHaveTextContent(MESSAGES.cancellationDeadlinePassed);
    await waitFor(() => expect(screen.queryByRole('button', { name: '予約をキャンセルする' })).not.toBeInTheDocument());
    expect(reads).toBe(2);
  });

  it('says the reservation was not found (404)', async () => {
    signInCustomer();
    serve(() => HttpResponse.json(errorBody(MESSAGES.reservationNotFound, 'not_found'), { status: 404 }));
    renderRoute(PATH);
    expect(await screen.findByText(MESSAGES.reservationNotFound)).toBeInTheDocument();
  });

  it('says the reservation could not be fetched, and can try again', async () => {
    signInCustomer();
    let reads = 0;
    serve(() => {
      reads += 1;
      return reads === 1 ? HttpResponse.error() : HttpResponse.json(reservationFixture());
    });
    renderRoute(PATH);
    expect(await screen.findByText(MESSAGES.reservationFetchFailed)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(await screen.findByText('グラデーションジェル')).toBeInTheDocument();
  });

  it('shows the customer’s list on /reservations, not a missing number', async () => {
    signInCustomer();
    server.use(http.get('/api/reservations/', () => HttpResponse.json({ upcoming: [], past: [] })));
    renderRoute('/reservations');
    expect(await screen.findByRole('heading', { level: 1, name: '予約一覧' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.reservationNumberMissing)).not.toBeInTheDocument();
  });

  it('offers 前回と同じで予約 on a completed visit, linking to the wizard with its number', async () => {
    signInCustomer();
    serve(reservationFixture({ status: 'completed', can_cancel: false }));
    renderRoute(PATH);
    const link = await screen.findByRole('link', { name: '前回と同じで予約' });
    expect(link).toHaveAttribute('href', `/reserve?rebook=${RESERVATION_NUMBER}`);
  });

  it('lets the customer stop 再来店のご案内 from a completed visit (the page the LINE message links to)', async () => {
    signInCustomer();
    serve(reservationFixture({ status: 'completed', can_cancel: false }));
    const puts: unknown[] = [];
    server.use(
      http.put('/api/me/rebook-prompts/', async ({ request }) => {
        const body = (await request.json()) as { enabled: boolean };
        puts.push(body);
        return HttpResponse.json(body);
      }),
    );
    renderRoute(PATH);
    // Mantine's label wraps the description too: the name starts with the label.
    const toggle = await screen.findByRole('switch', { name: /^再来店のご案内をLINEで受け取る/ });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(puts).toEqual([{ enabled: false }]));
    await waitFor(() => expect(toggle).not.toBeChecked());
  });

  it('does not offer 前回と同じで予約 on a booking still to come', async () => {
    signInCustomer();
    serve(reservationFixture({ status: 'confirmed' }));
    renderRoute(PATH);
    await screen.findByText('グラデーションジェル');
    expect(screen.queryByRole('link', { name: '前回と同じで予約' })).not.toBeInTheDocument();
  });

  it('asks a signed-out visitor to log in with LINE and comes back here afterwards', async () => {
    const navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
    renderRoute(PATH);
    expect(await screen.findByText(MESSAGES.loginRequiredForDetail)).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'LINEでログインして確認する' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(navigateTo).toHaveBeenCalled());
    expect(window.sessionStorage.getItem('line_login_return_to')).toBe(PATH);
  });
});

describe('/reservations/{number}?t=… opened from the e-mail link', () => {
  const SECRET = '0123456789abcdef0123456789abcdef';
  function serveLink(seen: string[] = []) {
    server.use(
      http.get('/api/reservations/:number/by-link/', ({ request, params }) => {
        const secret = new URL(request.url).searchParams.get('t');
        seen.push(`${String(params.number)} ${secret} ${request.headers.get('authorization') ?? ''}`);
        return secret === SECRET
          ? HttpResponse.json(reservationFixture({ status: 'confirmed', can_cancel: false }))
          : HttpResponse.json(errorBody(MESSAGES.reservationLinkInvalid, 'not_found'), { status: 404 });
      }),
    );
    return seen;
  }

  it('shows a front-desk booking read-only without signing in', async () => {
    const seen = serveLink();
    renderRoute(`${PATH}?t=${SECRET}`);
    expect(await screen.findByText('グラデーションジェル')).toBeInTheDocument();
    expect(seen).toEqual([`${RESERVATION_NUMBER} ${SECRET} `]);
    expect(screen.getByText(/このページはメールのリンクから表示しています/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '予約をキャンセルする' })).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.loginRequiredForDetail)).not.toBeInTheDocument();
  });

  it('falls back to the link when the signed-in LINE account is not the booking’s customer', async () => {
    signInCustomer();
    serve(() => HttpResponse.json(errorBody(MESSAGES.reservationNotFound, 'not_found'), { status: 404 }));
    const seen = serveLink();
    renderRoute(`${PATH}?t=${SECRET}`);
    expect(await screen.findByText('グラデーションジェル')).toBeInTheDocument();
    expect(seen).toHaveLength(1);
    expect(screen.queryByText(MESSAGES.reservationNotFound)).not.toBeInTheDocument();
  });

  it('says the link is invalid or expired and offers LINE login', async () => {
    serveLink();
    renderRoute(`${PATH}?t=wrong`);
    expect(await screen.findByText(MESSAGES.reservationLinkInvalid)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'LINEでログインして確認する' })).toBeInTheDocument();
  });
});

describe('/reservations/{number} for staff signed in on this browser', () => {
  it('reads with the staff token and offers confirm while pending', async () => {
    signInStaff();
    let confirmed = '';
    const seen = serve(() => HttpResponse.json(reservationFixture({ status: confirmed ? 'confirmed' : 'pending' })));
    server.use(
      http.post('/api/reservations/:number/confirm/', ({ request }) => {
        confirmed = request.headers.get('authorization') ?? '';
        return HttpResponse.json(reservationFixture({ status: 'confirmed' }));
      }),
    );
    renderRoute(PATH);
    await userEvent.click(await screen.findByRole('button', { name: '予約を確定する' }));
    await answer(MESSAGES.adminConfirmQuestion, '確定する');
    expect(await screen.findByText('確定')).toBeInTheDocument();
    expect(confirmed).toBe('Bearer staff-access');
    expect(seen[0]).toBe(`${RESERVATION_NUMBER} Bearer staff-access`);
    // Reloaded afterwards (docs/screens.md#customer-reservation-detail): a second read, and no confirm button for a confirmed reservation.
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(screen.queryByRole('button', { name: '予約を確定する' })).not.toBeInTheDocument();
  });

  it('shows the confirm failure', async () => {
    signInStaff();
    serve(reservationFixture());
    server.use(
      http.post('/api/reservations/:number/confirm/', () =>
        HttpResponse.json(errorBody(MESSAGES.serverError, 'server_error'), { status: 500 }),
      ),
    );
    renderRoute(PATH);
    await userEvent.click(await screen.findByRole('button', { name: '予約を確定する' }));
    await answer(MESSAGES.adminConfirmQuestion, '確定する');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.customerConfirmFailed);
  });

  it('offers no confirm once confirmed', async () => {
    signInStaff();
    serve(reservationFixture({ status: 'confirmed' }));
    renderRoute(PATH);
    expect(await screen.findByText('確定')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '予約を確定する' })).not.toBeInTheDocument();
  });
});
