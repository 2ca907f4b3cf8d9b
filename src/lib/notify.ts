import type { NotificationData } from '@mantine/notifications';

/**
 * @mantine/notifications (with the Mantine parts it draws) is ~14 KB gzipped and most page views never show a
 * notification, so it is loaded on first use: `showNotification` imports it and flags the provider to mount
 * <Notifications /> (which then shows what is already in the store). A static import of the package in the
 * customer path would pull it back into the entry chunk; ESLint forbids that outside this file.
 */

let requested = false;
const listeners = new Set<() => void>();

export function notificationsRequested(): boolean {
  return requested;
}

export function onNotificationsRequested(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function loadNotifications() {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  const { notifications } = await import('@mantine/notifications');
  return notifications;
}

/** Every notification goes through here, so every close button gets its name here. */
export function showNotification(data: NotificationData): void {
  // Mantine's close button has no accessible name of its own (axe: button-name).
  const labelled = { ...data, closeButtonProps: { 'aria-label': '閉じる', ...data.closeButtonProps } };
  void loadNotifications().then((notifications) => notifications.show(labelled));
}

/** A one-line notification: green when something was done, red when it failed, yellow for "done, but …". */
export function toast(color: 'green' | 'red' | 'yellow', message: string): void {
  showNotification({ color, message });
}
