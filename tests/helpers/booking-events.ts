/**
 * A customer's booking queues its messages as one event row; the outbox worker sends them and then stores them as rows
 * (server/outbox/event-delivery.ts). Tests that read a booking's messages from the outbox wait for that here.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { notificationsOutbox } from '#server/db/schema';
import type { TestApp } from './app';

/**
 * Returns once no reservation event waits to be sent: drains the worker itself, and, when the app's own
 * worker holds an event (it runs unless the test stopped it), waits for that worker to finish with it.
 */
export async function bookingMessagesQueued(t: Pick<TestApp, 'app' | 'database'>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await t.app.notifications.worker.drainOnce();
    const waiting = await t.database.db
      .select({ id: notificationsOutbox.id })
      .from(notificationsOutbox)
      .where(
        and(eq(notificationsOutbox.channel, 'event'), inArray(notificationsOutbox.status, ['pending', 'sending'])),
      );
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error('reservation events not sent in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
