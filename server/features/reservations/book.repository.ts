/**
 * The SQL of claiming a staff member's time (book.ts and create-as-staff.ts): the locks a customer's booking takes,
 * its profile write and limit count, the insert itself, and what 指名なし decides by (staff-choice.ts).
 */
import { and, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { customers, reservations, staffUsers } from '../../db/schema';

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
    .for('update', { of: customers })
    // Named (its text never changes): PostgreSQL parses it once per connection (server/db/prepared.ts). Built per
    // call all the same: a statement prepared on the pool cannot run in the booking's transaction.
    .prepare('book_lock_customer_and_staff')
    .execute();
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
    })
    // Named as lockCustomerAndStaff is; its one caller (book.ts) always passes the same `alsoRead`.
    .prepare('book_save_profile_and_count')
    .execute();
  if (!row) throw new Error(`customer ${customerId} vanished under its own lock`);
  return row;
}

/**
 * What 指名なし decides by, in one statement: the customer's own staff member, and the active reservations starting
 * in [from, to) of each of `staffIds` (absent: none).
 */
export async function staffChoiceInputs(
  db: Executor,
  input: { salonId: number; customerId: number; staffIds: readonly number[]; from: Date; to: Date },
): Promise<{ assigned: number | null; loads: Map<number, number> }> {
  const [row] = await preparedOn(db, 'staff_choice_inputs', staffChoiceStatement).execute({
    salonId: input.salonId,
    customerId: input.customerId,
    staffIds: [...input.staffIds],
    from: input.from.toISOString(),
    to: input.to.toISOString(),
  });
  return {
    assigned: row?.assigned ?? null,
    loads: new Map((row?.loads ?? []).map((load) => [load.staffId, load.total])),
  };
}

function staffChoiceStatement(db: Executor) {
  return db
    .select({
      assigned: customers.assigned_staff_id,
      loads: sql<Array<{ staffId: number; total: number }>>`(
        select coalesce(json_agg(json_build_object('staffId', per_staff.staff_id, 'total', per_staff.total)), '[]')
        from (
          select ${reservations.staff_id} as staff_id, count(*)::int as total from ${reservations}
          where ${and(
            eq(reservations.salon_id, sql.placeholder('salonId')),
            sql`${reservations.staff_id} = any(${sql.placeholder('staffIds')}::int[])`,
            inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
            gte(reservations.start_time, sql`${sql.placeholder('from')}::timestamptz`),
            lt(reservations.start_time, sql`${sql.placeholder('to')}::timestamptz`),
          )}
          group by ${reservations.staff_id}
        ) per_staff)`,
    })
    .from(customers)
    .where(eq(customers.id, sql.placeholder('customerId')))
    .prepare('staff_choice_inputs');
}
