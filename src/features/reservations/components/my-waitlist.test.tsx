import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseCustomerHandlers, signInCustomer } from '#tests/helpers/customer-api-mocks';
import { server } from '#tests/setup/msw-server';
import { renderRoute } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import type { WaitlistEntry } from '#src/shared/schemas/waitlist';

configure({ asyncUtilTimeout: 5000 });

const waiting: WaitlistEntry = {
  id: 7,
  service_id: 12,
  service_name: 'グラデーションジェル',
  option_ids: [],
  staff_id: 2,
  staff_name: '佐藤 美咲',
  date: '2030-05-14',
  time_from: '14:00',
  time_to: null,
  status: 'waiting',
  created_at: '2030-05-10T10:00:00',
};

describe('/reservations: キャンセル待ち', () => {
  it('lists the customer’s waiting entries and withdraws one only after confirming', async () => {
    signInCustomer();
    let entries = [waiting];
    const deleted: string[] = [];
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/', () => HttpResponse.json({ upcoming: [], past: [] })),
      http.get('/api/waitlist/', () => HttpResponse.json(entries)),
      http.delete('/api/waitlist/:id/', ({ params }) => {
        deleted.push(String(params.id));
        entries = [];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderRoute('/reservations');
    const section = await screen.findByRole('region', { name: 'キャンセル待ち' });
    expect(within(section).getByText('2030年5月14日(火)（14:00〜）')).toBeInTheDocument();
    expect(within(section).getByText('グラデーションジェル・指名 佐藤 美咲')).toBeInTheDocument();

    await userClick(within(section).getByRole('button', { name: /キャンセル待ちを取り消す/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.waitlistWithdrawQuestion);
    await userClick(within(dialog).getByRole('button', { name: '戻る' }));
    expect(deleted).toEqual([]);

    await userClick(within(section).getByRole('button', { name: /キャンセル待ちを取り消す/ }));
    await userClick(within(await screen.findByRole('dialog')).getByRole('button', { name: '取り消す' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(MESSAGES.waitlistWithdrawn);
    expect(deleted).toEqual(['7']);
    await waitFor(() =>
      expect(within(section).queryByText('グラデーションジェル・指名 佐藤 美咲')).not.toBeInTheDocument(),
    );
  });

  it('shows nothing when the customer waits for nothing', async () => {
    signInCustomer();
    server.use(
      ...baseCustomerHandlers(),
      http.get('/api/reservations/', () => HttpResponse.json({ upcoming: [], past: [] })),
    );
    renderRoute('/reservations');
    await screen.findByText('まだご予約はありません。');
    expect(screen.queryByRole('region', { name: 'キャンセル待ち' })).not.toBeInTheDocument();
  });
});

async function userClick(element: HTMLElement) {
  await userEvent.setup().click(element);
}
