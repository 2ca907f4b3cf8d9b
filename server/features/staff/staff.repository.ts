import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { staffUsers } from '../../db/schema';

export type StaffRow = typeof staffUsers.$inferSelect;

export async function listStaff(db: Executor, salonId: number): Promise<StaffRow[]> {
  return db.select().from(staffUsers).where(eq(staffUsers.salon_id, salonId)).orderBy(asc(staffUsers.id));
}

export async function findStaff(db: Executor, salonId: number, staffId: number): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.salon_id, salonId)))
    .limit(1);
  return row;
}

/** The unique index on lower(username) decides a duplicate: the caller maps its violation to a field error. */
export async function insertStaff(db: Executor, row: typeof staffUsers.$inferInsert): Promise<StaffRow> {
  const [inserted] = await db.insert(staffUsers).values(row).returning();
  return inserted!;
}

/**
 * Locks the caller's and the target's rows (in id order, so two superusers editing each other queue instead
 * of deadlocking) and returns them as they are now.
 */
export async function lockStaffPair(db: Executor, salonId: number, callerId: number, targetId: number) {
  const rows = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.salon_id, salonId), inArray(staffUsers.id, [callerId, targetId])))
    .orderBy(asc(staffUsers.id))
    .for('update');
  return { caller: rows.find((row) => row.id === callerId), target: rows.find((row) => row.id === targetId) };
}

export async function updateStaff(
  db: Executor,
  staffId: number,
  patch: Partial<
    Pick<
      StaffRow,
      | 'full_name'
      | 'email'
      | 'is_superuser'
      | 'role'
      | 'is_active'
      | 'password_hash'
      | 'token_version'
      | 'is_bookable'
      | 'nomination_fee'
      | 'profile'
      | 'picture_url'
      | 'schedule_version'
    >
  >,
): Promise<StaffRow> {
  const [row] = await db
    .update(staffUsers)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(staffUsers.id, staffId))
    .returning();
  return row!;
}

export async function findStaffByLineUserId(db: Executor, salonId: number, lineUserId: string) {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.salon_id, salonId), eq(staffUsers.line_user_id, lineUserId)))
    .limit(1);
  return row;
}

/**
 * Links the LINE user to an active staff member. The unique index on line_user_id refuses a LINE user already
 * linked to someone else; undefined means the account is inactive (or gone).
 */
export async function setStaffLineUser(db: Executor, salonId: number, staffId: number, lineUserId: string) {
  const [row] = await db
    .update(staffUsers)
    .set({ line_user_id: lineUserId, updated_at: sql`now()` })
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.salon_id, salonId), eq(staffUsers.is_active, true)))
    .returning({ id: staffUsers.id });
  return row?.id;
}

/** One staff member's row, locked until the transaction ends (a photo replaced by two uploads at once). */
export async function lockStaff(db: Executor, salonId: number, staffId: number): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.salon_id, salonId)))
    .for('update');
  return row;
}
