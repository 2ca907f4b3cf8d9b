import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  baseCustomerHandlers,
  bookingHandlers,
  customerConfig,
  errorBody,
  RESERVATION_NUMBER,
  reservationFixture,
  signInCustomer,
} from '../../../../tests/helpers/customer-api-mocks';
import { server } from '../../../../tests/setup/msw-server';
import { renderRoute } from '../../../../tests/setup/render';
import { MESSAGES } from '../../../shared/messages';

// The wizard loads chunks and data step by step; a busy CI machine needs more than the default second.
configure({ asyncUtilTimeout: 5000 });

const BOOKABLE = ['2030-05-14', '2030-05-15', '2030-05-20'];
const SLOTS = { '2030-05-14': [], '2030-05-15': ['10:00', '10:30', '14:00'], '2030-05-20': ['11:00'] };

beforeEach(() => {
  // Only Date is faked: "today" is 10 May 2030 for the calendar; timers and promises run normally.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2030, 4, 10, 10, 0));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setup() {
  signInCustomer();
  server.use(...baseCustomerHandlers(), ...bookingHandlers({ bookable: BOOKABLE, slots: SLOTS }));
}

const user = () => userEvent.setup();

async function chooseService(name = 'グラデーションジェル 1時間半 ¥6,600') {
  await user().click(await screen.findByRole('button', { name }));
  await screen.findByRole('heading', { level: 2, name: '日付を選ぶ' });
}

async function chooseDay(label: string) {
  const day = await screen.findByRole('button', { name: label });
  await waitFor(() => expect(day).toBeEnabled());
  await user().click(day);
}

async function reachDetails() {
  renderRoute('/reserve');
  await chooseService();
  await chooseDay('2030年5月15日（予約できます）');
  await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
  await user().click(await screen.findByRole('button', { name: '10:30' }));
  await screen.findByRole('heading', { level: 2, name: 'お客様情報の入力' });
}

describe('/reserve when signed out', () => {
  it('asks to log in with LINE first and links back to the top', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/reserve');
    expect(await screen.findByText(MESSAGES.loginRequired)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'LINEでログインして予約する' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });
});

describe('/reserve wizard: service step', () => {
  it('shows a loading text, then each menu with its duration text and price in yen', async () => {
    signInCustomer();
    server.use(...baseCustomerHandlers(), ...bookingHandlers({ bookable: BOOKABLE, slots: SLOTS }));
    server.use(
      http.get('/api/services/', async () => {
        await delay(30);
        return HttpResponse.json([{ id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90, salon: 1 }]);
      }),
    );
    renderRoute('/reserve');
    expect(await screen.findByText('メニューを読み込み中…')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'メニュー一覧' });
    expect(within(list).getByText('グラデーションジェル')).toBeInTheDocument();
    expect(within(list).getByText('所要時間 1時間半')).toBeInTheDocument();
    expect(within(list).getByText('¥6,600')).toBeInTheDocument();
    expect(screen.getByText('ステップ 1 / 5')).toBeInTheDocument();
  });

  it('says so when the menu is empty, or not a list at all', async () => {
    setup();
    server.use(http.get('/api/services/', () => HttpResponse.json({ results: [] })));
    renderRoute('/reserve');
    expect(await screen.findByText(MESSAGES.noServices)).toBeInTheDocument();
  });

  it('shows the initial-load failure and loads again on request', async () => {
    setup();
    let calls = 0;
    server.use(
      http.get('/api/services/', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json(errorBody(MESSAGES.serverError, 'server_error'), { status: 500 })
          : HttpResponse.json([{ id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90, salon: 1 }]);
      }),
    );
    renderRoute('/reserve');
    expect(await screen.findByText(MESSAGES.initialLoadFailed)).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: '再読み込み' }));
    expect(await screen.findByText('グラデーションジェル')).toBeInTheDocument();
  });

  it('says the salon was not found when there is none', async () => {
    setup();
    server.use(http.get('/api/salons/', () => HttpResponse.json([])));
    renderRoute('/reserve');
    expect(await screen.findByText(MESSAGES.salonNotFound)).toBeInTheDocument();
  });
});

