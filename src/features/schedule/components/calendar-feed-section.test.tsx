import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, staffProfile, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { CalendarFeedSection } from './calendar-feed-section';

const NEW_URL = 'http://localhost/api/calendar/NewFeedToken0123456789.ics';

/** GET /api/admin/me/ with the staff profile, and POST …/calendar-feed/ answering `answer`; returns the POSTs seen. */
function serveFeed(
  answer: (body: { include_phone?: boolean }) => Response = (body) =>
    HttpResponse.json({ calendar_feed_url: NEW_URL, calendar_feed_includes_phone: body.include_phone ?? false }),
) {
  const posts: Array<{ request: Request; body: { include_phone?: boolean } }> = [];
  server.use(
    http.get('/api/admin/me/', () => HttpResponse.json(staffProfile)),
    http.post('/api/admin/me/calendar-feed/', async ({ request }) => {
      const body = (await request.clone().json()) as { include_phone?: boolean };
      posts.push({ request, body });
      return answer(body);
    }),
  );
  return posts;
}

afterEach(clearNotifications);

describe('カレンダー連携', () => {
  it('shows the staff member’s URL with how to add it, and copies it', async () => {
    storeAdminTokens();
    serveFeed();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<CalendarFeedSection />);

    const section = await screen.findByRole('region', { name: 'カレンダー連携' });
    const field = await within(section).findByLabelText('カレンダー連携用URL');
    expect(field).toHaveValue(staffProfile.calendar_feed_url);
    expect(field).toHaveAttribute('readonly');
    expect(section).toHaveTextContent('「URLで追加」');
    expect(section).toHaveTextContent('照会するカレンダーを追加');

    await userEvent.click(within(section).getByRole('button', { name: 'カレンダー連携用URLをコピー' }));
    expect(writeText).toHaveBeenCalledWith(staffProfile.calendar_feed_url);
    expect(await screen.findByText(MESSAGES.calendarFeedCopied)).toBeInTheDocument();
  });

  it('asks before replacing the URL, and shows the new one after', async () => {
    storeAdminTokens();
    const posts = serveFeed();
    renderWithProviders(<CalendarFeedSection />);
    const field = await screen.findByLabelText('カレンダー連携用URL');

    // Cancelling the confirmation sends nothing.
    await userEvent.click(screen.getByRole('button', { name: 'URLを再発行' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.calendarFeedRegenerateQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts).toHaveLength(0);
    expect(field).toHaveValue(staffProfile.calendar_feed_url);

    await userEvent.click(screen.getByRole('button', { name: 'URLを再発行' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '再発行する' }));
    await waitFor(() => expect(screen.getByLabelText('カレンダー連携用URL')).toHaveValue(NEW_URL));
    expect(posts).toHaveLength(1);
    expect(posts[0]!.request.headers.get('authorization')).toMatch(/^Bearer /);
    expect(posts[0]!.body).toEqual({});
    expect(await screen.findByText(MESSAGES.calendarFeedRegenerated)).toBeInTheDocument();
  });

  it('leaves phone numbers out until the staff member ticks the box and confirms; that makes a new URL', async () => {
    storeAdminTokens();
    const posts = serveFeed();
    renderWithProviders(<CalendarFeedSection />);
    await screen.findByLabelText('カレンダー連携用URL');
    const phone = screen.getByRole('checkbox', { name: /予定にお客様の電話番号を含める/ });
    expect(phone).not.toBeChecked();

    await userEvent.click(phone);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.calendarFeedPhoneQuestion(true));
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts).toHaveLength(0);
    expect(phone).not.toBeChecked();

    await userEvent.click(phone);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '変更する' }));
    await waitFor(() => expect(screen.getByLabelText('カレンダー連携用URL')).toHaveValue(NEW_URL));
    expect(posts.map((post) => post.body)).toEqual([{ include_phone: true }]);
    expect(screen.getByRole('checkbox', { name: /予定にお客様の電話番号を含める/ })).toBeChecked();
  });

  it('keeps the URL and says so when the replacement fails', async () => {
    storeAdminTokens();
    serveFeed(() => HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 }));
    renderWithProviders(<CalendarFeedSection />);
    await screen.findByLabelText('カレンダー連携用URL');
    await userEvent.click(screen.getByRole('button', { name: 'URLを再発行' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '再発行する' }));
    expect(await screen.findByText(MESSAGES.calendarFeedRegenerateFailed)).toBeInTheDocument();
    expect(screen.getByLabelText('カレンダー連携用URL')).toHaveValue(staffProfile.calendar_feed_url);
  });

  it('offers a retry when the profile cannot be read', async () => {
    storeAdminTokens();
    let fail = true;
    server.use(
      http.get('/api/admin/me/', () =>
        fail
          ? HttpResponse.json({ detail: MESSAGES.serverError, code: 'server_error' }, { status: 500 })
          : HttpResponse.json(staffProfile),
      ),
    );
    renderWithProviders(<CalendarFeedSection />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.calendarFeedLoadFailed);
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: '再読み込み' }));
    expect(await screen.findByLabelText('カレンダー連携用URL')).toHaveValue(staffProfile.calendar_feed_url);
  });
});
