import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_ACCESS,
  LAZY,
  ADMIN_REFRESH,
  signInAs,
  staffProfile,
  storeAdminTokens,
  superuserProfile,
  testConfig,
} from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { endFakePushBrowser, fakePushBrowser } from '#tests/setup/push-browser';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';

const emptyLists = () =>
  server.use(
    http.get('/api/admin/reservations/', () => HttpResponse.json([])),
    http.get('/api/services/', () => HttpResponse.json([])),
  );

/** The nav inside the fixed sidebar (jsdom has no CSS, so the hidden-on-phone copy is in the DOM too). */
const sidebarNav = () => screen.getAllByRole('navigation', { name: '管理メニュー' })[0]!;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  endFakePushBrowser();
});

describe('admin login (/admin signed out)', () => {
  it('shows the login form on every admin path, with LINE login', async () => {
    server.use(http.get('/api/config/', () => HttpResponse.json(testConfig)));
    renderRoute('/admin/reservations');
    expect(await screen.findByRole('heading', { level: 1, name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
    expect(screen.getByLabelText(/ログインID/)).toBeRequired();
    expect(screen.getByLabelText(/パスワード/, { selector: 'input' })).toBeRequired();
    expect(await screen.findByRole('button', { name: 'LINEでログイン' })).toBeEnabled();
  });

  it('requires both fields before calling the server', async () => {
    server.use(http.get('/api/config/', () => HttpResponse.json(testConfig)));
    const calls = vi.fn();
    server.use(http.post('/api/token/', () => (calls(), HttpResponse.json({}))));
    renderRoute('/admin');
    await userEvent.click(await screen.findByRole('button', { name: 'ログイン' }));
    expect(await screen.findAllByText(MESSAGES.fieldRequired)).toHaveLength(2);
    expect(calls).not.toHaveBeenCalled();
  });

  it('logs in with login ID and password, stores the admin tokens and shows the panel', async () => {
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.post('/api/token/', async ({ request }) => {
        expect(await request.json()).toEqual({ username: 'admin', password: 'secret-password' });
        expect(request.headers.get('authorization')).toBeNull();
        return HttpResponse.json({ access: ADMIN_ACCESS, refresh: ADMIN_REFRESH });
      }),
      http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
      http.get('/api/admin/events/', () => new HttpResponse(null, { status: 204 })),
    );
    emptyLists();
    renderRoute('/admin');
    await userEvent.type(await screen.findByLabelText(/ログインID/), 'admin');
    await userEvent.type(screen.getByLabelText(/パスワード/, { selector: 'input' }), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));

    expect(await screen.findByRole('heading', { level: 1, name: '予約確認' }, LAZY)).toBeInTheDocument();
    expect(window.localStorage.getItem('adminAccessToken')).toBe(ADMIN_ACCESS);
    expect(window.localStorage.getItem('adminRefreshToken')).toBe(ADMIN_REFRESH);
  });

  it('says ユーザー名またはパスワードが違います。 when the login is refused', async () => {
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.post('/api/token/', () =>
        HttpResponse.json({ detail: MESSAGES.passwordLoginFailed, code: 'invalid_credentials' }, { status: 401 }),
      ),
    );
    renderRoute('/admin');
    await userEvent.type(await screen.findByLabelText(/ログインID/), 'admin');
    await userEvent.type(screen.getByLabelText(/パスワード/, { selector: 'input' }), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.passwordLoginFailed);
    expect(window.localStorage.getItem('adminAccessToken')).toBeNull();
  });

  it('treats an answer without both tokens as a failed login', async () => {
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.post('/api/token/', () => HttpResponse.json({ access: 'only-access' })),
    );
    renderRoute('/admin');
    await userEvent.type(await screen.findByLabelText(/ログインID/), 'admin');
    await userEvent.type(screen.getByLabelText(/パスワード/, { selector: 'input' }), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.tokensMissing);
    expect(window.localStorage.getItem('adminAccessToken')).toBeNull();
  });

  it('shows the server message for a throttled login', async () => {
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.post('/api/token/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.tooManyLoginAttempts, code: 'throttled' }, { status: 429 }),
      ),
    );
    renderRoute('/admin');
    await userEvent.type(await screen.findByLabelText(/ログインID/), 'admin');
    await userEvent.type(screen.getByLabelText(/パスワード/, { selector: 'input' }), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(SERVER_MESSAGES.tooManyLoginAttempts);
  });

  it('signs out at start when one of the two tokens is missing', async () => {
    window.localStorage.setItem('adminAccessToken', ADMIN_ACCESS);
    server.use(http.get('/api/config/', () => HttpResponse.json(testConfig)));
    renderRoute('/admin');
    expect(await screen.findByRole('heading', { name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem('adminAccessToken')).toBeNull());
  });
});