describe('/reserve wizard: date and time steps', () => {
  it('lets only bookable days be chosen, asks for the chosen service, and greys past days', async () => {
    setup();
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/bookable-dates/', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json(BOOKABLE);
      }),
    );
    renderRoute('/reserve');
    await chooseService();

    expect(await screen.findByRole('button', { name: '2030年5月15日（予約できます）' })).toBeEnabled();
    expect(screen.getByRole('button', { name: '2030年5月12日' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '2030年5月9日' })).toBeDisabled();
    expect(asked[0]?.get('year')).toBe('2030');
    expect(asked[0]?.get('month')).toBe('5');
    expect(asked[0]?.get('service_id')).toBe('12');
    // Weeks start on Sunday, in Japanese.
    const weekdays = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(weekdays.slice(0, 7)).toEqual(['日', '月', '火', '水', '木', '金', '土']);

    await user().click(screen.getByRole('button', { name: '次の月' }));
    await waitFor(() => expect(asked.at(-1)?.get('month')).toBe('6'));
  });

  it('stays on the date step with the SPEC message when the chosen day has no slots', async () => {
    setup();
    renderRoute('/reserve');
    await chooseService();
    await chooseDay('2030年5月14日（予約できます）');
    expect(await screen.findByText(MESSAGES.noSlotsOnDay)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: '日付を選ぶ' })).toBeInTheDocument();
  });

  it('shows the slot-load failure when the day cannot be checked', async () => {
    setup();
    server.use(http.get('/api/availability/', () => HttpResponse.error()));
    renderRoute('/reserve');
    await chooseService();
    await chooseDay('2030年5月15日（予約できます）');
    expect(await screen.findByText(MESSAGES.slotLoadFailed)).toBeInTheDocument();
  });

  it('shows its own message when the bookable days cannot be loaded', async () => {
    setup();
    server.use(http.get('/api/bookable-dates/', () => HttpResponse.json(errorBody('x', 'server_error'), { status: 500 })));
    renderRoute('/reserve');
    await chooseService();
    expect(await screen.findByText(MESSAGES.bookableDatesLoadFailed)).toBeInTheDocument();
  });

  it('says when a month has no bookable day', async () => {
    setup();
    server.use(http.get('/api/bookable-dates/', () => HttpResponse.json([])));
    renderRoute('/reserve');
    await chooseService();
    expect(await screen.findByText(MESSAGES.noBookableDaysInMonth)).toBeInTheDocument();
  });

  it('shows the menu and date with the free times, and goes back step by step', async () => {
    setup();
    renderRoute('/reserve');
    await chooseService();
    await chooseDay('2030年5月15日（予約できます）');
    await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' });
    expect(screen.getByText('2030年5月15日(水)')).toBeInTheDocument();
    const times = within(screen.getByRole('group', { name: '開始時刻' })).getAllByRole('button');
    expect(times.map((button) => button.textContent)).toEqual(['10:00', '10:30', '14:00']);

    await user().click(screen.getByRole('button', { name: '← 日付選択に戻る' }));
    await screen.findByRole('heading', { level: 2, name: '日付を選ぶ' });
    await user().click(screen.getByRole('button', { name: '← メニュー選択に戻る' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'メニューを選ぶ' })).toBeInTheDocument();
  });

  it('after a taken slot, shows a loading text while the times load again, then the empty text', async () => {
    setup();
    let calls = 0;
    server.use(
      http.get('/api/availability/', async () => {
        calls += 1;
        if (calls === 1) return HttpResponse.json(['10:00']);
        await delay(50);
        return HttpResponse.json([]);
      }),
      http.post('/api/reservations/', () =>
        HttpResponse.json(errorBody(MESSAGES.slotUnavailable, 'slot_unavailable'), { status: 409 }),
      ),
    );
    renderRoute('/reserve');
    await chooseService();
    await chooseDay('2030年5月15日（予約できます）');
    await user().click(await screen.findByRole('button', { name: '10:00' }));
    await user().click(await screen.findByRole('button', { name: '予約内容を確認する' }));
    await user().click(await screen.findByRole('button', { name: 'この内容で予約する' }));

    expect(await screen.findByText('予約できる時間を読み込み中…')).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.noSlotsLeft)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.slotUnavailable)).toBeInTheDocument();
  });
});

