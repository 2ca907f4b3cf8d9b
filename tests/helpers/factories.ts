import { eq } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { customers, staffUsers } from '../../server/db/schema';
import { hashPassword } from '../../server/features/auth/passwords';
import type { StaffRole } from '../../src/shared/roles';

export type StaffRow = typeof staffUsers.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;

/**
 * A staff member with a real scrypt hash (about 100 ms each: create them once per file, in beforeAll,
 * and in parallel with Promise.all).
 */
export async function createStaff(
  db: Database,
  salonId: number,
  input: {
    username: string;
    password?: string;
    fullName?: string;
    isSuperuser?: boolean;
    /** Wins over isSuperuser; the database keeps is_superuser true exactly for an owner. */
    role?: StaffRole;
    isActive?: boolean;
    email?: string;
  },
): Promise<StaffRow> {
  const [row] = await db
    .insert(staffUsers)
    .values({
      salon_id: salonId,
      username: input.username,
      full_name: input.fullName ?? `${input.username} スタッフ`,
      email: input.email ?? '',
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      is_superuser: input.role ? input.role === 'owner' : (input.isSuperuser ?? false),
      role: input.role ?? (input.isSuperuser ? 'owner' : 'nailist'),
      is_active: input.isActive ?? true,
    })
    .returning();
  return row!;
}

export async function setStaffActive(db: Database, staffId: number, active: boolean): Promise<void> {
  await db.update(staffUsers).set({ is_active: active }).where(eq(staffUsers.id, staffId));
}

export async function createCustomer(
  db: Database,
  salonId: number,
  input: { name?: string; furigana?: string; email?: string; phoneNumber?: string; lineUserId?: string } = {},
): Promise<CustomerRow> {
  const [row] = await db
    .insert(customers)
    .values({
      salon_id: salonId,
      name: input.name ?? '山田 花子',
      furigana: input.furigana ?? 'ヤマダ ハナコ',
      email: input.email ?? '',
      phone_number: input.phoneNumber ?? '',
      line_user_id: input.lineUserId ?? null,
    })
    .returning();
  return row!;
}
