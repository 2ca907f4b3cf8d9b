/**
 * The Background Sync tag of the staff outbox: the page registers it when it queues a change (src/lib/outbox.ts),
 * the service worker answers its `sync` event (sw/sw.ts). One spelling for both sides.
 */
export const OUTBOX_SYNC_TAG = 'outbox-flush';
