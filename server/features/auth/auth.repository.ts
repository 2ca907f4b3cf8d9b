import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { refreshTokens, staffUsers } from '../../db/schema';

export type StaffRow = typeof staffUsers.$inferSelect;

export async function findStaffByUsername(db: Executor, username: string): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(eq(sql`lower(${staffUsers.username})`, username.toLowerCase()))
    .limit(1);
  return row;
}

export async function findStaffById(db: Executor, id: number): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
  return row;
}

export async function insertRefreshToken(db: Executor, row: typeof refreshTokens.$inferInsert): Promise<void> {
  await db.insert(refreshTokens).values(row);
}

/**
 * Compare-and-swap: marks the token used (and names its successor) only if it is still unused, unrevoked and
 * unexpired. Of several refreshes of one token at the same moment exactly one gets the row back.
 */
export async function consumeRefreshToken(db: Executor, jti: string, now: Date, successorJti: string) {
  const [row] = await db
    .update(refreshTokens)
    .set({ used_at: now, replaced_by: successorJti })
    .where(
      and(
        eq(refreshTokens.jti, jti),
        isNull(refreshTokens.used_at),
        isNull(refreshTokens.revoked_at),
        gt(refreshTokens.expires_at, now),
      ),
    )
    .returning();
  return row;
}

export async function findRefreshToken(db: Executor, jti: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.jti, jti)).limit(1);
  return row;
}

export async function revokeRefreshFamily(db: Executor, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revoked_at: now })
    .where(and(eq(refreshTokens.family_id, familyId), isNull(refreshTokens.revoked_at)));
}

/** Every session of one person: after a password change, a deactivation or a logout everywhere. */
export async function revokeSubjectRefreshTokens(
  db: Executor,
  audience: 'staff' | 'customer',
  subjectId: number,
  now: Date,
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revoked_at: now })
    .where(
      and(
        eq(refreshTokens.audience, audience),
        eq(refreshTokens.subject_id, subjectId),
        isNull(refreshTokens.revoked_at),
      ),
    );
}
