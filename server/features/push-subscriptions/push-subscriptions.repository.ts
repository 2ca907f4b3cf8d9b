import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { staffPushSubscriptions } from '../../db/schema';

export type PushSubscriptionRow = typeof staffPushSubscriptions.$inferSelect;

export function listForStaff(db: Executor, staffId: number): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(staffPushSubscriptions)
    .where(eq(staffPushSubscriptions.staff_id, staffId))
    .orderBy(asc(staffPushSubscriptions.id));
}

/**
 * Stores a browser's subscription for `staffId`. An endpoint is one browser: subscribing it again (new keys, or
 * another staff member signed in on that browser) updates the one row in a single statement, so two requests
 * racing on the same endpoint end with one row, never a unique-violation 500.
 */
export async function upsert(
  db: Executor,
  input: { salonId: number; staffId: number; endpoint: string; p256dh: string; auth: string; userAgent: string },
): Promise<PushSubscriptionRow> {
  const [row] = await db
    .insert(staffPushSubscriptions)
    .values({
      salon_id: input.salonId,
      staff_id: input.staffId,
      endpoint: input.endpoint,
      p256dh: input.p256dh,
      auth: input.auth,
      user_agent: input.userAgent,
    })
    .onConflictDoUpdate({
      target: staffPushSubscriptions.endpoint,
      set: {
        salon_id: sql`excluded.salon_id`,
        staff_id: sql`excluded.staff_id`,
        p256dh: sql`excluded.p256dh`,
        auth: sql`excluded.auth`,
        user_agent: sql`excluded.user_agent`,
        created_at: sql`now()`,
        last_success_at: null,
      },
    })
    .returning();
  return row!;
}

/** Deletes the caller's own subscription of this endpoint; false when they have none (someone else's stays). */
export async function removeOwn(db: Executor, staffId: number, endpoint: string): Promise<boolean> {
  const deleted = await db
    .delete(staffPushSubscriptions)
    .where(and(eq(staffPushSubscriptions.staff_id, staffId), eq(staffPushSubscriptions.endpoint, endpoint)))
    .returning({ id: staffPushSubscriptions.id });
  return deleted.length > 0;
}
