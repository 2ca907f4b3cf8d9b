import { and, asc, count, desc, eq, getTableColumns, gt, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { incidentCountsColumn } from '../../db/incidents';
import { totalOf } from '../../db/paging';
import { customers, reservations, salons, staffUsers } from '../../db/schema';
import { searchFold } from '#src/shared/kana';
import { customerInStaffScope, customerScopeFor, type ScopedStaff } from '../../db/scope';
import { searchTrigramKey } from './search-key';

/** A customer as the app reads it: the search columns belong to the database's index alone. */
export type CustomerRow = Omit<typeof customers.$inferSelect, 'search_key' | 'search_text'>;

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

/** Every column but the search columns, which only the database reads. */
const { search_key: _searchKey, search_text: _searchText, ...customerColumns } = getTableColumns(customers);

/**
 * The name or the furigana contains `folded` (already folded by searchFold). The trigram index narrows the candidates
 * through search_key; search_text then decides. It holds name and furigana on one line each, so a query without a
 * line break can only match within one of them; one with a line break is checked on each of them apart.
 */
function nameContains(folded: string): SQL[] {
  const candidates = sql`${customers.search_key} like ${`%${searchTrigramKey(folded)}%`}`;
  const exact = folded.includes('\n')
    ? sql`(strpos(customer_search_fold(${customers.name}), ${folded}) > 0 or strpos(customer_search_fold(${customers.furigana}), ${folded}) > 0)`
    : sql`strpos(${customers.search_text}, ${folded}) > 0`;
  return [candidates, exact];
}

/**
 * A name is searched through the trigram index on search_key (migration 0017 explains the key), which narrows the
 * candidates to the few rows of the salon's thousands that can match; each candidate is then checked on its folded
 * name and furigana themselves, so the answer is exactly "the name or the furigana contains the text", folded by
 * searchFold (the rule the offline reader applies too). E-mail and phone use plain trigram indexes with ILIKE.
 *
 * A search reads every match anyway (to count them), so it counts them in the same statement (a window count); a
 * list without a search stops after its page and counts only when the page is full (totalOf).
 */
export async function listCustomers(db: Executor, filter: CustomerListFilter) {
  const conditions: SQL[] = [eq(customers.salon_id, filter.salonId)];
  if (filter.scopeStaffId !== undefined) conditions.push(customerInStaffScope(filter.scopeStaffId));
  if (filter.name) conditions.push(...nameContains(searchFold(filter.name)));
  if (filter.email) conditions.push(ilike(customers.email, likeContains(filter.email)));
  if (filter.phone) conditions.push(ilike(customers.phone_number, likeContains(filter.phone)));
  if (filter.updatedSince) conditions.push(gt(customers.updated_at, filter.updatedSince));
  const where = and(...conditions);
  const countAll = async () => (await db.select({ value: count() }).from(customers).where(where))[0]?.value ?? 0;
  const page = { limit: filter.limit, offset: filter.offset };
  if (!(filter.name || filter.email || filter.phone)) {
    const rows = await db
      .select({ ...customerColumns, incidents: incidentCountsColumn(sql`${customers}.${sql.identifier('id')}`) })
      .from(customers)
      .where(where)
      .orderBy(asc(customers.id))
      .limit(page.limit)
      .offset(page.offset);
    return { rows, total: await totalOf(rows.length, page, countAll) };
  }
  // The window count sits in a subquery: with ORDER BY id LIMIT on the same level, the planner would walk the primary
  // key hoping to stop early, which a count over every match never does, instead of the trigram index.
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
