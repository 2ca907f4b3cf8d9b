/**
 * The benchmark data set, generated inside the database (INSERT … SELECT over generate_series): one salon, its
 * staff and menu, customers, a year of opening slots, upcoming reservations and years of history. Generation is
 * deterministic (hashint4 of the row number, not random()), so every run and both engines get the same rows.
 *
 * Layout. Each staff member works 09:00–21:00 on a 30-minute grid and has one day off a week. A staff-day has
 * six "positions" two hours apart (09:00, 11:00, …, 19:00) and every service lasts at most two hours, so bookings
 * at different positions of one staff-day never overlap.
 *  - Upcoming (tomorrow … +FUTURE_DAYS): about 45% of positions booked, pending / confirmed / a few cancelled.
 *  - History (yesterday backwards): a fixed number of reservations per day, spread over the staff and positions.
 *    Once a staff-day's six positions are used, further history rows go to a new "lane" at the same positions.
 *    Only lane 0 may hold an active status (a past booking nobody closed); later lanes are completed, cancelled
 *    or no-show, which hold no time (the exclusion constraint ignores them). With the issue's numbers
 *    (500,000 reservations over 3 years, 8 staff) a day holds ~457 reservations, ~57 per staff member: more than
 *    a 12-hour day has half-hours, so the history is necessarily denser than a real salon's; the small size
 *    (20,000) fits in lane 0 and is fully non-overlapping.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { addDaysToDate } from '../../src/shared/time';
import { GIVEN_NAMES, SERVICE_BASES, SERVICE_VARIANTS, SURNAMES, sqlTextArray } from './names';

/** The salon's LINE plan in the benchmark: pushes a month (salons.line_monthly_push_limit). */
const LINE_PUSHES_A_MONTH = 30_000;

export interface DatasetShape {
  customers: number;
  /** Reservations in total: upcoming plus history. */
  reservations: number;
  staff: number;
  /** History spans this many days at the density of `reservations` (growth steps fill it from yesterday back). */
  historyDays: number;
  futureDays: number;
  slotDays: number;
}

export interface Dataset {
  salonId: number;
  staffIds: number[];
  serviceIds: number[];
  firstCustomerId: number;
  customerCount: number;
  /** Salon-local `yyyy-MM-dd` the data set is built around. */
  today: string;
  timeZone: string;
  upcomingCount: number;
  historyCount: number;
  historyPerDay: number;
}

const POSITIONS = 6;
const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
/** A non-negative pseudo-random integer from an integer SQL expression (same answer on both engines). */
const h = (expr: string) => `(hashint4((${expr})::int) & 2147483647)`;
const intList = (values: number[]) => `ARRAY[${values.map((v) => Math.trunc(v)).join(',')}]::int[]`;

/**
 * A customer index (0 … customers - 1) from a hash, taken from the residue class of the staff member's index: two
 * staff members' bookings at the same time never share a customer, whose own active bookings may not overlap
 * (reservations_customer_no_overlap, migration 0006). One staff member's bookings never overlap anyway.
 */
const customerOf = (hash: string, staffIndex: string, staffCount: number, customers: number) =>
  `((${hash} % ${Math.max(1, Math.floor(customers / staffCount))}) * ${staffCount} + (${staffIndex}))`;

async function rows<T>(db: Database, query: string): Promise<T[]> {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: T[] };
  return result.rows;
}

