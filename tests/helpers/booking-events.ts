/**
 * A customer's booking queues its messages as one event row; the outbox worker sends them and then stores them as rows
 * (server/outbox/event-delivery.ts). Tests that read a booking's messages from the outbox wait for that here.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { devLineInbox, notificationsOutbox } from '#server/db/schema';
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

/**
 * What the LINE rows of a reservation actually pushed, as the dev LINE inbox kept it (by the row's retry key, which
 * the push carried): a booking's messages are stored after they went, without their text (decision 0025).
 */
export async function pushedForReservation(t: Pick<TestApp, 'app' | 'database'>, reservationId: number) {
  await bookingMessagesQueued(t);
  return t.database.db
    .select({ kind: notificationsOutbox.kind, to: devLineInbox.to, messages: devLineInbox.messages })
    .from(notificationsOutbox)
    .innerJoin(devLineInbox, eq(devLineInbox.retry_key, notificationsOutbox.retry_key))
    .where(and(eq(notificationsOutbox.reservation_id, reservationId), eq(notificationsOutbox.channel, 'line')));
}
