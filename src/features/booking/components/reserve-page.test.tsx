import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseCustomerHandlers, bookingHandlers, errorBody, signInCustomer } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import {
  BOOKABLE,
  chooseDay,
  chooseService,
  fixWizardClock,
  reachDetails,
  setup,
  SLOTS,
  user,
} from '#tests/setup/wizard-steps';

/** /reserve up to the details step; the confirmation and the booking are in reserve-confirmation.test.tsx. */
fixWizardClock();

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
        return HttpResponse.json([
          { id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90, salon: 1 },
        ]);
      }),
    );
    renderRoute('/reserve');
    expect(await screen.findByText('メニューを読み込み中…')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'メニュー一覧' });
    expect(within(list).getByText('グラデーションジェル')).toBeInTheDocument();
    expect(within(list).getByText('所要時間 1時間半')).toBeInTheDocument();
    expect(within(list).getByText('¥6,600')).toBeInTheDocument();
    expect(screen.getByText('ステップ 1 / 6')).toBeInTheDocument();
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
          : HttpResponse.json([
              { id: 12, name: 'グラデーションジェル', price: '6600', duration_minutes: 90, salon: 1 },
            ]);
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
    server.use(
      http.get('/api/bookable-dates/', () => HttpResponse.json(errorBody('x', 'server_error'), { status: 500 })),
    );
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
    expect(await screen.findByText('2030年5月15日(水)')).toBeInTheDocument();
    const times = within(screen.getByRole('group', { name: '開始時刻' })).getAllByRole('button');
    expect(times.map((button) => button.textContent)).toEqual(['10:00〜11:30', '10:30〜12:00', '14:00〜15:30']);

    await user().click(screen.getByRole('button', { name: '← 日付選択に戻る' }));
    await screen.findByRole('heading', { level: 2, name: '日付を選ぶ' });
    await user().click(screen.getByRole('button', { name: '← メニュー選択に戻る' }));
    await screen.findByRole('heading', { level: 2, name: 'オプション・指名を選ぶ' });
    await user().click(screen.getByRole('button', { name: '← メニュー一覧に戻る' }));
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
    await user().type(screen.getByLabelText(/フリガナ/), 'Yamada');
    await user().clear(screen.getByLabelText(/メールアドレス/));
    await user().type(screen.getByLabelText(/メールアドレス/), 'hanako@');
    await user().clear(screen.getByLabelText(/電話番号/));
    await user().type(screen.getByLabelText(/電話番号/), '+81-90-1234-5678');
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
    // Hiragana furigana and a hyphenated phone number are accepted, and sent as katakana and digits.
    await user().type(screen.getByLabelText(/フリガナ/), 'やまだ　はなこー');
    await user().type(screen.getByLabelText(/メールアドレス/), 'a@example.jp');
    await user().clear(screen.getByLabelText(/電話番号/));
    await user().type(screen.getByLabelText(/電話番号/), '０９０-１２３４-５６７８');
    expect(screen.queryByText(MESSAGES.requiredMissing)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.furiganaKatakana)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.emailInvalid)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.phoneDigits)).not.toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));
    expect(await screen.findByRole('heading', { level: 2, name: '予約内容の確認' })).toBeInTheDocument();
    expect(screen.getByText(/ヤマダ\s*ハナコー/)).toBeInTheDocument();
    expect(screen.getByText(/09012345678/)).toBeInTheDocument();
  });

  it('goes back to the time step', async () => {
    setup();
    await reachDetails();
    await user().click(screen.getByRole('button', { name: '← 時間選択に戻る' }));
    expect(await screen.findByRole('heading', { level: 2, name: '時間を選ぶ' })).toBeInTheDocument();
  });
});
