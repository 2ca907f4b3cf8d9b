import { act, screen, waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { customerConfig, errorBody, RESERVATION_NUMBER, reservationFixture } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { chooseDay, chooseService, fixWizardClock, reachDetails, setup, user } from '#tests/setup/wizard-steps';

/** /reserve's last step: the summary, the booking and what can go wrong with it. */
fixWizardClock();

describe('/reserve wizard: confirmation', () => {
  async function reachConfirmation() {
    await reachDetails();
    await user().click(screen.getByRole('button', { name: '予約内容を確認する' }));
    await screen.findByRole('heading', { level: 2, name: '予約内容の確認' });
    await screen.findByRole('button', { name: '入力内容を修正する' });
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
    expect(
      screen.getByText(
        /ご予約日の2日前（2030年5月13日\(月\) 10:30）までは、予約詳細ページからキャンセル・日時の変更ができます。/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/サロンへ直接ご連絡ください/)).toBeInTheDocument();
    const text = document.querySelector('dl')?.textContent ?? '';
    for (const expected of [
      'グラデーションジェル（1時間半 ¥6,600）',
      '指名なし',
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
      option_ids: [],
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
        HttpResponse.json({
          ...customerConfig,
          settings: { ...customerConfig.settings, cancellation_deadline_days: 0 },
        }),
      ),
    );
    await reachConfirmation();
    expect(
      screen.getByText(
        /ご予約の開始時刻（2030年5月15日\(水\) 10:30）までは、予約詳細ページからキャンセル・日時の変更ができます。/,
      ),
    ).toBeInTheDocument();
  });

  it('says online cancellation is not possible when the chosen start is already inside the deadline', async () => {
    setup();
    // Today is 10 May 10:00 and the start 15 May 10:30: seven days before it is already past.
    server.use(
      http.get('/api/config/', () =>
        HttpResponse.json({
          ...customerConfig,
          settings: { ...customerConfig.settings, cancellation_deadline_days: 7 },
        }),
      ),
    );
    await reachConfirmation();
    expect(
      screen.getByText(
        'このご予約はキャンセル期限（2030年5月8日(水) 10:30）を過ぎているため、オンラインではキャンセルできません。キャンセル・変更の際は、お手数ですがサロンへ直接ご連絡ください。',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/予約詳細ページからキャンセル・日時の変更ができます/)).not.toBeInTheDocument();
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
        HttpResponse.json(errorBody(SERVER_MESSAGES.reservationLimit(3), 'reservation_limit'), { status: 409 }),
      ),
    );
    await reachConfirmation();
    await user().click(screen.getByRole('button', { name: 'この内容で予約する' }));
    expect(
      await screen.findByText(MESSAGES.reservationCreateFailed(SERVER_MESSAGES.reservationLimit(3))),
    ).toBeInTheDocument();
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
