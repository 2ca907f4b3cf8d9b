/**
 * Reading reservations with the names their answers and messages need (the row joined with its salon, staff member
 * and customer). The writes are split by use case: book.repository.ts, transition.repository.ts,
 * reschedule.repository.ts, staff-booking.repository.ts.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES, type ReservationStatus } from '#src/shared/constants';
import { normalisePhone, searchFold } from '#src/shared/kana';
import type { Executor } from '../../db/client';
import { incidentCountsColumn } from '../../db/incidents';
import { totalOf } from '../../db/paging';
import { customers, reservations, salons, staffUsers } from '../../db/schema';

export type ReservationRow = typeof reservations.$inferSelect;
/** What presenting a reservation and notifying about it need besides its row: names, and both LINE ids. */
export interface ReservationNames {
  salon_name: string;
  staff_name: string;
  staff_line_user_id: string | null;
  customer_line_user_id: string | null;
}
export type ReservationWithNames = ReservationRow & ReservationNames;

const withNames = {
  reservation: reservations,
  salon_name: salons.name,
  staff_name: staffUsers.full_name,
  staff_line_user_id: staffUsers.line_user_id,
  customer_line_user_id: customers.line_user_id,
};

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no extra columns by default
function selectWithNames<Extra extends Record<string, SQL> = {}>(db: Executor, extra?: Extra) {
  return db
    .select({ ...withNames, ...(extra as Extra) })
    .from(reservations)
    .innerJoin(salons, eq(salons.id, reservations.salon_id))
    .innerJoin(staffUsers, eq(staffUsers.id, reservations.staff_id))
    .innerJoin(customers, eq(customers.id, reservations.customer_id));
}

const flatten = <Names extends Omit<ReservationWithNames, keyof ReservationRow>>({
  reservation,
  ...names
}: { reservation: ReservationRow } & Names) => ({
  ...reservation,
  ...names,
});

export async function findByNumber(
  db: Executor,
  salonId: number,
  reservationNumber: string,
): Promise<ReservationWithNames | undefined> {
  const [row] = await selectWithNames(db)
    .where(and(eq(reservations.salon_id, salonId), eq(reservations.reservation_number, reservationNumber)))
    .limit(1);
  return row && flatten(row);
}

/** The reservation an earlier request with this (caller-scoped) Idempotency-Key created, if any. */
export async function findByIdempotencyKey(
  db: Executor,
  salonId: number,
  idempotencyKey: string,
): Promise<ReservationWithNames | undefined> {
  const [row] = await selectWithNames(db)
    .where(and(eq(reservations.salon_id, salonId), eq(reservations.idempotency_key, idempotencyKey)))
    .limit(1);
  return row && flatten(row);
}

/** The caller's next active reservation (for the check page's LINE push). */
export async function findNextActiveForCustomer(db: Executor, customerId: number, now: Date) {
  const [row] = await selectWithNames(db)
    .where(
      and(
        eq(reservations.customer_id, customerId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        gt(reservations.end_time, now),
      ),
    )
    .orderBy(asc(reservations.start_time))
    .limit(1);
  return row && flatten(row);
}

/**
 * One customer's own reservations for their list: those still ahead (active and not yet ended), soonest first,
 * and the rest (ended, cancelled, completed, no-show), latest first, at most `pastLimit` of them.
 */
export async function listForCustomer(db: Executor, salonId: number, customerId: number, now: Date, pastLimit: number) {
  const own = and(eq(reservations.salon_id, salonId), eq(reservations.customer_id, customerId));
  const ahead = and(inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]), gt(reservations.end_time, now));
  const [upcoming, past] = await Promise.all([
    selectWithNames(db).where(and(own, ahead)).orderBy(asc(reservations.start_time), asc(reservations.id)),
    selectWithNames(db)
      .where(and(own, sql`not (${ahead})`))
      .orderBy(desc(reservations.start_time), desc(reservations.id))
      .limit(pastLimit),
  ]);
  return { upcoming: upcoming.map(flatten), past: past.map(flatten) };
}

export interface ReservationListFilter {
  salonId: number;
  staffId?: number;
  from?: Date;
  to?: Date;
  statuses?: ReservationStatus[];
  updatedSince?: Date;
  customerId?: number;
  /** A short reservation code, already normalised (normalizeReservationCode). */
  code?: string;
  /** Name, furigana or phone number containing this text (reservationTextMatch). */
  text?: string;
  limit: number;
  offset: number;
}

/**
 * A page of reservations with their names and their customers' incident counts (one statement), and the total, for
 * the lists that filter on more than a date range (status, code, customer, updated since). The staff day list itself
 * is answered as JSON by one named statement (day-list.repository.ts).
 */
export async function listReservations(db: Executor, filter: ReservationListFilter) {
  const conditions: SQL[] = [eq(reservations.salon_id, filter.salonId)];
  if (filter.staffId !== undefined) conditions.push(eq(reservations.staff_id, filter.staffId));
  if (filter.customerId !== undefined) conditions.push(eq(reservations.customer_id, filter.customerId));
  if (filter.from) conditions.push(gte(reservations.start_time, filter.from));
  if (filter.to) conditions.push(lt(reservations.start_time, filter.to));
  if (filter.statuses?.length) conditions.push(inArray(reservations.status, filter.statuses));
  if (filter.updatedSince) conditions.push(gt(reservations.updated_at, filter.updatedSince));
  if (filter.code !== undefined) conditions.push(eq(reservations.reservation_code, filter.code));
  if (filter.text !== undefined) conditions.push(reservationTextMatch(filter.text));
  const where = and(...conditions);
  const countAll = async () => (await db.select({ value: count() }).from(reservations).where(where))[0]?.value ?? 0;
  // `limit: 0` asks for the count alone: no query for no rows.
  if (filter.limit === 0) return { rows: [], total: await countAll() };
  const rows = await selectWithNames(db, { incidents: incidentsOfRow })
    .where(where)
    .orderBy(asc(reservations.start_time), asc(reservations.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { rows: rows.map(flatten), total: await totalOf(rows.length, filter, countAll) };
}

/**
 * The staff search box's text against the booking's own copy of the customer (name, furigana, phone): folded as a
 * customer search folds (customer_search_fold, migration 0017; searchFold in the browser's offline reader), and
 * the phone compared digits to digits, so that 090-1111 finds 09011112222. strpos, not LIKE: `%` typed is literal.
 */
function reservationTextMatch(text: string): SQL {
  const folded = searchFold(text);
  const digits = normalisePhone(text);
  const named = or(
    sql`strpos(customer_search_fold(${reservations.customer_name}), ${folded}) > 0`,
    sql`strpos(customer_search_fold(${reservations.customer_furigana}), ${folded}) > 0`,
  )!;
  if (!/^[0-9]+$/.test(digits)) return named;
  return or(named, sql`strpos(regexp_replace(${reservations.customer_phone}, '[^0-9]', '', 'g'), ${digits}) > 0`)!;
}

/** The customer's 無断欠席 and 直前キャンセル as a column of the list (server/db/incidents.ts). */
const incidentsOfRow = incidentCountsColumn(sql`${reservations}.${sql.identifier('customer_id')}`);

/** Whether the reservation exists within `scope` (a staff member's condition on reservations). */
export async function existsInScope(db: Executor, reservationNumber: string, scope: SQL) {
  const [row] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.reservation_number, reservationNumber), scope))
    .limit(1);
  return Boolean(row);
}
