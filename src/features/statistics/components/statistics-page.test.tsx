import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { ADMIN_ACCESS_TOKEN_KEY, CUSTOMER_ACCESS_TOKEN_KEY } from '#src/lib/api-client';
import { MESSAGES } from '#src/shared/messages';
import type { Statistics } from '#src/shared/schemas/statistics';
import { PIE_COLORS } from './statistics-charts';
import { StatisticsPage } from './statistics-page';

const routes = [{ path: '/admin/statistics', element: <StatisticsPage /> }];

const STATS: Statistics = {
  monthly_sales: { labels: ['2025年05月', '2025年06月'], data: [12000, 33000] },
  service_ranking: {
    labels: ['ジェルネイル', 'ハンドケア', 'フットネイル', 'オフ', 'アート', '六番目'],
    data: [9, 7, 5, 3, 2, 1],
  },
  reservation_stats: { confirmed: 11, pending: 4, cancelled: 2, completed: 30, no_show: 1 },
};

describe('statistics (統計情報)', () => {
  it('shows 読み込み中... while loading, then the three counters and both charts', async () => {
    window.localStorage.setItem(ADMIN_ACCESS_TOKEN_KEY, 'admin-token');
    window.localStorage.setItem(CUSTOMER_ACCESS_TOKEN_KEY, 'customer-token');
    let authorization: string | null = null;
    server.use(
      http.get('/api/statistics/', ({ request }) => {
        authorization = request.headers.get('authorization');
        return HttpResponse.json(STATS);
      }),
    );
    renderRoute('/admin/statistics', { routes });

    expect(screen.getByRole('heading', { level: 1, name: '統計情報' })).toBeInTheDocument();
    expect(screen.getByText('読み込み中...')).toBeInTheDocument();
    expect(within(await screen.findByRole('group', { name: '完了した予約' })).getByText('11')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: '保留中の予約' })).getByText('4')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'キャンセルされた予約' })).getByText('2')).toBeInTheDocument();
    // /api/statistics/ is outside /api/admin/ but is a staff call: it carries the admin token.
    expect(authorization).toBe('Bearer admin-token');

    expect(await screen.findByRole('heading', { name: '月別売上' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '人気サービス Top 5' })).toBeInTheDocument();
    const sales = screen.getByRole('table', { name: '月別売上' });
    expect(within(sales).getByRole('row', { name: '2025年06月 ¥33,000' })).toBeInTheDocument();
    const ranking = screen.getByRole('table', { name: '人気サービス Top 5' });
    // Top 5 only.
    expect(within(ranking).getAllByRole('row')).toHaveLength(1 + 5);
    expect(within(ranking).queryByText('六番目')).not.toBeInTheDocument();
    expect(new Set(PIE_COLORS).size).toBe(5);
  });

  it('defaults a missing counter to 0 and says when there is nothing to rank', async () => {
    server.use(
      http.get('/api/statistics/', () =>
        HttpResponse.json({
          ...STATS,
          service_ranking: { labels: [], data: [] },
          reservation_stats: { confirmed: 3 },
        }),
      ),
    );
    renderRoute('/admin/statistics', { routes });
    expect(within(await screen.findByRole('group', { name: '保留中の予約' })).getByText('0')).toBeInTheDocument();
    expect(await screen.findByText('まだ集計できる予約がありません。')).toBeInTheDocument();
  });

  it('says 統計データの取得に失敗しました。 in red when loading fails', async () => {
    server.use(
      http.get('/api/statistics/', () =>
        HttpResponse.json({ detail: MESSAGES.forbidden, code: 'forbidden' }, { status: 403 }),
      ),
    );
    renderRoute('/admin/statistics', { routes });
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent(MESSAGES.adminStatisticsLoadFailed);
    expect(error.getAttribute('style') ?? '').toContain('var(--mantine-color-red-text)');
  });
});
