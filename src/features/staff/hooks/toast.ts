import { showNotification } from '../../../lib/notify';

/** A notification with a labelled close button (Mantine's has no accessible name of its own). */
export function toast(color: 'green' | 'red' | 'yellow', message: string): void {
  showNotification({ color, message, closeButtonProps: { 'aria-label': '閉じる' } });
}
