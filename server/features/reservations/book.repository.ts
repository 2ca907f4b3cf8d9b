/**
 * The SQL of claiming a staff member's time: a customer's booking in one statement, book_reservation() (book.ts), the
 * insert of a staff booking (create-as-staff.ts), and what 指名なし decides a customer's move by (staff-choice.ts).
 */
import { and, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Database, Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { customers, reservations, salons, staffUsers, type ReservationOptionSnapshot } from '../../db/schema';
import type { ReservationWithNames } from './reservations.repository';

export async function insertReservation(db: Executor, row: typeof reservations.$inferInsert) {
  const [inserted] = await db.insert(reservations).values(row).returning();
  return inserted!;
}

/** What book_reservation() (migrations 0025 and 0027) decides a customer's booking on: its parameters, named. */
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
 * A customer's booking decided and inserted in one statement, its own transaction (autocommit): book_reservation()
 * (migrations 0025 and 0027) applies every rule under the customer's lock, inserts the reservation and the outbox
 * row the worker expands into its messages (server/outbox/reservation-events.ts), and returns the reservation,
 * joined here with the names the answer needs. A refusal is a database error of SQLSTATE class BK (book.ts maps it
 * to its answer). Built once per database handle and run by name (server/db/prepared.ts): PostgreSQL parses and
 * plans it once per connection.
 */
export async function bookReservation(db: Database, input: CustomerBookingInput): Promise<ReservationWithNames> {
  const { customer, counter } = input;
  const [row] = await preparedOn(db, 'book_reservation', bookStatement).execute({
    salonId: input.salonId,
    customerId: input.customerId,
    staffId: input.staffId ?? null,
    serviceId: input.serviceId,
    serviceName: input.serviceName,
    menuPrice: input.menuPrice,
    options: JSON.stringify(input.options),
    servedMinutes: input.servedMinutes,
    start: input.start.toISOString(),
    localDate: input.localDate,
    localSeconds: input.localSeconds,
    dayFrom: input.dayFrom.toISOString(),
    dayTo: input.dayTo.toISOString(),
    now: input.now.toISOString(),
    customerName: customer.name,
    customerFurigana: customer.furigana,
    customerEmail: customer.email,
    customerPhone: customer.phone,
    emailLimit: input.emailLimit ?? null,
    counterKey: counter?.key ?? null,
    counterLimit: counter?.limit ?? null,
    counterWindow: counter?.windowSeconds ?? null,
    idempotencyKey: input.idempotencyKey,
  });
  if (!row) throw new Error('book_reservation returned no row');
  return row as ReservationWithNames;
}

function bookStatement(db: Executor) {
  const p = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}`;
  return db
    .select({
      ...bookedColumns,
      salon_name: salons.name,
      staff_name: staffUsers.full_name,
      staff_line_user_id: staffUsers.line_user_id,
      customer_line_user_id: customers.line_user_id,
    })
    .from(
      sql`book_reservation(
        p_salon_id => ${p('salonId', 'int')}, p_customer_id => ${p('customerId', 'int')},
        p_staff_id => ${p('staffId', 'int')}, p_service_id => ${p('serviceId', 'int')},
        p_service_name => ${p('serviceName', 'text')}, p_menu_price => ${p('menuPrice', 'int')},
        p_options => ${p('options', 'jsonb')}, p_served_minutes => ${p('servedMinutes', 'int')},
        p_start => ${p('start', 'timestamptz')}, p_local_date => ${p('localDate', 'date')},
        p_local_seconds => ${p('localSeconds', 'int')}, p_day_from => ${p('dayFrom', 'timestamptz')},
        p_day_to => ${p('dayTo', 'timestamptz')}, p_now => ${p('now', 'timestamptz')},
        p_customer_name => ${p('customerName', 'text')}, p_customer_furigana => ${p('customerFurigana', 'text')},
        p_customer_email => ${p('customerEmail', 'text')}, p_customer_phone => ${p('customerPhone', 'text')},
        p_email_limit => ${p('emailLimit', 'int')}, p_counter_key => ${p('counterKey', 'text')},
        p_counter_limit => ${p('counterLimit', 'int')},
        p_counter_window => make_interval(secs => ${p('counterWindow', 'int')}),
        p_idempotency_key => ${p('idempotencyKey', 'text')}
      ) as ${BOOKED}`,
    )
    .innerJoin(salons, eq(salons.id, bookedColumns.salon_id))
    .innerJoin(staffUsers, eq(staffUsers.id, bookedColumns.staff_id))
    .innerJoin(customers, eq(customers.id, bookedColumns.customer_id))
    .prepare('book_reservation');
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