/** Staff, menu, customers, opening slots and the upcoming reservations: everything but the history. */
export async function seedBase(
  db: Database,
  input: { salonId: number; shape: DatasetShape; today: string; timeZone: string },
): Promise<Dataset> {
  const { salonId, shape, today, timeZone } = input;
  if (!isDate(today) || !/^[A-Za-z_/+-]+$/.test(timeZone)) throw new Error('bad date or time zone');

  // A LINE plan for this volume (LINE's standard plan: 30,000 pushes a month). With the free plan's 200 that the app
  // starts with, every booking after the first few hundred measured the over-budget path (each LINE notice diverted
  // to e-mail or failed, a transaction of its own), which is what a salon at its plan's limit pays, not a booking.
  await db.execute(sql`UPDATE salons SET line_monthly_push_limit = ${LINE_PUSHES_A_MONTH} WHERE id = ${salonId}`);

  const staffIds = (
    await rows<{ id: number }>(
      db,
      `INSERT INTO staff_users (salon_id, username, full_name, email, is_superuser)
       SELECT ${salonId}, 'staff' || i, (${sqlTextArray(SURNAMES.map((s) => s[0]))})[i] || ' ' ||
              (${sqlTextArray(GIVEN_NAMES.map((g) => g[0]))})[i + 10], 'staff' || i || '@example.com', false
       FROM generate_series(1, ${shape.staff}) i
       RETURNING id`,
    )
  ).map((row) => Number(row.id));

  const menu = SERVICE_BASES.flatMap(([name, price], b) =>
    SERVICE_VARIANTS.map(([suffix, extra, minutes], v) => ({
      name: `${name}${suffix}`,
      price: price + extra,
      minutes,
      order: b * 10 + v,
    })),
  );
  const serviceIds = (
    await rows<{ id: number }>(
      db,
      `INSERT INTO services (salon_id, name, price, duration_minutes, sort_order)
       SELECT ${salonId}, n, p, d, o
       FROM unnest(${sqlTextArray(menu.map((m) => m.name))}, ${intList(menu.map((m) => m.price))},
                   ${intList(menu.map((m) => m.minutes))}, ${intList(menu.map((m) => m.order))}) AS t(n, p, d, o)
       RETURNING id`,
    )
  ).map((row) => Number(row.id));

  // Customers: 30 × 30 names, e-mail and phone from the row number, 60% linked to LINE, a third assigned.
  const [firstCustomer] = await rows<{ first: number }>(
    db,
    `WITH inserted AS (
       INSERT INTO customers (salon_id, name, furigana, email, phone_number, line_user_id, line_display_name,
                              assigned_staff_id, created_at, updated_at)
       SELECT ${salonId},
              sn[1 + n % 30] || ' ' || gn[1 + (n / 30) % 30],
              sk[1 + n % 30] || ' ' || gk[1 + (n / 30) % 30],
              'customer' || n || '@example.com',
              '090' || lpad(n::text, 8, '0'),
              CASE WHEN n % 10 < 6 THEN 'Ubench' || md5(n::text) END,
              CASE WHEN n % 10 < 6 THEN gn[1 + (n / 30) % 30] ELSE '' END,
              CASE WHEN n % 3 = 0 THEN staff[1 + n % ${staffIds.length}] END,
              now() - make_interval(days => ${h('n')} % 1000),
              now() - make_interval(days => ${h('n + 7')} % 100)
       FROM generate_series(1, ${shape.customers}) n,
            (SELECT ${sqlTextArray(SURNAMES.map((s) => s[0]))} sn, ${sqlTextArray(SURNAMES.map((s) => s[1]))} sk,
                    ${sqlTextArray(GIVEN_NAMES.map((g) => g[0]))} gn, ${sqlTextArray(GIVEN_NAMES.map((g) => g[1]))} gk,
                    ${intList(staffIds)} staff) names
       RETURNING id)
     SELECT min(id) AS first FROM inserted`,
  );

  // A year of opening slots from today: 24 half-hours a day, one day off a week per staff member. Each inserted day
  // becomes a schedule exception (a trigger of migration 0009), so no shift templates are needed.
  await db.execute(
    sql.raw(
      `INSERT INTO opening_slots (staff_id, salon_id, slot_date, start_time)
       SELECT s.id, ${salonId}, d::date, time '09:00' + make_interval(mins => 30 * slot)
       FROM unnest(${intList(staffIds)}) WITH ORDINALITY AS s(id, idx),
            generate_series(date '${today}', date '${today}' + ${shape.slotDays - 1}, interval '1 day') d,
            generate_series(0, 23) slot
       WHERE (s.idx + extract(dow from d)::int) % 7 <> 0`,
    ),
  );

  const upcomingCount = await insertUpcoming(db, {
    salonId,
    staffIds,
    serviceIds,
    firstCustomerId: Number(firstCustomer!.first),
    shape,
    today,
    timeZone,
  });
  return {
    salonId,
    staffIds,
    serviceIds,
    firstCustomerId: Number(firstCustomer!.first),
    customerCount: shape.customers,
    today,
    timeZone,
    upcomingCount,
    historyCount: 0,
    historyPerDay: Math.max(1, Math.ceil((shape.reservations - upcomingCount) / shape.historyDays)),
  };
}