describe('/reserve wizard: details step', () => {
  it('is prefilled from /api/me/ and shows every SPEC validation message', async () => {
    setup();
    await reachDetails();
    expect(screen.getByLabelText(/お名前/)).toHaveValue('山田 花子');
    expect(screen.getByLabelText(/フリガナ/)).toHaveValue('ヤマダ ハナコ');
    expect(screen.getByLabelText(/メールアドレス/)).toHaveValue('hanako@example.com');
    expect(screen.getByLabelText(/電話番号/)).toHaveValue('09012345678');

    await user().clear(screen.getByLabelText(/お名前/));
    await user().clear(screen.getByLabelText(/フリガナ/));
    await user().type(screen.getByLabelText(/フリガナ/), 'やまだ');
    await user().clear(screen.getByLabelText(/メールアドレス/));
    await user().type(screen.getByLabelText(/メールアドレス/), 'hanako@');
    await user().clear(screen.getByLabelText(/電話番号/));
    await user().type(screen.getByLabelText(/電話番号/), '090-1234-5678');
    await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));

    expect(await screen.findByText(MESSAGES.requiredMissing)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.furiganaKatakana)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.phoneDigits)).toBeInTheDocument();
    expect(screen.getByLabelText(/お名前/)).toHaveFocus();
    expect(screen.getByLabelText(/お名前/)).toHaveAttribute('aria-invalid', 'true');

    // An empty e-mail is the same message: it is required.
    await user().clear(screen.getByLabelText(/メールアドレス/));
    expect(screen.getByText(MESSAGES.emailInvalid)).toBeInTheDocument();

    // Fixing the values clears the messages as they are typed.
    await user().type(screen.getByLabelText(/お名前/), '山田 花子');
    await user().clear(screen.getByLabelText(/フリガナ/));
    await user().type(screen.getByLabelText(/フリガナ/), 'ヤマダ　ハナコー');
    await user().type(screen.getByLabelText(/メールアドレス/), 'a@example.jp');
    await user().clear(screen.getByLabelText(/電話番号/));
    expect(screen.queryByText(MESSAGES.requiredMissing)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.furiganaKatakana)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.emailInvalid)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.phoneDigits)).not.toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));
    expect(await screen.findByRole('heading', { level: 2, name: '予約内容の確認' })).toBeInTheDocument();
    // Phone left empty: shown as not entered.
    expect(screen.getByText('未入力')).toBeInTheDocument();
  });

  it('goes back to the time step', async () => {
    setup();
    await reachDetails();
    await user().click(screen.getByRole('button', { name: '← 時間選択に戻る' }));
    expect(await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' })).toBeInTheDocument();
  });
});

