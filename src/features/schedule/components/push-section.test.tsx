import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearNotifications, storeAdminTokens } from '#tests/setup/admin-fixtures';
import { endFakePushBrowser, fakePushBrowser, PUSH_ENDPOINT as ENDPOINT } from '#tests/setup/push-browser';
import { server } from '#tests/setup/msw-server';
import { renderWithProviders } from '#tests/setup/render';
import { MESSAGES } from '#src/shared/messages';
import { PushSection } from './push-section';

const VAPID_KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

/** The API: the key and the caller's browsers; records the POST and DELETE bodies. */
function serveSubscriptions() {
  const posted: unknown[] = [];
  const deleted: unknown[] = [];
  let subscriptions: unknown[] = [];
  server.use(
    http.get('/api/admin/push-subscriptions/', () => HttpResponse.json({ vapid_public_key: VAPID_KEY, subscriptions })),
    http.post('/api/admin/push-subscriptions/', async ({ request }) => {
      posted.push(await request.json());
      const row = { id: 1, endpoint_host: 'push.example.com', created_at: '2030-01-10T00:00:00.000Z' };
      subscriptions = [row];
      return HttpResponse.json(row, { status: 201 });
    }),
    http.delete('/api/admin/push-subscriptions/', async ({ request }) => {
      deleted.push(await request.json());
      subscriptions = [];
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { posted, deleted };
}

beforeEach(() => storeAdminTokens());
afterEach(() => {
  clearNotifications();
  endFakePushBrowser();
});

describe('プッシュ通知', () => {
  it('subscribes this device with the server’s key after asking for permission, and can stop after a confirmation', async () => {
    const browser = fakePushBrowser();
    const api = serveSubscriptions();
    renderWithProviders(<PushSection />);
    const section = await screen.findByRole('region', { name: 'プッシュ通知' });

    await userEvent.click(await within(section).findByRole('button', { name: 'この端末で通知を受け取る' }));
    expect(await screen.findByText(MESSAGES.pushSubscribed)).toBeInTheDocument();
    expect(browser.notification.requestPermission).toHaveBeenCalled();
    const [options] = browser.subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(options.userVisibleOnly).toBe(true);
    expect(Buffer.from(options.applicationServerKey as Uint8Array).toString('base64url')).toBe(VAPID_KEY);
    expect(api.posted).toEqual([
      { endpoint: ENDPOINT, keys: { p256dh: 'p256dh-key-0123456789', auth: 'auth-secret-01234' } },
    ]);
    await waitFor(() => expect(section).toHaveTextContent('通知を受け取る端末: 1台'));

    // Stopping asks first; cancelling sends nothing.
    await userEvent.click(within(section).getByRole('button', { name: '通知を止める' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MESSAGES.pushStopQuestion);
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.deleted).toEqual([]);

    await userEvent.click(within(section).getByRole('button', { name: '通知を止める' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '通知を止める' }));
    expect(await screen.findByText(MESSAGES.pushUnsubscribed)).toBeInTheDocument();
    expect(api.deleted).toEqual([{ endpoint: ENDPOINT }]);
    expect(browser.unsubscribe).toHaveBeenCalled();
    expect(await within(section).findByRole('button', { name: 'この端末で通知を受け取る' })).toBeEnabled();
  });

  it('says honestly when the browser has no push (iPhone Safari outside a home-screen app)', async () => {
    serveSubscriptions();
    renderWithProviders(<PushSection />);
    const section = await screen.findByRole('region', { name: 'プッシュ通知' });
    expect(await within(section).findByText(MESSAGES.pushUnsupported)).toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('explains a refused permission, and nothing is registered', async () => {
    const browser = fakePushBrowser({ answer: 'denied' });
    const api = serveSubscriptions();
    renderWithProviders(<PushSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'この端末で通知を受け取る' }));
    expect(await screen.findByText(MESSAGES.pushDenied)).toBeInTheDocument();
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(api.posted).toEqual([]);
  });
});
