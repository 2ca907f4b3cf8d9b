/**
 * Staff notices by Web Push (server/outbox/web-push.ts): the server sends JSON {title, body, url, tag}; the worker
 * shows it, and a tap opens the reservation in the staff app. Kept apart from sw.ts as plain functions of what the
 * worker gives them, so that they can be tested without a browser (push.test.ts).
 */

interface PushNotice {
  title: string;
  body: string;
  url: string;
  tag?: string;
}

const FALLBACK_TITLE = 'お知らせ';
const ICON = '/icons/icon-192.png';

/** The message's notice; anything unreadable still shows something, as browsers require for every push. */
export function readPushNotice(data: { json(): unknown; text(): string } | null, origin: string): PushNotice {
  let value: Partial<PushNotice> = {};
  try {
    value = (data?.json() ?? {}) as Partial<PushNotice>;
  } catch {
    value = { body: data?.text() ?? '' };
  }
  return {
    title: typeof value.title === 'string' && value.title ? value.title : FALLBACK_TITLE,
    body: typeof value.body === 'string' ? value.body : '',
    url: sameOriginUrl(typeof value.url === 'string' ? value.url : '/admin', origin),
    ...(typeof value.tag === 'string' ? { tag: value.tag } : {}),
  };
}

/** Only this app's pages are opened from a notification; anything else opens the staff home. */
function sameOriginUrl(url: string, origin: string): string {
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === origin ? parsed.href : new URL('/admin', origin).href;
  } catch {
    return new URL('/admin', origin).href;
  }
}

export function showPushNotice(registration: Pick<ServiceWorkerRegistration, 'showNotification'>, notice: PushNotice) {
  return registration.showNotification(notice.title, {
    body: notice.body,
    data: { url: notice.url },
    icon: ICON,
    badge: ICON,
    ...(notice.tag ? { tag: notice.tag } : {}),
  });
}

/** A tap: an open window of the app shows the page (navigated there if needed); without one, a new window. */
export async function openNoticeUrl(clients: Pick<Clients, 'matchAll' | 'openWindow'>, url: string): Promise<void> {
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })) as WindowClient[];
  const exact = windows.find((client) => client.url === url);
  if (exact) {
    await exact.focus();
    return;
  }
  const sameApp = windows.find((client) => new URL(client.url).origin === new URL(url).origin);
  if (sameApp) {
    const navigated = await sameApp.navigate(url).catch(() => null);
    await (navigated ?? sameApp).focus();
    return;
  }
  await clients.openWindow(url);
}
