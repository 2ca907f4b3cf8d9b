import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { fixDeviceClock, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { TakingsCard } from './takings-card';

const BY_DAY = [
  { key: '2030-01-05', label: '2030/01/05', count: 3, total: 21450 },
  { key: '2030-01-08', label: '2030/01/08', count: 1, total: -3300 },
];
const BY_METHOD = [
  { key: 'cash', label: '現金', count: 2, total: 8000 },
  { key: 'card', label: 'クレジットカード', count: 2, total: 10150 },
];

const SUMMARY = {
  visit_count: 8,
  takings: 41000,
  average_spend: 5125,
  new_visits: 3,
  returning_visits: 5,
  walk_in_visits: 0,
  new_returned_90d: 1,
  return_rate_90d: 1 / 3,
};

describe('売上 (takings card)', () => {
  fixDeviceClock();
  beforeEach(() => server.use(http.get('/api/admin/sales/summary/', () => HttpResponse.json(SUMMARY))));
  afterEach(() => vi.restoreAllMocks());

  it('shows 客単価, 新規/再来 and the 90-day return rate, and 指名 with 指名率 by 担当', async () => {
    storeAdminTokens();
    server.use(
      http.get('/api/admin/sales/', () =>
        HttpResponse.json([{ key: '2', label: '佐藤 美咲', count: 4, total: 26000, nominated: 3 }]),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<TakingsCard />);
    expect(await screen.findByRole('group', { name: '客単価' })).toHaveTextContent('¥5,125');
    expect(screen.getByRole('group', { name: '新規' })).toHaveTextContent('3件');
    expect(screen.getByRole('group', { name: '再来' })).toHaveTextContent('5件');
    expect(screen.getByRole('group', { name: '90日再来率' })).toHaveTextContent('33.3%');
    await user.click(screen.getByRole('radio', { name: '担当別' }));
    expect(await screen.findByRole('row', { name: '佐藤 美咲 4 3 75% ¥26,000' })).toBeInTheDocument();
  });

  it('shows this month by day, regroups by payment method, and totals the period', async () => {
    storeAdminTokens();
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/admin/sales/', ({ request }) => {
        const query = new URL(request.url).searchParams;
        asked.push(query);
        return HttpResponse.json(query.get('group') === 'method' ? BY_METHOD : BY_DAY);
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<TakingsCard />);

    const table = await screen.findByRole('table', { name: '売上の内訳' });
    expect(within(table).getByRole('row', { name: '2030/01/05 3 ¥21,450' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: '2030/01/08 1 -¥3,300' })).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: '期間の売上合計' })).getByText('¥18,150')).toBeInTheDocument();
    expect(asked[0]!.get('from')).toBe('2030-01-01');
    expect(asked[0]!.get('to')).toBe('2030-01-10');
    expect(asked[0]!.get('group')).toBe('day');

    await user.click(screen.getByRole('radio', { name: '支払方法別' }));
    expect(await screen.findByRole('row', { name: 'クレジットカード 2 ¥10,150' })).toBeInTheDocument();
    expect(asked.at(-1)!.get('group')).toBe('method');
  });

  it('downloads the CSV of the period with the staff token', async () => {
    storeAdminTokens();
    let authorization: string | null = null;
    server.use(
      http.get('/api/admin/checkouts.csv', ({ request }) => {
        authorization = request.headers.get('authorization');
        return new HttpResponse('\uFEFF種別,領収書番号\r\n', {
          headers: { 'content-type': 'text/csv; charset=utf-8' },
        });
      }),
    );
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:csv');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('checkouts-2030-01-01-2030-01-10.csv');
    });
    const user = userEvent.setup();
    renderWithProviders(<TakingsCard />);

    await user.click(screen.getByRole('button', { name: 'CSVをダウンロード' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect(authorization).toBe('Bearer admin-access-token');
    const blob = created.mock.calls[0]![0] as Blob;
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const buffer = await new Promise<ArrayBuffer>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(blob);
    });
    const bytes = new Uint8Array(buffer);
    // The BOM a spreadsheet needs to read UTF-8 is there once.
    expect([...bytes.slice(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0xe7]);
  });
});
