import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { incidentCountsColumn } from '../../db/incidents';
import { totalOf } from '../../db/paging';
import { customerNameSuffixes, customers, reservations, salons, staffUsers } from '../../db/schema';
import { searchFold } from '#src/shared/kana';
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

/** Above every character: `suffix < q + TOP` holds for every suffix that starts with q (C collation: code points). */
const TOP = '\u{10FFFF}';

/** The suffixes that start with the folded text (searchFold, the rule the offline reader applies too). */
export function suffixRange(name: string): { from: string; to: string } {
  const from = searchFold(name);
  return { from, to: from + TOP };
}

/**
 * The ids of the customers whose folded name or folded furigana contains `folded` (already folded by searchFold, the
 * rule the offline reader applies too): those with a suffix that starts with it (migration 0019), each once.
 */
export function customersNamed(
  db: Executor,
  salonId: number | Placeholder,
  from: string | Placeholder,
  to: string | Placeholder,
) {
  const { customer_id, salon_id, suffix } = customerNameSuffixes;
  return db
    .selectDistinct({ id: customer_id })
    .from(customerNameSuffixes)
    .where(and(eq(salon_id, salonId), gte(suffix, from), lt(suffix, to)));
}

const customerColumns = getTableColumns(customers);
const incidentsOfCustomersRow = incidentCountsColumn(sql`${customers}.${sql.identifier('id')}`);

/**
 * A name is searched in the table of name suffixes (migration 0019): an index range that holds the matches' ids in
 * order. A search by name alone, by a caller who sees every customer, is answered as JSON by one statement
 * (name-search.ts, `isNameAlone`); with a scope or another filter, the matching customers are read and counted here
 * in one statement (a window count). E-mail and phone use trigram indexes with ILIKE (migration 0017). A list without a
 * search stops after its page and counts only when the page is full (totalOf).
 */
export async function listCustomers(db: Executor, filter: CustomerListFilter) {
  const conditions: SQL[] = [eq(customers.salon_id, filter.salonId)];
  if (filter.scopeStaffId !== undefined) conditions.push(customerInStaffScope(filter.scopeStaffId));
  const range = filter.name ? suffixRange(filter.name) : undefined;
  const named = range ? customersNamed(db, filter.salonId, range.from, range.to) : undefined;
  if (named) conditions.push(inArray(customers.id, named));
  if (filter.email) conditions.push(ilike(customers.email, likeContains(filter.email)));
  if (filter.phone) conditions.push(ilike(customers.phone_number, likeContains(filter.phone)));
  if (filter.updatedSince) conditions.push(gt(customers.updated_at, filter.updatedSince));
  const where = and(...conditions);
  const countAll = async () => (await db.select({ value: count() }).from(customers).where(where))[0]?.value ?? 0;
  const page = { limit: filter.limit, offset: filter.offset };

  if (!(named || filter.email || filter.phone)) {
    const rows = await db
      .select({ ...customerColumns, incidents: incidentsOfCustomersRow })
      .from(customers)
      .where(where)
      .orderBy(asc(customers.id))
      .limit(page.limit)
      .offset(page.offset);
    return { rows, total: await totalOf(rows.length, page, countAll) };
  }
  // The window count sits in a subquery: with ORDER BY id LIMIT on the same level, the planner would walk the primary
  // key hoping to stop early, which a count over every match never does, instead of the search's index.
  const matches = db
    .select({ ...customerColumns, total: sql<number>`count(*) over ()`.mapWith(Number).as('total') })
    .from(customers)
    .where(where)
    .as('matches');
  // The page's incident counts are read with it (after the limit: only the rows shown are counted).
  const matchColumns = Object.fromEntries(
    Object.keys(customerColumns).map((key) => [key, matches[key as keyof typeof customerColumns]]),
  ) as { [K in keyof typeof customerColumns]: (typeof matches)[K] };
  const found = await db
    .select({
      ...matchColumns,
      total: matches.total,
      incidents: incidentCountsColumn(sql`${sql.identifier('matches')}.${sql.identifier('id')}`),
    })
    .from(matches)
    .orderBy(asc(matches.id))
    .limit(page.limit)
    .offset(page.offset);
  return withTotal(found, page, countAll);
}

/** A page read with its total in every row: the total is the first row's, or counted when the page is empty. */
async function withTotal<Row extends { total: number }>(
  found: Row[],
  page: { limit: number; offset: number },
  countAll: () => Promise<number>,
) {
  const total = found.length > 0 ? found[0]!.total : await totalOf(0, page, countAll);
  return { rows: found.map(({ total: _total, ...row }) => row), total };
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
