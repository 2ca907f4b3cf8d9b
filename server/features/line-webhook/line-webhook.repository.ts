import { and, eq, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../db/client';
import { customers, devLineUsers, lineMessages, salons, webhookEvents } from '../../db/schema';
import type { LineProfile } from '../../integrations/line/webhook';

/** A read-only shortcut for redeliveries (no refetching); recordEventOnce() is what decides. */
export async function isEventSeen(db: Executor, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: webhookEvents.event_id })
    .from(webhookEvents)
    .where(eq(webhookEvents.event_id, eventId))
    .limit(1);
  return Boolean(row);
}

/**
 * Marks the event seen and runs what it causes in one transaction: a repeat of the id (a redelivery, or
 * two deliveries side by side) inserts nothing and runs nothing. False when the event was already seen.
 */
export async function recordEventOnce(
  db: Database,
  event: { id: string; type: string; receivedAt: Date },
  effect: (tx: Transaction) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookEvents)
      .values({ event_id: event.id, type: event.type, received_at: event.receivedAt })
      .onConflictDoNothing({ target: webhookEvents.event_id })
      .returning({ id: webhookEvents.event_id });
    if (!inserted) return false;
    await effect(tx);
    return true;
  });
}

/** The salon's name, for the reply to a 予約確認 message. */
export async function findSalonName(db: Executor, salonId: number): Promise<string> {
  const [row] = await db.select({ name: salons.name }).from(salons).where(eq(salons.id, salonId)).limit(1);
  return row?.name ?? '';
}

export async function findCustomerIdByLineUser(
  db: Executor,
  salonId: number,
  lineUserId: string,
): Promise<number | null> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.salon_id, salonId), eq(customers.line_user_id, lineUserId)))
    .limit(1);
  return row?.id ?? null;
}

/** The emulator's test user as a LINE profile (dev mode has no Messaging API to ask). */
export async function findDevLineProfile(db: Executor, lineUserId: string): Promise<LineProfile | null> {
  const [row] = await db
    .select({ displayName: devLineUsers.display_name })
    .from(devLineUsers)
    .where(eq(devLineUsers.line_user_id, lineUserId))
    .limit(1);
  return row ? { displayName: row.displayName, pictureUrl: '' } : null;
}

/**
 * The customer of a LINE user, created when unknown (name from the profile, else ''). With `refresh` (a
 * follow event) an existing customer takes the profile's display name and picture; the name staff keep is
 * only filled in when it is still empty.
 */
export async function ensureLineCustomer(
  tx: Executor,
  input: { salonId: number; lineUserId: string; profile: LineProfile | null; refresh: boolean },
): Promise<number> {
  const { profile } = input;
  const values = {
    salon_id: input.salonId,
    line_user_id: input.lineUserId,
    name: profile?.displayName ?? '',
    line_display_name: profile?.displayName ?? '',
    line_picture_url: profile?.pictureUrl ?? '',
  };
  const target = [customers.salon_id, customers.line_user_id];
  const insert = tx.insert(customers).values(values);
  const [row] =
    input.refresh && profile
      ? await insert
          .onConflictDoUpdate({
            target,
            set: {
              line_display_name: sql`excluded.line_display_name`,
              line_picture_url: sql`excluded.line_picture_url`,
              name: sql`case when ${customers.name} = '' then excluded.name else ${customers.name} end`,
              updated_at: sql`now()`,
            },
          })
          .returning({ id: customers.id })
      : await insert.onConflictDoNothing({ target }).returning({ id: customers.id });
  if (row) return row.id;
  // Already there (ON CONFLICT DO NOTHING returns no row); the statement waited for any concurrent insert.
  const existing = await findCustomerIdByLineUser(tx, input.salonId, input.lineUserId);
  if (existing === null) throw new Error(`customer for LINE user ${input.lineUserId} vanished`);
  return existing;
}

export async function insertCustomerMessage(
  tx: Executor,
  input: {
    salonId: number;
    customerId: number;
    message: string;
    imageUrl: string;
    lineMessageId: string;
    sentAt: Date;
  },
): Promise<void> {
  await tx.insert(lineMessages).values({
    salon_id: input.salonId,
    customer_id: input.customerId,
    sender_type: 'customer',
    message: input.message,
    image_url: input.imageUrl,
    line_message_id: input.lineMessageId,
    sent_at: input.sentAt,
  });
}
