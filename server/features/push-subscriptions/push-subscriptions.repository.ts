import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { staffPushSubscriptions, staffUsers } from '../../db/schema';

/**
 * Browsers kept per staff member: a phone, a tablet and a few desktops, with room to spare. Each one is a request
 * the server makes for every notice, so a staff login cannot make one booking cost hundreds of them.
 */
const MAX_SUBSCRIPTIONS_PER_STAFF = 10;

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
 * racing on the same endpoint end with one row, never a unique-violation 500. Beyond MAX_SUBSCRIPTIONS_PER_STAFF
 * the staff member's longest-subscribed browsers go, under a lock of their staff row so that parallel subscribes
 * cannot each keep ten.
 */
export async function upsert(
  db: Database,
  input: { salonId: number; staffId: number; endpoint: string; p256dh: string; auth: string; userAgent: string },
): Promise<PushSubscriptionRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, input.staffId)).for('update');
    const row = await upsertRow(tx, input);
    const newest = tx
      .select({ id: staffPushSubscriptions.id })
      .from(staffPushSubscriptions)
      .where(eq(staffPushSubscriptions.staff_id, input.staffId))
      .orderBy(desc(staffPushSubscriptions.created_at), desc(staffPushSubscriptions.id))
      .limit(MAX_SUBSCRIPTIONS_PER_STAFF);
    await tx
      .delete(staffPushSubscriptions)
      .where(and(eq(staffPushSubscriptions.staff_id, input.staffId), notInArray(staffPushSubscriptions.id, newest)));
    return row;
  });
}

async function upsertRow(
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
