import { configure, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseCustomerHandlers, errorBody, profile } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { LINE_LOGIN_STATE_KEY } from '#src/lib/line-login';
import { MESSAGES } from '#src/shared/messages';
import { loginRetryPolicy } from '../api/line-callback';

configure({ asyncUtilTimeout: 5000 });

const VERIFIER = 'v'.repeat(43);
const NONCE = 'nonce123';

/** What the login page leaves behind before going to LINE. */
function pendingLogin(state: string, extra: Record<string, string> = {}) {
  window.localStorage.setItem(LINE_LOGIN_STATE_KEY, state);
  window.sessionStorage.setItem('line_login_code_verifier', VERIFIER);
  window.sessionStorage.setItem('line_login_nonce', NONCE);
  for (const [key, value] of Object.entries(extra)) window.sessionStorage.setItem(key, value);
}

let waits: number[];
beforeEach(() => {
  waits = [];
  vi.spyOn(loginRetryPolicy, 'wait').mockImplementation(async (ms) => {
    waits.push(ms);
  });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  server.use(
    ...baseCustomerHandlers(),
    // /reserve, where most logins end.
    http.get('/api/salons/', () => HttpResponse.json([{ id: 1, name: 'ネイルサロン 桜' }])),
    http.get('/api/services/', () => HttpResponse.json([])),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

function exchangeAnswers(...answers: Array<() => Response>) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/line/callback/', async ({ request }) => {
      bodies.push(await request.json());
      const next = answers[Math.min(bodies.length - 1, answers.length - 1)]!;
      return next();
    }),
  );
  return bodies;
}

const ok = () => HttpResponse.json({ access: 'new-access', refresh: 'new-refresh' });
const serverError = () => HttpResponse.json(errorBody(MESSAGES.lineLoginFailed, 'line_unavailable'), { status: 502 });

