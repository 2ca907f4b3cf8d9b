import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { LAZY, signInAs, staffProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderRoute, renderWithProviders } from '#tests/setup/render';
import type { LineUsage } from '#src/shared/schemas/settings';
import { LINE_BUDGET_BANNER, LineBudgetBanner } from './line-budget-banner';

/** GET /api/admin/line-usage/ answers `usage`; returns how often it was asked. */
function serveLineUsage(usage: Partial<LineUsage>) {
  let calls = 0;
  server.use(
    http.get('/api/admin/line-usage/', () => {
      calls += 1;
      return HttpResponse.json({ month: '2030-01', pushes_sent: 0, limit: 200, ...usage });
    }),
  );
  return () => calls;
}

describe('the LINE budget banner of the staff app', () => {
  it('warns on every staff screen at the limit that customer notices go by e-mail', async () => {
    signInAs(staffProfile);
    server.use(
      http.get('/api/admin/reservations/', () => HttpResponse.json([])),
      http.get('/api/services/', () => HttpResponse.json([])),
    );
    serveLineUsage({ pushes_sent: 1000, limit: 1000 });
    renderRoute('/admin');
    const alert = await screen.findByText(LINE_BUDGET_BANNER.reached(1000), {}, LAZY);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(alert).toHaveTextContent(
      '今月のLINE送信数が上限（1,000通）に達しました。お客様への通知はメールで送信しています。',
    );
  });

  it('gives a softer notice from 90 % of the limit', async () => {
    serveLineUsage({ pushes_sent: 180, limit: 200 });
    renderWithProviders(<LineBudgetBanner />);
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(LINE_BUDGET_BANNER.near(180, 200));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['below 90 %', { pushes_sent: 179, limit: 200 }],
    ['a plan without a limit', { pushes_sent: 5000, limit: 0 }],
  ])('shows nothing %s', async (_, usage) => {
    const calls = serveLineUsage(usage);
    renderWithProviders(<LineBudgetBanner />);
    await waitFor(() => expect(calls()).toBe(1));
    // Give the answer a moment to render: still nothing.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/今月のLINE送信数/)).not.toBeInTheDocument();
  });

  it('shows nothing while the count is unknown (offline or an error), without an error on screen', async () => {
    let calls = 0;
    server.use(
      http.get('/api/admin/line-usage/', () => {
        calls += 1;
        return HttpResponse.error();
      }),
    );
    renderWithProviders(<LineBudgetBanner />);
    await waitFor(() => expect(calls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/今月のLINE送信数/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toBe(1); // not retried in a loop
  });
});
