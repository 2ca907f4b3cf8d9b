import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseCustomerHandlers, customerConfig, errorBody } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { LINE_LOGIN_STATE_KEY, lineLoginNavigation } from '#src/lib/line-login';
import { MESSAGES } from '#src/shared/messages';

configure({ asyncUtilTimeout: 5000 });

let navigateTo: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

async function sha256Base64Url(text: string) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

describe('/login', () => {
  it('shows the brand heading and one green LINE button that goes to the authorize URL', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/login');
    expect(await screen.findByRole('heading', { level: 1, name: customerConfig.salon_name })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'LINEでログインして予約する' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);

    await waitFor(() => expect(navigateTo).toHaveBeenCalledTimes(1));
    const url = new URL(String(navigateTo.mock.calls[0]![0]));
    expect(url.pathname).toBe('/dev/line/authorize');
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: '1000000000',
      redirect_uri: `${window.location.origin}/callback`,
      scope: 'openid profile email',
      bot_prompt: 'aggressive',
      code_challenge_method: 'S256',
    });
    // A random base-36 state, kept to be checked on return.
    expect(params.state).toMatch(/^[0-9a-z]{16,}$/);
    expect(window.localStorage.getItem(LINE_LOGIN_STATE_KEY)).toBe(params.state);
    // PKCE: the challenge is the S256 of the verifier kept in this tab's session.
    const verifier = window.sessionStorage.getItem('line_login_code_verifier')!;
    expect(verifier).toMatch(/^[\w-]{43}$/);
    expect(params.code_challenge).toBe(await sha256Base64Url(verifier));
    expect(params.nonce).toBe(window.sessionStorage.getItem('line_login_nonce'));
  });

  it('shows how to reach the salon, the phone as a tap-to-call link', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/login');
    const call = await screen.findByRole('link', { name: /03-1234-5678/ });
    expect(call).toHaveAttribute('href', 'tel:0312345678');
    expect(screen.getByRole('link', { name: '地図を開く' })).toHaveAttribute('href', customerConfig.settings.map_url);
  });

  it('makes a new state for every login', async () => {
    server.use(...baseCustomerHandlers());
    const states: Array<string | null> = [];
    for (let visit = 0; visit < 2; visit += 1) {
      const { unmount } = renderRoute('/login');
      const button = await screen.findByRole('button', { name: 'LINEでログインして予約する' });
      await waitFor(() => expect(button).toBeEnabled());
      await userEvent.click(button);
      await waitFor(() => expect(navigateTo).toHaveBeenCalledTimes(visit + 1));
      states.push(window.localStorage.getItem(LINE_LOGIN_STATE_KEY));
      unmount();
    }
    expect(states[0]).not.toBe(states[1]);
  });

  it('waits for the configuration, and says so when it cannot be loaded', async () => {
    server.use(
      http.get('/api/config/', async () => {
        await delay(30);
        return HttpResponse.json(errorBody(MESSAGES.serverError, 'server_error'), { status: 500 });
      }),
    );
    renderRoute('/login');
    expect(await screen.findByText(MESSAGES.initialLoadFailed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LINEでログインして予約する' })).not.toBeInTheDocument();
  });

  it('shows why the session ended, and a way on when already signed in', async () => {
    server.use(...baseCustomerHandlers());
    window.localStorage.setItem('access_token', 'a');
    window.localStorage.setItem('refresh_token', 'r');
    renderRoute('/login');
    expect(await screen.findByText('ログイン済みです。')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約へ進む' })).toHaveAttribute('href', '/reserve');
  });
});

describe('/login-failed', () => {
  it('links back to the top and to the login', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/login-failed');
    expect(await screen.findByRole('heading', { name: 'ログインに失敗しました' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'もう一度ログインする' })).toHaveAttribute('href', '/login');
  });
});
