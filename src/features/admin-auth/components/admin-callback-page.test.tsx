import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAZY, superuserProfile, testConfig } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { lineLoginNavigation } from '#src/lib/line-login';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { REGISTRATION_TOKEN_KEY } from '../line-authorize';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  window.sessionStorage.clear();
});

function signedInPanel() {
  server.use(
    http.get('/api/admin/me/', () => HttpResponse.json(superuserProfile)),
    http.get('/api/config/', () => HttpResponse.json(testConfig)),
    http.get('/api/admin/events/', () => new HttpResponse(null, { status: 204 })),
    http.get('/api/admin/reservations/', () => HttpResponse.json([])),
  );
}

describe('/admin/callback', () => {
  it('state admin_login: exchanges the code (with the PKCE verifier) and opens the panel', async () => {
    window.sessionStorage.setItem('admin_line_code_verifier', 'v'.repeat(43));
    window.sessionStorage.setItem('admin_line_nonce', 'nonce-1');
    signedInPanel();
    server.use(
      http.post('/api/admin/login-line/', async ({ request }) => {
        expect(await request.json()).toEqual({
          code: 'code-1',
          code_verifier: 'v'.repeat(43),
          nonce: 'nonce-1',
          redirect_uri: `${window.location.origin}/admin/callback`,
        });
        return HttpResponse.json({ access: 'line-access', refresh: 'line-refresh' });
      }),
    );
    const { router } = renderRoute('/admin/callback?code=code-1&state=admin_login');
    expect(await screen.findByRole('heading', { name: '予約確認' }, LAZY)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(window.localStorage.getItem('adminAccessToken')).toBe('line-access');
    expect(window.localStorage.getItem('adminRefreshToken')).toBe('line-refresh');
    expect(window.sessionStorage.getItem('admin_line_code_verifier')).toBeNull();
  });

  it('state admin_login: a refused login shows the server message and returns to /admin after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(
      http.get('/api/config/', () => HttpResponse.json(testConfig)),
      http.post('/api/admin/login-line/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.staffLineNotLinked, code: 'line_not_linked' }, { status: 401 }),
      ),
    );
    const { router } = renderRoute('/admin/callback?code=code-2&state=admin_login');
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(SERVER_MESSAGES.staffLineNotLinked);
    expect(router.state.location.pathname).toBe('/admin/callback');
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(router.state.location.pathname).toBe('/admin/callback');
    await act(() => vi.advanceTimersByTimeAsync(200));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('heading', { name: 'スタッフログイン' }, LAZY)).toBeInTheDocument();
  });

  it('state admin_link: sends the stored registration token with the code, signs in and forgets the token', async () => {
    window.sessionStorage.setItem(REGISTRATION_TOKEN_KEY, TOKEN);
    signedInPanel();
    server.use(
      http.post('/api/admin/link-line/', async ({ request }) => {
        expect(await request.json()).toMatchObject({ token: TOKEN, code: 'code-3' });
        return HttpResponse.json({ access: 'linked-access', refresh: 'linked-refresh' });
      }),
    );
    renderRoute('/admin/callback?code=code-3&state=admin_link');
    expect(await screen.findByRole('heading', { name: '予約確認' }, LAZY)).toBeInTheDocument();
    expect(window.localStorage.getItem('adminAccessToken')).toBe('linked-access');
    expect(window.sessionStorage.getItem(REGISTRATION_TOKEN_KEY)).toBeNull();
  });

  it('state admin_link: shows the server error, else アカウントの連携に失敗しました。', async () => {
    window.sessionStorage.setItem(REGISTRATION_TOKEN_KEY, TOKEN);
    server.use(
      http.post('/api/admin/link-line/', () =>
        HttpResponse.json({ detail: SERVER_MESSAGES.lineLinkedToOtherStaff, code: 'conflict' }, { status: 409 }),
      ),
    );
    renderRoute('/admin/callback?code=code-4&state=admin_link');
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(SERVER_MESSAGES.lineLinkedToOtherStaff);
  });

  it('state admin_link without a network answer falls back to アカウントの連携に失敗しました。', async () => {
    window.sessionStorage.setItem(REGISTRATION_TOKEN_KEY, TOKEN);
    server.use(http.post('/api/admin/link-line/', () => new HttpResponse('<html>bad gateway</html>', { status: 502 })));
    renderRoute('/admin/callback?code=code-5&state=admin_link');
    // A body without our error shape still gets a Japanese sentence from the client; with none the SPEC text shows.
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(
      /サーバーでエラーが発生しました|アカウントの連携に失敗しました。/,
    );
  });

  it('state admin_link without a stored registration token says the registration session is missing', async () => {
    renderRoute('/admin/callback?code=code-6&state=admin_link');
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminRegistrationSessionMissing);
  });

  it('without a code: 認証に失敗しました。もう一度お試しください。', async () => {
    renderRoute('/admin/callback?state=admin_login&error=access_denied');
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminAuthFailed);
  });

  it('any other state is an invalid request', async () => {
    renderRoute('/admin/callback?code=code-7&state=check_reservation');
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminInvalidRequest);
  });
});

describe('/register-line/{token}', () => {
  it('keeps the token in the browser session and goes to LINE with state admin_link and /admin/callback', async () => {
    const navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
    server.use(http.get('/api/config/', () => HttpResponse.json(testConfig)));
    renderRoute(`/register-line/${TOKEN}`);
    await waitFor(() => expect(navigateTo).toHaveBeenCalledTimes(1));
    const url = new URL(navigateTo.mock.calls[0]![0]);
    expect(url.pathname).toBe('/dev/line/authorize');
    expect(url.searchParams.get('state')).toBe('admin_link');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/admin/callback`);
    expect(url.searchParams.get('client_id')).toBe(testConfig.line.login_channel_id);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('profile openid');
    expect(window.sessionStorage.getItem(REGISTRATION_TOKEN_KEY)).toBe(TOKEN);
    expect(screen.getByRole('status')).toHaveTextContent('LINEの認証ページへ移動しています');
  });

  it('without a token says the URL is invalid', async () => {
    server.use(http.get('/api/config/', () => HttpResponse.json(testConfig)));
    renderRoute('/register-line');
    expect(await screen.findByRole('alert', {}, LAZY)).toHaveTextContent(MESSAGES.adminRegisterLinkInvalid);
  });
});

describe('LINE login from the admin login screen', () => {
  it('goes to LINE with state admin_login', async () => {
    const navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
    server.use(http.get('/api/config/', () => HttpResponse.json(testConfig)));
    renderRoute('/admin');
    const button = await screen.findByRole('button', { name: 'LINEでログイン' });
    await waitFor(() => expect(button).toBeEnabled());
    button.click();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledTimes(1));
    const url = new URL(navigateTo.mock.calls[0]![0]);
    expect(url.searchParams.get('state')).toBe('admin_login');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/admin/callback`);
  });
});