/**
 * The shared column list and the SELECT tail that snapshots service and customer into a reservation. The bench salon
 * keeps the default settings (no buffer, 5-minute rounding, every service a multiple of 5 minutes), so the time a
 * booking holds, occupied_until, is its end_time, as the server would compute it (src/shared/slots.ts).
 */
const RESERVATION_COLUMNS = `salon_id, staff_id, customer_id, service_id, start_time, end_time, occupied_until, status,
  service_name, price, duration_minutes, customer_name, customer_furigana, customer_email, customer_phone, created_by,
  created_by_staff_id, created_at, updated_at, reservation_code`;

/**
 * A reservation code for a unique non-negative integer: eight characters of the server's alphabet (migration 0008).
 * Given, not left to the column default: new_reservation_code() looks each new code up among all reservations, so
 * within one bulk INSERT every row reads the rows before it and 500,000 rows took many minutes instead of seconds.
 * Upcoming rows use 10,000,000 + their key, history rows their number (fewer than 10,000,000), so none repeat.
 */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const codeOf = (unique: string) =>
  Array.from(
    { length: 8 },
    (_, i) => `substr('${CODE_ALPHABET}', ((${unique})::bigint / ${31 ** (7 - i)} % 31)::int + 1, 1)`,
  ).join(' || ');

function snapshotSelect(salonId: number, timeZone: string) {
  return `SELECT ${salonId}, g.staff_id, c.id, sv.id,
                 (g.day + g.at) AT TIME ZONE '${timeZone}',
                 (g.day + g.at) AT TIME ZONE '${timeZone}' + make_interval(mins => sv.duration_minutes),
                 (g.day + g.at) AT TIME ZONE '${timeZone}' + make_interval(mins => sv.duration_minutes),
                 g.status, sv.name, sv.price, sv.duration_minutes, c.name, c.furigana, c.email, c.phone_number,
                 CASE WHEN g.by_staff THEN 'staff' ELSE 'customer' END,
                 CASE WHEN g.by_staff THEN g.staff_id END,
                 (g.day + g.at) AT TIME ZONE '${timeZone}' - make_interval(days => 1 + g.lead_days),
                 (g.day + g.at) AT TIME ZONE '${timeZone}' - make_interval(days => 1 + g.lead_days),
                 g.code`;
}

async function insertUpcoming(
  db: Database,
  ds: Pick<Dataset, 'salonId' | 'staffIds' | 'serviceIds' | 'firstCustomerId' | 'today' | 'timeZone'> & {
    shape: DatasetShape;
  },
): Promise<number> {
  const key = `d * 1000 + s.idx * 10 + q`;
  const [row] = await rows<{ n: number }>(
    db,
    `WITH inserted AS (
       INSERT INTO reservations (${RESERVATION_COLUMNS})
       ${snapshotSelect(ds.salonId, ds.timeZone)}
       FROM (
         SELECT s.id AS staff_id, (date '${ds.today}' + d) AS day, time '09:00' + make_interval(hours => 2 * q) AS at,
                CASE WHEN ${h(`${key} + 1`)} % 100 < 35 THEN 'pending'
                     WHEN ${h(`${key} + 1`)} % 100 < 90 THEN 'confirmed' ELSE 'cancelled' END AS status,
                ${h(`${key} + 2`)} % 10 < 3 AS by_staff,
                ${h(`${key} + 3`)} % 30 AS lead_days,
                ${h(`${key} + 4`)} % ${ds.serviceIds.length} AS service_idx,
                ${customerOf(h(`${key} + 5`), 's.idx - 1', ds.staffIds.length, ds.shape.customers)} AS customer_idx,
                ${codeOf(`10000000 + ${key}`)} AS code
         FROM generate_series(1, ${ds.shape.futureDays}) d,
              unnest(${intList(ds.staffIds)}) WITH ORDINALITY AS s(id, idx),
              generate_series(0, ${POSITIONS - 1}) q
         WHERE (s.idx + extract(dow from date '${ds.today}' + d)::int) % 7 <> 0
           AND ${h(key)} % 100 < 45
       ) g
       JOIN services sv ON sv.id = (${intList(ds.serviceIds)})[1 + g.service_idx]
       JOIN customers c ON c.id = ${ds.firstCustomerId} + g.customer_idx
       RETURNING 1)
     SELECT count(*)::int AS n FROM inserted`,
  );
  return Number(row!.n);
}

