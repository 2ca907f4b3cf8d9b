import type { OutboxEntry } from './db';
import { loadDatabase } from './db-loader';
import { updateOutboxSnapshot } from './outbox-state';

/**
 * The outbox's IndexedDB table as the page sees it: read into the snapshot (src/lib/outbox-state.ts) after every
 * change, here or in another tab (told through a BroadcastChannel).
 */

const CHANNEL_NAME = 'salon-outbox';

/** Re-reads the outbox into the snapshot (after a change here or in another tab). */
export async function reloadOutbox(): Promise<readonly OutboxEntry[]> {
  const db = await loadDatabase();
  const entries = await db.outbox.orderBy('seq').toArray();
  updateOutboxSnapshot({ loaded: true, entries });
  return entries;
}

let channel: BroadcastChannel | null = null;
function broadcastChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = () => void reloadOutbox();
  return channel;
}

/** After a change of the table: this page's snapshot, then the other tabs'. */
export async function outboxChanged(): Promise<void> {
  await reloadOutbox();
  broadcastChannel()?.postMessage('changed');
}

/** The person decided a refused change is not wanted any more. */
export async function discardOutboxEntry(seq: number): Promise<void> {
  const db = await loadDatabase();
  await db.outbox.delete(seq);
  await outboxChanged();
}