describe('/reserve wizard: confirmation', () => {
  async function reachConfirmation() {
    await reachDetails();
    await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));
    await screen.findByRole('heading', { level: 2, name: '予約内容の確認' });
  }

  it('summarises the booking under the cancellation policy and books once with an Idempotency-Key', async () => {
    setup();
    const posts: Array<{ body: unknown; key: string | null }> = [];
    server.use(
      http.post('/api/reservations/', async ({ request }) => {
        posts.push({ body: await request.json(), key: request.headers.get('idempotency-key') });
        await delay(50);
        return HttpResponse.json(reservationFixture(), { status: 201 });
      }),
    );
    await reachConfirmation();

    expect(screen.getByRole('heading', { name: 'キャンセルポリシー' })).toBeInTheDocument();
    expect(screen.getByText(/ご予約日の2日前までは、予約詳細ページからキャンセルできます。/)).toBeInTheDocument();
    expect(screen.getByText(/サロンへ直接ご連絡ください/)).toBeInTheDocument();
    const text = document.querySelector('dl')?.textContent ?? '';
    for (const expected of [
      'グラデーションジェル（1時間半）',
      '¥6,600',
      '2030年5月15日(水) 10:30〜12:00',
      '山田 花子',
      'ヤマダ ハナコ',
      'hanako@example.com',
      '09012345678',
    ]) {
      expect(text).toContain(expected);
    }

    const submit = screen.getByRole('button', { name: 'この内容で予約する' });
    await user().dblClick(submit);
    await user().click(submit);

    expect(await screen.findByRole('heading', { name: 'ご予約を受け付けました' })).toBeInTheDocument();
    expect(screen.getByText(RESERVATION_NUMBER)).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(posts[0]?.key).toMatch(/^[\w-]{16,}$/);
    expect(posts[0]?.body).toEqual({
      salon: 1,
      service: 12,
      start_time: '2030-05-15T10:30:00',
      customer_name: '山田 花子',
      customer_furigana: 'ヤマダ ハナコ',
      customer_email: 'hanako@example.com',
      customer_phone: '09012345678',
    });
  });

  it('falls back to the detail page for the deadline when the configuration has no settings', async () => {
    setup();
    const { settings: _settings, ...withoutSettings } = customerConfig;
    server.use(http.get('/api/config/', () => HttpResponse.json(withoutSettings)));
    await reachConfirmation();
    expect(screen.getByText(/キャンセル期限はご予約後の予約詳細ページでご確認いただけます。/)).toBeInTheDocument();
  });

  it('says cancellation runs until the start when the deadline is 0 days', async () => {
    setup();
    server.use(
      http.get('/api/config/', () =>
        HttpResponse.json({ ...customerConfig, settings: { ...customerConfig.settings, cancellation_deadline_days: 0 } }),
      ),
    );
    await reachConfirmation();
    expect(screen.getByText(/ご予約の開始時刻までは、予約詳細ページからキャンセルできます。/)).toBeInTheDocument();
  });

  it('edits the input and keeps what was entered', async () => {
    setup();
    await reachConfirmation();
    await user().click(screen.getByRole('button', { name: '入力内容を修正する' }));
    expect(await screen.findByLabelText(/お名前/)).toHaveValue('山田 花子');
  });

  it('sends the user back to fresh times with a clear message when the slot was just taken (409)', async () => {
    setup();
    let availabilityCalls = 0;
    server.use(
      http.get('/api/availability/', () => {
        availabilityCalls += 1;
        return HttpResponse.json(availabilityCalls === 1 ? ['10:00', '10:30', '14:00'] : ['10:00', '14:00']);
      }),
      http.post('/api/reservations/', () =>
        HttpResponse.json(errorBody(MESSAGES.slotUnavailable, 'slot_unavailable'), { status: 409 }),
      ),
    );
    await reachConfirmation();
    await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));

    expect(await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.slotUnavailable)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: '10:30' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: '14:00' })).toBeInTheDocument();
    expect(availabilityCalls).toBeGreaterThanOrEqual(2);
  });

  it('shows the create failure with the server detail', async () => {
    setup();
    server.use(
      http.post('/api/reservations/', () =>
        HttpResponse.json(errorBody(MESSAGES.reservationLimit(3), 'reservation_limit'), { status: 409 }),
      ),
    );
    await reachConfirmation();
    await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));
    expect(await screen.findByText(MESSAGES.reservationCreateFailed(MESSAGES.reservationLimit(3)))).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: '予約内容の確認' })).toBeInTheDocument();
  });

  it('refreshes an expired token silently and books', async () => {
    setup();
    let refreshed = 0;
    server.use(
      http.post('/api/token/refresh/', async ({ request }) => {
        refreshed += 1;
        expect(await request.json()).toEqual({ refresh: 'customer-refresh' });
        return HttpResponse.json({ access: 'new-access', refresh: 'new-refresh' });
      }),
      http.post('/api/reservations/', ({ request }) =>
        request.headers.get('authorization') === 'Bearer new-access'
          ? HttpResponse.json(reservationFixture(), { status: 201 })
          : HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
    );
    await reachConfirmation();
    await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));
    expect(await screen.findByRole('heading', { name: 'ご予約を受け付けました' })).toBeInTheDocument();
    expect(refreshed).toBe(1);
    expect(window.localStorage.getItem('access_token')).toBe('new-access');
    expect(window.localStorage.getItem('refresh_token')).toBe('new-refresh');
  });

  it('logs out to /login saying the session expired when the token cannot be refreshed', async () => {
    setup();
    server.use(
      http.post('/api/token/refresh/', () =>
        HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
      http.post('/api/reservations/', () =>
        HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
    );
    const { router } = await (async () => {
      const rendered = renderRoute('/reserve');
      await chooseService();
      await chooseDay('2030年5月15日（予約できます）');
      await user().click(await screen.findByRole('button', { name: '10:30' }));
      await user().click(await screen.findByRole('button', { name: '予約内容を確認する' }));
      return rendered;
    })();
    await user().click(await screen.findByRole('button', { name: 'この内容で予約する' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(MESSAGES.customerSessionExpired)).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
  });

  it('shows a banner and disables the submit button while offline', async () => {
    setup();
    await reachConfirmation();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText(MESSAGES.offlineNotice)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'この内容で予約する' })).toBeDisabled();

    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByText(MESSAGES.offlineNotice)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'この内容で予約する' })).toBeEnabled();
  });
});
