import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { storeAdminTokens } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { AdminWaitlistEntry } from '#src/shared/schemas/waitlist';
import { WaitlistDay } from './waitlist-day';

const entry = (overrides: Partial<AdminWaitlistEntry>): AdminWaitlistEntry => ({
  id: 1,
  service_id: 12,
  service_name: 'グラデーションジェル',
  option_ids: [],
  staff_id: null,
  staff_name: null,
  date: '2030-01-20',
  time_from: null,
  time_to: null,
  status: 'waiting',
  created_at: '2030-01-10T09:00:00',
  customer_id: 5,
  customer_name: '山田 花子',
  offers: 0,
  last_offered_at: null,
  ...overrides,
});

describe('admin キャンセル待ち of a day', () => {
  it('reads the day only once opened, and shows who waits, for what, since when and whether offered', async () => {
    storeAdminTokens();
    const asked: Array<{ date: string | null; auth: string | null }> = [];
    server.use(
      http.get('/api/admin/waitlist/', ({ request }) => {
        asked.push({ date: new URL(request.url).searchParams.get('date'), auth: request.headers.get('authorization') });
        return HttpResponse.json([
          entry({}),
          entry({
            id: 2,
            customer_name: '高橋 結衣',
            staff_id: 3,
            staff_name: '佐藤 美咲',
            time_from: '14:00',
            time_to: '17:00',
            offers: 2,
            last_offered_at: '2030-01-11T10:05:00',
          }),
        ]);
      }),
    );
    renderWithProviders(<WaitlistDay initialDate="2030-01-20" />);
    const toggle = screen.getByRole('button', { name: /キャンセル待ち/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(asked).toEqual([]);

    await userEvent.setup().click(toggle);
    const table = await screen.findByRole('table');
    expect(asked).toEqual([{ date: '2030-01-20', auth: expect.stringMatching(/^Bearer /) }]);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent(
      '山田 花子グラデーションジェル指名なし指定なし2030年1月10日(木) 09:00待機中未案内',
    );
    expect(rows[2]).toHaveTextContent('高橋 結衣');
    expect(rows[2]).toHaveTextContent('佐藤 美咲');
    expect(rows[2]).toHaveTextContent('14:00〜17:00');
    expect(rows[2]).toHaveTextContent('案内済み（2回・最終 2030年1月11日(金) 10:05）');
  });

  it('says when nobody waits that day', async () => {
    storeAdminTokens();
    server.use(http.get('/api/admin/waitlist/', () => HttpResponse.json([])));
    renderWithProviders(<WaitlistDay initialDate="2030-01-21" />);
    await userEvent.setup().click(screen.getByRole('button', { name: /キャンセル待ち/ }));
    expect(await screen.findByText(MESSAGES.waitlistEmpty)).toBeInTheDocument();
  });
});