describe('admin shell', () => {
  it('shows every sidebar item to a superuser, marks the active one by path prefix, and logs out', async () => {
    signInAs(superuserProfile);
    server.use(
      http.get('/api/admin/reservations/:number/', () =>
        HttpResponse.json({ detail: MESSAGES.reservationNotFound, code: 'not_found' }, { status: 404 }),
      ),
    );
    const { router } = renderRoute('/admin/reservations/abc');
    await screen.findAllByRole('navigation', { name: '管理メニュー' });
    const nav = sidebarNav();
    await waitFor(() => expect(within(nav).getByRole('link', { name: '社員管理' })).toBeInTheDocument());
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      '予約確認',
      '予約台帳',
      '受付時間設定',
      '顧客管理',
      'LINE履歴',
      'メニュー管理',
      '社員管理',
      'レジ締め',
      '商品管理',
      '統計',
      '設定',
    ]);
    expect(within(nav).getByRole('link', { name: '予約確認' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'メニュー管理' })).not.toHaveAttribute('aria-current');
    expect(await screen.findByText(MESSAGES.adminReservationMissing)).toBeInTheDocument();

    // Logging out also revokes the session on the server (best effort), with the stored refresh token, and ends
    // this browser's push subscription: a shared tablet no longer shows the signed-out staff member's notices.
    const refreshToken = window.localStorage.getItem('adminRefreshToken');
    const push = fakePushBrowser({ subscribed: true });
    const revoked: unknown[] = [];
    server.use(
      http.post('/api/admin/logout/', async ({ request }) => {
        revoked.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await userEvent.click(screen.getAllByRole('button', { name: 'ログアウト' })[0]!);
    expect(await screen.findByRole('heading', { name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
    expect(window.localStorage.getItem('adminAccessToken')).toBeNull();
    expect(window.localStorage.getItem('adminRefreshToken')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin');
    await waitFor(() => expect(revoked).toEqual([{ refresh: refreshToken }]));
    await waitFor(() => expect(push.unsubscribe).toHaveBeenCalledTimes(1));
  });

  it('hides 社員管理 and 統計 from ordinary staff, and shows them a 403 page when they open one directly', async () => {
    signInAs(staffProfile);
    emptyLists();
    const { router } = renderRoute('/admin/users');
    expect(await screen.findByRole('heading', { name: MESSAGES.adminForbiddenTitle }, LAZY)).toBeInTheDocument();
    const nav = sidebarNav();
    expect(within(nav).queryByRole('link', { name: '社員管理' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: '統計' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: '顧客管理' })).toBeInTheDocument();

    for (const path of ['/admin/statistics', '/admin/settings', '/admin/users/new', '/admin/users/3']) {
      await router.navigate(path);
      expect(await screen.findByRole('heading', { name: MESSAGES.adminForbiddenTitle }, LAZY)).toBeInTheDocument();
    }
  });

  it('opens the phone drawer from the 64 px top bar; tapping an item navigates and closes it', async () => {
    signInAs(superuserProfile);
    emptyLists();
    const { router } = renderRoute('/admin');
    await userEvent.click(await screen.findByRole('button', { name: 'メニューを開く' }));
    const drawer = await screen.findByRole('dialog', { name: 'メニュー' });
    await userEvent.click(within(drawer).getByRole('link', { name: 'メニュー管理' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'メニュー' })).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/admin/menu');
  });

  it('shows the admin 404 page for an unknown admin path', async () => {
    signInAs(superuserProfile);
    renderRoute('/admin/no-such-page');
    expect(await screen.findByRole('heading', { name: MESSAGES.pageNotFound }, LAZY)).toBeInTheDocument();
  });
});

describe('admin session', () => {
  it('clears the tokens and shows the login when the profile is refused at start, without an alert', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    storeAdminTokens();
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.get('/api/admin/me/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.notAuthenticated, code: 'not_authenticated' }, { status: 401 }),
      ),
      http.get('/api/admin/events/', () => new HttpResponse(null, { status: 204 })),
    );
    emptyLists();
    renderRoute('/admin/reservations');
    expect(await screen.findByRole('heading', { name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
    expect(window.localStorage.getItem('adminAccessToken')).toBeNull();
    expect(alert).not.toHaveBeenCalled();
  });

  it('keeps the session when the profile fails for another reason', async () => {
    storeAdminTokens();
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.get('/api/admin/me/', () =>
        HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }),
      ),
      http.get('/api/admin/events/', () => new HttpResponse(null, { status: 204 })),
    );
    emptyLists();
    renderRoute('/admin');
    expect(await screen.findByRole('heading', { name: '予約確認' }, LAZY)).toBeInTheDocument();
    expect(window.localStorage.getItem('adminAccessToken')).toBe(ADMIN_ACCESS);
  });

  it('refreshes once on token_not_valid and replays the call with the new token', async () => {
    signInAs(superuserProfile);
    const seen: Array<string | null> = [];
    server.use(
      http.get('/api/admin/reservations/', ({ request }) => {
        const auth = request.headers.get('authorization');
        seen.push(auth);
        return auth === 'Bearer fresh-access'
          ? HttpResponse.json([])
          : HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 });
      }),
      http.post('/api/token/refresh/', async ({ request }) => {
        expect(await request.json()).toEqual({ refresh: ADMIN_REFRESH });
        return HttpResponse.json({ access: 'fresh-access', refresh: 'fresh-refresh' });
      }),
      http.get('/api/services/', () => HttpResponse.json([])),
    );
    renderRoute('/admin/reservations');
    expect(await screen.findByText('条件に一致する予約はありません。')).toBeInTheDocument();
    expect(seen).toEqual([`Bearer ${ADMIN_ACCESS}`, 'Bearer fresh-access']);
    expect(window.localStorage.getItem('adminAccessToken')).toBe('fresh-access');
    expect(window.localStorage.getItem('adminRefreshToken')).toBe('fresh-refresh');
  });

  it('clears both tokens and goes to /admin when the refresh is refused', async () => {
    signInAs(superuserProfile);
    server.use(
      http.get('/api/admin/reservations/', () =>
        HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 }),
      ),
      http.post('/api/token/refresh/', () =>
        HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 }),
      ),
      http.get('/api/services/', () => HttpResponse.json([])),
    );
    const { router } = renderRoute('/admin/reservations');
    expect(await screen.findByRole('heading', { name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
    expect(window.localStorage.getItem('adminAccessToken')).toBeNull();
    expect(window.localStorage.getItem('adminRefreshToken')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('checks the session on each path change: a 401 alerts セッションが切れました。再度ログインしてください。 and logs out', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    signInAs(superuserProfile);
    emptyLists();
    let meCalls = 0;
    const { router } = renderRoute('/admin');
    expect(await screen.findByRole('heading', { name: '予約確認' }, LAZY)).toBeInTheDocument();
    server.use(
      http.get('/api/admin/me/', () => {
        meCalls += 1;
        return HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 });
      }),
      http.post('/api/token/refresh/', () =>
        HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 }),
      ),
    );
    await router.navigate('/admin/menu');
    await waitFor(() => expect(alert).toHaveBeenCalledWith(MESSAGES.sessionExpired));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(meCalls).toBe(1);
    expect(await screen.findByRole('heading', { name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('loads the profile again every 15 minutes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    signInAs(superuserProfile);
    emptyLists();
    let meCalls = 0;
    server.use(http.get('/api/admin/me/', () => (meCalls++, HttpResponse.json(superuserProfile))));
    renderRoute('/admin');
    expect(await screen.findByRole('heading', { name: '予約確認' }, LAZY)).toBeInTheDocument();
    await waitFor(() => expect(meCalls).toBe(1));
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    await waitFor(() => expect(meCalls).toBe(2));
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    await waitFor(() => expect(meCalls).toBe(3));
    expect(alert).not.toHaveBeenCalled();
  });
});
