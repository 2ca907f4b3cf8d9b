import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES, type ReservationStatus } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { cancelColumns } from '../../db/incidents';
import { totalOf } from '../../db/paging';
import { customerScopeFor, type ScopedStaff } from '../../db/scope';
import { customers, reservationReschedules, reservations, salons, staffUsers } from '../../db/schema';

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

function selectWithNames(db: Executor) {
  return db
    .select(withNames)
    .from(reservations)
    .innerJoin(salons, eq(salons.id, reservations.salon_id))
    .innerJoin(staffUsers, eq(staffUsers.id, reservations.staff_id))
    .innerJoin(customers, eq(customers.id, reservations.customer_id));
}

const flatten = ({
  reservation,
  ...names
}: { reservation: ReservationRow } & Omit<ReservationWithNames, keyof ReservationRow>) => ({
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

/**
 * Compare-and-swap transition: changes the status only from one of `from` (and within `scope`, and, with
 * `startTime`, only while the reservation still starts then), so two concurrent transitions can never both
 * succeed and a staff action made against a time that has since moved never lands on the new time. Returns
 * undefined when nothing matched.
 */
export async function transitionStatus(
  db: Executor,
  input: {
    salonId: number;
    reservationNumber: string;
    from: readonly ReservationStatus[];
    to: ReservationStatus;
    scope?: SQL;
    startedBefore?: Date;
    /** The start the caller saw (the staff action's expected_start_time). */
    startTime?: Date;
    /** The app's clock: a cancel records when it happened and whether it was late (server/db/incidents.ts). */
    now: Date;
  },
) {
  const conditions = [
    eq(reservations.salon_id, input.salonId),
    eq(reservations.reservation_number, input.reservationNumber),
    inArray(reservations.status, [...input.from]),
  ];
  if (input.scope) conditions.push(input.scope);
  if (input.startedBefore) conditions.push(lt(reservations.start_time, input.startedBefore));
  if (input.startTime) conditions.push(eq(reservations.start_time, input.startTime));
  const [row] = await db
    .update(reservations)
    .set({
      status: input.to,
      ...(input.to === 'cancelled' ? cancelColumns(input.now) : {}),
      updated_at: sql`now()`,
    })
    .where(and(...conditions))
    .returning({ id: reservations.id });
  return row;
}

export async function insertReservation(db: Executor, row: typeof reservations.$inferInsert) {
  const [inserted] = await db.insert(reservations).values(row).returning();
  return inserted!;
}

/**
 * A customer's booking takes its locks in one statement: the customer row `FOR UPDATE` for the rest of the
 * transaction (one booking per customer at a time), and the chosen staff member's row `FOR KEY SHARE`, with the
 * schedule version and the names the booking's messages need. The key-share lock is the one the insert's
 * foreign-key check would take anyway: a schedule change's `FOR UPDATE` (server/features/schedule) either waits
 * for this booking and then sees it, or this waits for the change and reads the raised version (in READ COMMITTED
 * a locking read that waited returns the row as the other transaction left it). `staff` is null when the staff
 * member's row is gone; `undefined` (no row) when the customer is.
 */
export async function lockCustomerAndStaff(db: Executor, customerId: number, staffId: number) {
  const staff = db
    .select({
      schedule_version: staffUsers.schedule_version,
      full_name: staffUsers.full_name,
      line_user_id: staffUsers.line_user_id,
    })
    .from(staffUsers)
    .where(eq(staffUsers.id, staffId))
    .for('key share')
    .as('locked_staff');
  const [row] = await db
    .select({
      customer: customers,
      schedule_version: staff.schedule_version,
      staff_name: staff.full_name,
      staff_line_user_id: staff.line_user_id,
    })
    .from(customers)
    .leftJoinLateral(staff, sql`true`)
    .where(eq(customers.id, customerId))
    .for('update', { of: customers });
  if (!row) return undefined;
  const { customer, schedule_version, staff_name, staff_line_user_id } = row;
  return {
    customer,
    staff:
      schedule_version === null ? null : { schedule_version, name: staff_name ?? '', line_user_id: staff_line_user_id },
  };
}

/**
 * Writes the details a customer booked with into their profile and, in the same statement, counts their upcoming
 * active reservations and returns `alsoRead` (the booking limits' own reads, server/plugins/booking-limits.ts).
 * Run after lockCustomerAndStaff: in READ COMMITTED a statement sees what committed before it began, so only a
 * statement that starts once the row lock is held sees a concurrent booking of the same customer.
 */
export async function saveProfileAndCountUpcoming<T>(
  db: Executor,
  customerId: number,
  profile: { name: string; furigana: string; email: string; phone_number: string; assigned_staff_id: number },
  now: Date,
  alsoRead: SQL<T>,
): Promise<{ upcoming: number; alsoRead: T }> {
  const [row] = await db
    .update(customers)
    .set({ ...profile, updated_at: sql`now()` })
    .where(eq(customers.id, customerId))
    .returning({
      upcoming: sql<number>`(select count(*) from ${reservations} where ${and(
        eq(reservations.customer_id, customerId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
        gt(reservations.start_time, now),
      )})`.mapWith(Number),
      alsoRead,
    });
  if (!row) throw new Error(`customer ${customerId} vanished under its own lock`);
  return row;
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
  limit: number;
  offset: number;
}

export async function listReservations(db: Executor, filter: ReservationListFilter) {
  const conditions: SQL[] = [eq(reservations.salon_id, filter.salonId)];
  if (filter.staffId !== undefined) conditions.push(eq(reservations.staff_id, filter.staffId));
  if (filter.customerId !== undefined) conditions.push(eq(reservations.customer_id, filter.customerId));
  if (filter.from) conditions.push(gte(reservations.start_time, filter.from));
  if (filter.to) conditions.push(lt(reservations.start_time, filter.to));
  if (filter.statuses?.length) conditions.push(inArray(reservations.status, filter.statuses));
  if (filter.updatedSince) conditions.push(gt(reservations.updated_at, filter.updatedSince));
  if (filter.code !== undefined) conditions.push(eq(reservations.reservation_code, filter.code));
  const where = and(...conditions);
  const countAll = async () => (await db.select({ value: count() }).from(reservations).where(where))[0]?.value ?? 0;
  // `limit: 0` asks for the count alone: no query for no rows.
  if (filter.limit === 0) return { rows: [], total: await countAll() };
  const rows = await selectWithNames(db)
    .where(where)
    .orderBy(asc(reservations.start_time), asc(reservations.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { rows: rows.map(flatten), total: await totalOf(rows.length, filter, countAll) };
}

/**
 * What 指名なし decides by, in one statement: the customer's own staff member, and the active reservations starting
 * in [from, to) of each of `staffIds` (absent: none).
 */
export async function staffChoiceInputs(
  db: Executor,
  input: { salonId: number; customerId: number; staffIds: readonly number[]; from: Date; to: Date },
): Promise<{ assigned: number | null; loads: Map<number, number> }> {
  const [row] = await db
    .select({
      assigned: customers.assigned_staff_id,
      loads: sql<Array<{ staffId: number; total: number }>>`(
        select coalesce(json_agg(json_build_object('staffId', per_staff.staff_id, 'total', per_staff.total)), '[]')
        from (
          select ${reservations.staff_id} as staff_id, count(*)::int as total from ${reservations}
          where ${and(
            eq(reservations.salon_id, input.salonId),
            inArray(reservations.staff_id, [...input.staffIds]),
            inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
            gte(reservations.start_time, input.from),
            lt(reservations.start_time, input.to),
          )}
          group by ${reservations.staff_id}
        ) per_staff)`,
    })
    .from(customers)
    .where(eq(customers.id, input.customerId));
  return {
    assigned: row?.assigned ?? null,
    loads: new Map((row?.loads ?? []).map((load) => [load.staffId, load.total])),
  };
}

/**
 * The existing customer a front-desk booking (create-with-new-customer) reuses for a typed e-mail or phone, if any.
 * Only one the caller may already see (a superuser: any), so that typing someone's phone number neither shows their
 * stored name nor brings them into the caller's scope; and only one not linked to LINE. A LINE-linked customer's
 * contact details are whatever they typed into their own booking form, so anyone can plant someone else's phone
 * or e-mail there and would receive that person's walk-in bookings; staff book for a LINE customer by picking
 * them (create-for-customer). Every customer who can sign in is LINE-linked and a link is never removed, so an
 * unlinked customer's contact details were written by staff alone. Without a match the caller creates a new
 * customer (e-mail and phone are not unique).
 */
export async function findWalkInCustomerByContact(
  db: Executor,
  input: { salonId: number; staff: ScopedStaff; email: string; phone: string },
) {
  const matches: SQL[] = [];
  if (input.email) matches.push(eq(sql`lower(${customers.email})`, input.email.toLowerCase()));
  if (input.phone) matches.push(eq(customers.phone_number, input.phone));
  if (matches.length === 0) return undefined;
  const conditions = [eq(customers.salon_id, input.salonId), or(...matches)!, isNull(customers.line_user_id)];
  const scope = customerScopeFor(input.staff);
  if (scope) conditions.push(scope);
  const [row] = await db
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(asc(customers.id))
    .limit(1);
  return row;
}

/**
 * The staff member's schedule_version (server/db/schema.ts says what it guards), read under a key-share lock: a
 * move within the same staff member's day changes no foreign key, so nothing else would make this wait for a
 * schedule change holding the row (`FOR UPDATE`, server/features/schedule/schedule-change.ts) and see its version.
 */
export async function scheduleVersionOf(db: Executor, staffId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ version: staffUsers.schedule_version })
    .from(staffUsers)
    .where(eq(staffUsers.id, staffId))
    .for('key share');
  return row?.version;
}

/**
 * Moves an active reservation (compare-and-swap on its current start, staff member and status): the old time is
 * held until this one statement commits, and the exclusion constraint checks the new time against every other
 * booking. Undefined when the reservation changed meanwhile.
 */
export async function moveReservation(
  db: Executor,
  input: {
    id: number;
    from: { start: Date; staffId: number };
    to: Pick<
      ReservationRow,
      'start_time' | 'end_time' | 'occupied_until' | 'staff_id' | 'is_nominated' | 'nomination_fee' | 'price'
    >;
  },
) {
  const [row] = await db
    .update(reservations)
    .set({ ...input.to, reminder_sent_at: null, updated_at: sql`now()` })
    .where(
      and(
        eq(reservations.id, input.id),
        eq(reservations.start_time, input.from.start),
        eq(reservations.staff_id, input.from.staffId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
      ),
    )
    .returning({ id: reservations.id });
  return row;
}

export async function recordReschedule(db: Executor, row: typeof reservationReschedules.$inferInsert) {
  await db.insert(reservationReschedules).values(row);
}

export async function findStaff(db: Executor, salonId: number, staffId: number) {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.salon_id, salonId), eq(staffUsers.is_active, true)))
    .limit(1);
  return row;
}

/** A customer created at the front desk from what staff typed, looked after by the staff member who serves them. */
export async function insertWalkInCustomer(
  db: Executor,
  input: { salonId: number; name: string; email: string; phone: string; staffId: number },
) {
  const [row] = await db
    .insert(customers)
    .values({
      salon_id: input.salonId,
      name: input.name,
      email: input.email,
      phone_number: input.phone,
      assigned_staff_id: input.staffId,
    })
    .returning();
  return row!;
}

/** Whether the reservation exists within `scope` (a staff member's condition on reservations). */
export async function existsInScope(db: Executor, reservationNumber: string, scope: SQL) {
  const [row] = await db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.reservation_number, reservationNumber), scope))
    .limit(1);
  return Boolean(row);
}
