import { and, asc, count, desc, eq, gt, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { customers, reservations, salons, staffUsers } from '../../db/schema';
import { toKatakana } from '#src/shared/kana';
import { customerInStaffScope, customerScopeFor, type ScopedStaff } from '../../db/scope';

export type CustomerRow = typeof customers.$inferSelect;

export interface CustomerListFilter {
  salonId: number;
  /** The caller's scope (undefined: everything, a superuser without user_id). */
  scopeStaffId?: number;
  name?: string;
  email?: string;
  phone?: string;
  updatedSince?: Date;
  limit: number;
  offset: number;
}

/** `%` and `_` typed by a person are literal characters, not wildcards (backslash is LIKE's escape). */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * "Contains, ignoring case". Kanji and kana have no case, so for such text (most name searches) a plain
 * strpos finds the same rows as ILIKE at a fraction of the cost: the search reads every customer of the salon
 * either way, and at 50,000 customers ILIKE took ~200 ms on PGlite and ~45 ms on PostgreSQL, strpos ~11 ms
 * (docs/BENCHMARKS.md).
 */
function containsText(column: typeof customers.name | typeof customers.furigana, text: string): SQL {
  return text.toLowerCase() === text.toUpperCase()
    ? sql`strpos(${column}, ${text}) > 0`
    : ilike(column, likeContains(text));
}

export async function listCustomers(db: Executor, filter: CustomerListFilter) {
  const conditions: SQL[] = [eq(customers.salon_id, filter.salonId)];
  if (filter.scopeStaffId !== undefined) conditions.push(customerInStaffScope(filter.scopeStaffId));
  if (filter.name) {
    const katakana = toKatakana(filter.name);
    const matches = [containsText(customers.name, filter.name), containsText(customers.furigana, filter.name)];
    if (katakana !== filter.name) matches.push(containsText(customers.furigana, katakana));
    conditions.push(or(...matches)!);
  }
  if (filter.email) conditions.push(ilike(customers.email, likeContains(filter.email)));
  if (filter.phone) conditions.push(ilike(customers.phone_number, likeContains(filter.phone)));
  if (filter.updatedSince) conditions.push(gt(customers.updated_at, filter.updatedSince));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db.select().from(customers).where(where).orderBy(asc(customers.id)).limit(filter.limit).offset(filter.offset),
    db.select({ value: count() }).from(customers).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

/** Updates only within the caller's scope, in one statement: out of scope changes nothing. */
export async function updateCustomer(
  db: Executor,
  salonId: number,
  customerId: number,
  staff: ScopedStaff,
  patch: Partial<
    Pick<CustomerRow, 'notes' | 'name' | 'furigana' | 'email' | 'phone_number' | 'rebook_prompts_enabled'>
  >,
) {
  const conditions = [eq(customers.id, customerId), eq(customers.salon_id, salonId)];
  const scope = customerScopeFor(staff);
  if (scope) conditions.push(scope);
  const [row] = await db
    .update(customers)
    .set({ ...patch, updated_at: sql`now()` })
    .where(and(...conditions))
    .returning();
  return row;
}

/** The customer's reservations, newest start first; `staffId` keeps an ordinary staff member to their own. */
export async function listCustomerReservations(
  db: Executor,
  input: { salonId: number; customerId: number; staffId?: number; limit: number; offset: number },
) {
  const conditions = [eq(reservations.salon_id, input.salonId), eq(reservations.customer_id, input.customerId)];
  if (input.staffId !== undefined) conditions.push(eq(reservations.staff_id, input.staffId));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        reservation: reservations,
        salon_name: salons.name,
        staff_name: staffUsers.full_name,
        staff_line_user_id: staffUsers.line_user_id,
      })
      .from(reservations)
      .innerJoin(salons, eq(salons.id, reservations.salon_id))
      .innerJoin(staffUsers, eq(staffUsers.id, reservations.staff_id))
      .where(where)
      .orderBy(desc(reservations.start_time), desc(reservations.id))
      .limit(input.limit)
      .offset(input.offset),
    db.select({ value: count() }).from(reservations).where(where),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row.reservation,
      salon_name: row.salon_name,
      staff_name: row.staff_name,
      staff_line_user_id: row.staff_line_user_id,
    })),
    total: total?.value ?? 0,
  };
}

/**
 * Sets the LINE identity on a customer still unlinked (or already linked to this same LINE user). The unique
 * index (salon, line_user_id) refuses a LINE user already linked to another customer.
 */
export async function linkCustomerToLine(
  db: Executor,
  input: { salonId: number; customerId: number; lineUserId: string; displayName: string; pictureUrl: string },
) {
  const [row] = await db
    .update(customers)
    .set({
      line_user_id: input.lineUserId,
      line_display_name: input.displayName,
      line_picture_url: input.pictureUrl,
      updated_at: sql`now()`,
    })
    .where(
      and(
        eq(customers.id, input.customerId),
        eq(customers.salon_id, input.salonId),
        or(isNull(customers.line_user_id), eq(customers.line_user_id, input.lineUserId)),
      ),
    )
    .returning({ id: customers.id });
  return row?.id;
}
