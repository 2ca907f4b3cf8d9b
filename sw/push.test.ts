import { describe, expect, it, vi } from 'vitest';
import { openNoticeUrl, readPushNotice, showPushNotice } from './push';

const ORIGIN = 'https://salon.example.jp';
const data = (value: unknown) => ({ json: () => value, text: () => JSON.stringify(value) });

describe('the service worker’s push handlers', () => {
  it('shows the server’s notice with its url, tag and the app icon', async () => {
    const showNotification = vi.fn(async () => {});
    const notice = readPushNotice(
      data({ title: '新しいご予約', body: '2030年01月15日 10:00', url: `${ORIGIN}/admin/reservations/R1`, tag: 't' }),
      ORIGIN,
    );
    await showPushNotice({ showNotification }, notice);
    expect(showNotification).toHaveBeenCalledWith('新しいご予約', {
      body: '2030年01月15日 10:00',
      data: { url: `${ORIGIN}/admin/reservations/R1` },
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: 't',
    });
  });

  it('still shows something for an unreadable message, and never opens another site', () => {
    const broken = { json: () => JSON.parse('{'), text: () => 'plain' };
    expect(readPushNotice(broken, ORIGIN)).toEqual({ title: 'お知らせ', body: 'plain', url: `${ORIGIN}/admin` });
    expect(readPushNotice(data({ title: 'x', url: 'https://evil.example/' }), ORIGIN).url).toBe(`${ORIGIN}/admin`);
    expect(readPushNotice(null, ORIGIN).title).toBe('お知らせ');
  });

  it('a tap focuses a window already on the page, else navigates an open window of the app, else opens one', async () => {
    const url = `${ORIGIN}/admin/reservations/R1`;
    const windowAt = (at: string) => {
      const client = { url: at, focus: vi.fn(async () => client), navigate: vi.fn(async () => client) };
      return client;
    };
    const onPage = windowAt(url);
    const openWindow = vi.fn(async () => null);
    await openNoticeUrl({ matchAll: vi.fn(async () => [onPage]) as never, openWindow }, url);
    expect(onPage.focus).toHaveBeenCalled();
    expect(onPage.navigate).not.toHaveBeenCalled();

    const elsewhere = windowAt(`${ORIGIN}/admin/schedule`);
    await openNoticeUrl({ matchAll: vi.fn(async () => [elsewhere]) as never, openWindow }, url);
    expect(elsewhere.navigate).toHaveBeenCalledWith(url);
    expect(elsewhere.focus).toHaveBeenCalled();
    expect(openWindow).not.toHaveBeenCalled();

    await openNoticeUrl({ matchAll: vi.fn(async () => []) as never, openWindow }, url);
    expect(openWindow).toHaveBeenCalledWith(url);
  });
});
