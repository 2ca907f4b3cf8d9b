import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseCustomerHandlers, errorBody, profile, signInCustomer } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { useCustomerAuth } from '#src/lib/customer-auth';
import { MESSAGES } from '#src/shared/messages';

configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  vi.restoreAllMocks();
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('customer session', () => {
  it('renders nothing until the startup check of a stored token is done', async () => {
    signInCustomer();
    const answer = gate();
    server.use(
      http.get('/api/me/', async () => {
        await answer.opened;
        return HttpResponse.json(profile);
      }),
      ...baseCustomerHandlers(),
    );
    renderRoute('/manual');
    // The page's lazy modules load while the check is open: still nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('heading', { name: 'ご利用方法' })).not.toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    answer.open();
    expect(await screen.findByRole('heading', { name: 'ご利用方法' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'ログアウト' })).toBeInTheDocument();
  });

  it('refreshes an expired token during the startup check', async () => {
    signInCustomer();
    server.use(
      http.get('/api/me/', ({ request }) =>
        request.headers.get('authorization') === 'Bearer fresh'
          ? HttpResponse.json(profile)
          : HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
      http.post('/api/token/refresh/', () => HttpResponse.json({ access: 'fresh' })),
      ...baseCustomerHandlers(),
    );
    renderRoute('/manual');
    expect(await screen.findByRole('button', { name: 'ログアウト' })).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBe('fresh');
    // No new refresh token in the answer: the old one is kept.
    expect(window.localStorage.getItem('refresh_token')).toBe('customer-refresh');
  });

  it('clears the session and goes to /login when the user cannot be fetched', async () => {
    signInCustomer();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(
      http.get('/api/me/', () =>
        HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
      http.post('/api/token/refresh/', () =>
        HttpResponse.json(errorBody(MESSAGES.tokenNotValid, 'token_not_valid'), { status: 401 }),
      ),
      ...baseCustomerHandlers(),
    );
    const { router } = renderRoute('/manual');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'LINEでログインして予約する' })).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
  });

  it('keeps the session through a network failure of the startup check', async () => {
    signInCustomer();
    server.use(
      http.get('/api/me/', () => HttpResponse.error()),
      ...baseCustomerHandlers(),
    );
    renderRoute('/manual');
    expect(await screen.findByRole('heading', { name: 'ご利用方法' })).toBeInTheDocument();
    expect(window.localStorage.getItem('access_token')).toBe('customer-access');
  });

  it('logs out to /login, clearing tokens and user', async () => {
    signInCustomer();
    server.use(...baseCustomerHandlers());
    const { router } = renderRoute('/manual');
    await userEvent.click(await screen.findByRole('button', { name: 'ログアウト' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(window.localStorage.getItem('access_token')).toBeNull();
    expect(window.localStorage.getItem('refresh_token')).toBeNull();
    expect(screen.queryByRole('button', { name: 'ログアウト' })).not.toBeInTheDocument();
  });

  it('throws a Japanese error when the auth hook is used outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Orphan() {
      useCustomerAuth();
      return null;
    }
    expect(() => render(<Orphan />)).toThrow('useCustomerAuth は CustomerAuthProvider の内側で使用してください。');
  });
});

describe('/manual', () => {
  it('describes customer and staff use and links /check-reservation and /admin', async () => {
    server.use(...baseCustomerHandlers());
    renderRoute('/manual');
    expect(await screen.findByRole('heading', { level: 1, name: 'ご利用方法' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'お客様へ' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'スタッフの方へ' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '予約確認ページ' })).toHaveAttribute('href', '/check-reservation');
    expect(screen.getByRole('link', { name: '管理画面' })).toHaveAttribute('href', '/admin');
  });
});