describe('/callback', () => {
  it('goes to /login-failed without a code', async () => {
    pendingLogin('abc123');
    const { router } = renderRoute('/callback?state=abc123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-failed'));
    expect(await screen.findByText(MESSAGES.loginFailedPage)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'トップページへ戻る' })).toHaveAttribute('href', '/');
  });

  it('refuses a state this browser did not store', async () => {
    pendingLogin('abc123');
    const bodies = exchangeAnswers(ok);
    const { router } = renderRoute('/callback?code=c1&state=someone-else');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-failed'));
    expect(bodies).toHaveLength(0);
    expect(window.localStorage.getItem(LINE_LOGIN_STATE_KEY)).toBeNull();
  });

  it('exchanges the code with the PKCE verifier, nonce and redirect URI, stores the tokens and goes to /reserve', async () => {
    pendingLogin('abc123');
    const bodies = exchangeAnswers(ok);
    server.use(
      http.get('/api/me/', ({ request }) =>
        request.headers.get('authorization') === 'Bearer new-access'
          ? HttpResponse.json(profile)
          : HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
    );
    const { router } = renderRoute('/callback?code=c1&state=abc123');

    expect(await screen.findByText('LINEの認証結果を確認しています…')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/reserve'));
    expect(bodies).toEqual([
      { code: 'c1', code_verifier: VERIFIER, nonce: NONCE, redirect_uri: `${window.location.origin}/callback` },
    ]);
    expect(window.localStorage.getItem('access_token')).toBe('new-access');
    expect(window.localStorage.getItem('refresh_token')).toBe('new-refresh');
    // Used once: nothing of the login stays behind.
    expect(window.localStorage.getItem(LINE_LOGIN_STATE_KEY)).toBeNull();
    expect(window.sessionStorage.getItem('line_login_code_verifier')).toBeNull();
    expect(await screen.findByRole('button', { name: 'ログアウト' })).toBeInTheDocument();
    expect(waits).toEqual([]);
  });

  it.each([
    ['check_reservation', '/check'],
    ['confirm_reservation', '/confirm-reservation'],
  ])('routes state %s to %s', async (state, target) => {
    pendingLogin(state);
    exchangeAnswers(ok);
    server.use(
      http.post('/api/confirm-reservation-and-notify/', () =>
        HttpResponse.json({ detail: 'LINEに予約内容を送信しました。', reservation_number: 'x' }),
      ),
    );
    const { router } = renderRoute(`/callback?code=c1&state=${state}`);
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('returns to the page that started the login', async () => {
    pendingLogin('abc123', { line_login_return_to: '/reservations/5b0f3c4e-8a51-4c1e-9d0e-2f7a9a6b1c3d' });
    exchangeAnswers(ok);
    server.use(
      http.get('/api/reservations/:number/', () => HttpResponse.json(errorBody('x', 'not_found'), { status: 404 })),
    );
    const { router } = renderRoute('/callback?code=c1&state=abc123');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/reservations/5b0f3c4e-8a51-4c1e-9d0e-2f7a9a6b1c3d'),
    );
  });

  it('retries network errors and 5xx with waits of 2 s and 4 s, and succeeds on the third attempt', async () => {
    pendingLogin('abc123');
    const bodies = exchangeAnswers(() => HttpResponse.error(), serverError, ok);
    const { router } = renderRoute('/callback?code=c1&state=abc123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/reserve'));
    expect(bodies).toHaveLength(3);
    expect(waits).toEqual([2000, 4000]);
  });

  it('gives up after three failed attempts: no tokens, /login-failed', async () => {
    pendingLogin('abc123');
    window.localStorage.setItem('access_token', 'old');
    const bodies = exchangeAnswers(serverError);
    const { router } = renderRoute('/callback?code=c1&state=abc123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-failed'));
    expect(bodies).toHaveLength(3);
    expect(waits).toEqual([2000, 4000]);
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('does not retry a refused code (4xx)', async () => {
    pendingLogin('abc123');
    const bodies = exchangeAnswers(() =>
      HttpResponse.json(errorBody(MESSAGES.lineLoginFailed, 'line_login_failed'), { status: 401 }),
    );
    const { router } = renderRoute('/callback?code=c1&state=abc123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-failed'));
    expect(bodies).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('counts an answer without both tokens as a failed attempt', async () => {
    pendingLogin('abc123');
    const warn = vi.mocked(console.warn);
    const bodies = exchangeAnswers(() => HttpResponse.json({ access: 'only-access' }));
    const { router } = renderRoute('/callback?code=c1&state=abc123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-failed'));
    expect(bodies).toHaveLength(3);
    expect(warn.mock.calls.some((call) => String(call[1]).includes(MESSAGES.tokensMissing))).toBe(true);
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('fails the login when the user cannot be loaded after the exchange', async () => {
    pendingLogin('abc123');
    exchangeAnswers(ok);
    server.use(http.get('/api/me/', () => HttpResponse.json(errorBody('x', 'not_found'), { status: 404 })));
    const { router } = renderRoute('/callback?code=c1&state=abc123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-failed'));
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });
});

describe('/callback for /link-customer/{token}', () => {
  function linkAnswers(answer: () => Response) {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/link-customer/', async ({ request }) => {
        bodies.push(await request.json());
        return answer();
      }),
    );
    return bodies;
  }

  it('links the LINE account, signs in and says so on /reserve', async () => {
    pendingLogin('link_customer', { line_link_customer_token: 'tok-1' });
    const bodies = linkAnswers(ok);
    const { router } = renderRoute('/callback?code=c9&state=link_customer');
    await waitFor(() => expect(router.state.location.pathname).toBe('/reserve'));
    expect(bodies).toEqual([
      {
        token: 'tok-1',
        code: 'c9',
        code_verifier: VERIFIER,
        nonce: NONCE,
        redirect_uri: `${window.location.origin}/callback`,
      },
    ]);
    expect(await screen.findByText(MESSAGES.linkDone)).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBe('new-access');
  });

  it.each([
    [400, MESSAGES.customerLinkInvalid],
    [409, MESSAGES.lineLinkedToOtherCustomer],
  ])('shows the server detail of a %i', async (status, detail) => {
    pendingLogin('link_customer', { line_link_customer_token: 'tok-1' });
    const bodies = linkAnswers(() => HttpResponse.json(errorBody(detail, 'x'), { status }));
    renderRoute('/callback?code=c9&state=link_customer');
    expect(await screen.findByRole('heading', { name: MESSAGES.linkFailed })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(detail);
    expect(bodies).toHaveLength(1);
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });
});
