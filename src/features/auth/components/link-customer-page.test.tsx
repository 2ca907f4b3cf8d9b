import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseCustomerHandlers, errorBody } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { LINE_LOGIN_STATE_KEY, lineLoginNavigation } from '#src/lib/line-login';
import { MESSAGES } from '#src/shared/messages';

configure({ asyncUtilTimeout: 5000 });

let navigateTo: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  navigateTo = vi.spyOn(lineLoginNavigation, 'navigateTo').mockImplementation(() => {});
  server.use(...baseCustomerHandlers());
});
afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('/link-customer/{token}', () => {
  it('checks the token, then starts the LINE login that links the account', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/link-customer/:token/', async ({ params }) => {
        asked.push(String(params.token));
        await delay(30);
        return HttpResponse.json({ valid: true, expires_at: '2030-05-17T10:00:00' });
      }),
    );
    renderRoute('/link-customer/tok-123');
    expect(await screen.findByText('リンクを確認しています…')).toBeInTheDocument();
    expect(await screen.findByText('このリンクの有効期限: 2030年5月17日(金) 10:00')).toBeInTheDocument();
    expect(asked).toEqual(['tok-123']);

    const button = screen.getByRole('button', { name: 'LINEでログインして連携する' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(navigateTo).toHaveBeenCalledTimes(1));
    const url = new URL(String(navigateTo.mock.calls[0]![0]));
    expect(url.searchParams.get('state')).toBe('link_customer');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/callback`);
    expect(window.localStorage.getItem(LINE_LOGIN_STATE_KEY)).toBe('link_customer');
    expect(window.sessionStorage.getItem('line_link_customer_token')).toBe('tok-123');
  });

  it('says a used or expired link is invalid (404) and offers no login', async () => {
    server.use(
      http.get('/api/link-customer/:token/', () =>
        HttpResponse.json(errorBody(MESSAGES.customerLinkInvalid, 'not_found'), { status: 404 }),
      ),
    );
    renderRoute('/link-customer/old');
    expect(await screen.findByText(MESSAGES.customerLinkInvalid)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LINEでログインして連携する' })).not.toBeInTheDocument();
  });

  it('shows a load failure with a retry', async () => {
    let calls = 0;
    server.use(
      http.get('/api/link-customer/:token/', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.error()
          : HttpResponse.json({ valid: true, expires_at: '2030-05-17T10:00:00' });
      }),
    );
    renderRoute('/link-customer/tok-123');
    expect(await screen.findByText(MESSAGES.initialLoadFailed)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '再読み込み' }));
    expect(await screen.findByRole('button', { name: 'LINEでログインして連携する' })).toBeInTheDocument();
  });

  it('says the link is invalid without a token', async () => {
    renderRoute('/link-customer');
    expect(await screen.findByText(MESSAGES.customerLinkInvalid)).toBeInTheDocument();
  });
});
