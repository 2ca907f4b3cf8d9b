/**
 * The SQL of claiming a staff member's time: a customer's booking in one call of book_reservation() (book.ts), the
 * insert of a staff booking (create-as-staff.ts), and what 指名なし decides a customer's move by (staff-choice.ts).
 */
import { and, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { customers, reservations, salons, staffUsers, type ReservationOptionSnapshot } from '../../db/schema';
import type { ReservationWithNames } from './reservations.repository';

export async function insertReservation(db: Executor, row: typeof reservations.$inferInsert) {
  const [inserted] = await db.insert(reservations).values(row).returning();
  return inserted!;
}

/** What book_reservation() (migration 0025) decides a customer's booking on: its parameters, named. */
export interface CustomerBookingInput {
  salonId: number;
  customerId: number;
  /** 指名; undefined = 指名なし. */
  staffId: number | undefined;
  serviceId: number;
  serviceName: string;
  /** The service and its options in yen (the function adds the 指名料). */
  menuPrice: number;
  options: ReservationOptionSnapshot[];
  servedMinutes: number;
  start: Date;
  localDate: string;
  /** Seconds after the local midnight, as requested (the grid is checked on them). */
  localSeconds: number;
  dayFrom: Date;
  dayTo: Date;
  now: Date;
  customer: { name: string; furigana: string; email: string; phone: string };
  /** Distinct e-mail addresses per 24 hours; undefined = no limit. */
  emailLimit: number | undefined;
  /** The booking-change counter to count in (server/plugins/booking-limits.ts); undefined counts nothing. */
  counter: { key: string; limit: number; windowSeconds: number } | undefined;
  idempotencyKey: string | null;
}

/**
 * A customer's booking decided and inserted in one statement: book_reservation() (migration 0025) applies every
 * rule under the customer's lock and returns the reservation, joined here with the names its messages need. A
 * refusal is a database error of SQLSTATE class BK (book.ts maps it to its answer). Named: its text never changes,
 * so PostgreSQL parses it once per connection (server/db/prepared.ts); built per call all the same, since a
 * statement prepared on the pool cannot run in the booking's transaction.
 */
export async function bookReservation(db: Executor, input: CustomerBookingInput): Promise<ReservationWithNames> {
  const { customer, counter } = input;
  const [row] = await db
    .select({
      ...bookedColumns,
      salon_name: salons.name,
      staff_name: staffUsers.full_name,
      staff_line_user_id: staffUsers.line_user_id,
      customer_line_user_id: customers.line_user_id,
    })
    .from(
      sql`book_reservation(
        p_salon_id => ${input.salonId}::int, p_customer_id => ${input.customerId}::int,
        p_staff_id => ${input.staffId ?? null}::int, p_service_id => ${input.serviceId}::int,
        p_service_name => ${input.serviceName}::text, p_menu_price => ${input.menuPrice}::int,
        p_options => ${JSON.stringify(input.options)}::jsonb, p_served_minutes => ${input.servedMinutes}::int,
        p_start => ${input.start.toISOString()}::timestamptz, p_local_date => ${input.localDate}::date,
        p_local_seconds => ${input.localSeconds}::int, p_day_from => ${input.dayFrom.toISOString()}::timestamptz,
        p_day_to => ${input.dayTo.toISOString()}::timestamptz, p_now => ${input.now.toISOString()}::timestamptz,
        p_customer_name => ${customer.name}::text, p_customer_furigana => ${customer.furigana}::text,
        p_customer_email => ${customer.email}::text, p_customer_phone => ${customer.phone}::text,
        p_email_limit => ${input.emailLimit ?? null}::int, p_counter_key => ${counter?.key ?? null}::text,
        p_counter_limit => ${counter?.limit ?? null}::int,
        p_counter_window => make_interval(secs => ${counter?.windowSeconds ?? null}::int),
        p_idempotency_key => ${input.idempotencyKey}::text
      ) as ${BOOKED}`,
    )
    .innerJoin(salons, eq(salons.id, bookedColumns.salon_id))
    .innerJoin(staffUsers, eq(staffUsers.id, bookedColumns.staff_id))
    .innerJoin(customers, eq(customers.id, bookedColumns.customer_id))
    .prepare('book_reservation')
    .execute();
  if (!row) throw new Error('book_reservation returned no row');
  return row as ReservationWithNames;
}

/** The row book_reservation() returns, read as the reservations table's columns (with their types). */
const BOOKED = sql.identifier('booked');
const bookedColumns = Object.fromEntries(
  Object.entries(getTableColumns(reservations)).map(([key, column]) => [
    key,
    sql`${BOOKED}.${sql.identifier(column.name)}`.mapWith(column),
  ]),
) as { [K in keyof typeof reservations._.columns]: SQL<(typeof reservations.$inferSelect)[K]> };

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