/**
 * History rows number `from` … `to - 1`, counted back from yesterday at `historyPerDay` a day: adding rows later
 * (the growth steps) extends the history further into the past, exactly as the years would.
 */
export async function addHistory(db: Database, ds: Dataset, from: number, to: number): Promise<void> {
  if (to <= from) return;
  const perDay = ds.historyPerDay;
  const staff = ds.staffIds.length;
  const yesterday = addDaysToDate(ds.today, -1);
  // Within a day: j = k % perDay → staff j % staff, position p = j / staff → lane p / 6, slot p % 6.
  await db.execute(
    sql.raw(
      `INSERT INTO reservations (${RESERVATION_COLUMNS})
       ${snapshotSelect(ds.salonId, ds.timeZone)}
       FROM (
         SELECT (${intList(ds.staffIds)})[1 + (k % ${perDay}) % ${staff}] AS staff_id,
                date '${yesterday}' - (k / ${perDay})::int AS day,
                time '09:00' + make_interval(hours => 2 * (((k % ${perDay}) / ${staff}) % ${POSITIONS})::int) AS at,
                CASE WHEN (k % ${perDay}) / ${staff} < ${POSITIONS} AND ${h('k + 11')} % 100 < 4 THEN 'confirmed'
                     WHEN ${h('k + 11')} % 100 < 14 THEN 'cancelled'
                     WHEN ${h('k + 11')} % 100 < 18 THEN 'no_show'
                     ELSE 'completed' END AS status,
                ${h('k + 12')} % 10 < 3 AS by_staff,
                ${h('k + 13')} % 30 AS lead_days,
                ${h('k + 14')} % ${ds.serviceIds.length} AS service_idx,
                ${customerOf(h('k + 15'), `(k % ${perDay}) % ${staff}`, staff, ds.customerCount)} AS customer_idx,
                ${codeOf('k')} AS code
         FROM generate_series(${from}, ${to - 1}) k
       ) g
       JOIN services sv ON sv.id = (${intList(ds.serviceIds)})[1 + g.service_idx]
       JOIN customers c ON c.id = ${ds.firstCustomerId} + g.customer_idx`,
    ),
  );
  ds.historyCount = Math.max(ds.historyCount, to);
}

const LOADED_TABLES = [
  'customers',
  'customer_name_suffixes',
  'opening_slots',
  'reservations',
  'services',
  'staff_users',
];

/**
 * After a bulk load, the state the database reaches a little later on its own: planner statistics, and the
 * visibility map that lets an index-only scan (the customer search's suffix index) skip the table. PostgreSQL's
 * autovacuum gets there; on PGlite the server's nightly maintenance does (server/db/maintenance.ts).
 */
export async function settleAfterBulkLoad(db: Database, engine: 'pglite' | 'postgres'): Promise<void> {
  for (const table of LOADED_TABLES) await db.execute(sql.raw(`ANALYZE ${table}`));
  // The throwaway PostgreSQL cluster commits asynchronously (scripts/lib/postgres.mjs): VACUUM may mark a page
  // all-visible only once the commit records of its rows (and of any transaction near them, such as ANALYZE's) are
  // on disk, which a checkpoint does. PGlite commits synchronously.
  if (engine === 'postgres') await db.execute(sql.raw('CHECKPOINT'));
  for (const table of LOADED_TABLES) await db.execute(sql.raw(`VACUUM ${table}`));
}

export async function reservationCount(db: Database): Promise<number> {
  const [row] = await rows<{ n: number }>(db, 'SELECT count(*)::int AS n FROM reservations');
  return Number(row!.n);
}
