/**
 * Staff notices by Web Push: which browsers a staff member subscribed (read in the transaction that queues the
 * notice, reservation-notifications.ts), and sending one outbox row of the `webpush` channel (worker.ts). The row's
 * recipient is the subscription's id; its payload is the rendered notice (push-templates.ts) and the staff member
 * it is for, so that a browser that has since been subscribed by someone else does not show it.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import { staffPushSubscriptions } from '../db/schema';
import { PushEndpointRefusedError, type WebPushSender } from '../integrations/web-push/sender';
import type { OutboxRow } from './outbox';
import type { WebPushPayload } from './payloads';

function isWebPushPayload(payload: unknown): payload is WebPushPayload {
  const value = payload as Partial<WebPushPayload> | null;
  return (
    typeof value?.title === 'string' &&
    typeof value.body === 'string' &&
    typeof value.url === 'string' &&
    typeof value.staff_id === 'number'
  );
}

/** Each staff member's subscription ids (oldest first); a staff member without any is absent. */
export async function pushSubscriptionIdsByStaff(
  executor: Executor,
  staffIds: readonly number[],
): Promise<Map<number, number[]>> {
  const byStaff = new Map<number, number[]>();
  if (staffIds.length === 0) return byStaff;
  const rows = await executor
    .select({ id: staffPushSubscriptions.id, staff_id: staffPushSubscriptions.staff_id })
    .from(staffPushSubscriptions)
    .where(inArray(staffPushSubscriptions.staff_id, [...new Set(staffIds)]))
    .orderBy(asc(staffPushSubscriptions.id));
  for (const row of rows) byStaff.set(row.staff_id, [...(byStaff.get(row.staff_id) ?? []), row.id]);
  return byStaff;
}

/** A push service's refusal; `permanent` ones are not retried (worker.ts). */
class WebPushError extends Error {
  constructor(
    readonly status: number,
    readonly permanent: boolean,
  ) {
    super(`push service answered ${status}`);
    this.name = 'WebPushError';
  }
}

type WebPushDelivery = { delivered: true } | { skipped: string };

/**
 * Sends one `webpush` row. 2xx: delivered. An endpoint the server no longer sends to (endpoint.ts) is never
 * contacted and its subscription is deleted. 404/410: the browser or its push service dropped the subscription,
 * which is deleted (the row ends as sent with that note: nobody is left to tell). 429 and 5xx: retried with the
 * worker's backoff. Any other 4xx (a bad key, a payload too large) would fail again the same way: failed at once.
 */
export async function deliverWebPush(
  db: Database,
  sender: WebPushSender | undefined,
  row: OutboxRow,
  now: Date,
): Promise<WebPushDelivery> {
  if (!sender) throw Object.assign(new Error('Web Push is not set up in this worker'), { permanent: true });
  const payload = row.payload;
  if (!isWebPushPayload(payload)) throw Object.assign(new Error('unusable webpush payload'), { permanent: true });
  const id = Number(row.recipient);
  const [subscription] = Number.isSafeInteger(id)
    ? await db.select().from(staffPushSubscriptions).where(eq(staffPushSubscriptions.id, id))
    : [];
  if (!subscription) return { skipped: 'subscription removed' };
  if (subscription.staff_id !== payload.staff_id)
    return { skipped: 'subscription now belongs to another staff member' };
  const message = JSON.stringify({ title: payload.title, body: payload.body, url: payload.url, tag: payload.tag });
  let status: number;
  try {
    ({ status } = await sender.send(subscription, message, { urgency: 'high' }));
  } catch (error) {
    if (!(error instanceof PushEndpointRefusedError)) throw error;
    // Stored before the endpoint rules were what they are now: never contacted, and removed, so that the staff
    // member's next notices go by LINE again instead of failing here one by one.
    await db.delete(staffPushSubscriptions).where(eq(staffPushSubscriptions.id, subscription.id));
    return { skipped: `${error.message}; subscription removed` };
  }
  if (status >= 200 && status < 300) {
    await db
      .update(staffPushSubscriptions)
      .set({ last_success_at: now })
      .where(eq(staffPushSubscriptions.id, subscription.id));
    return { delivered: true };
  }
  if (status === 404 || status === 410) {
    // Only this row: the same endpoint subscribed again meanwhile is a new key pair and stays.
    await db
      .delete(staffPushSubscriptions)
      .where(
        and(eq(staffPushSubscriptions.id, subscription.id), eq(staffPushSubscriptions.p256dh, subscription.p256dh)),
      );
    return { skipped: `subscription gone (${status}); removed` };
  }
  throw new WebPushError(status, !(status === 429 || status >= 500));
}
