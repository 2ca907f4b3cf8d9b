/**
 * The staff day list (GET /api/admin/reservations/ with a date range and nothing else but perhaps one staff member)
 * as one named statement that answers the page's JSON and its total (docs/decisions/0022-booking-in-one-statement.md,
 * step 3). Reading the rows into JavaScript, presenting them (present.ts) and encoding them with the route's schema
 * was most of the request's CPU, twice what the database spent; PostgreSQL builds the same JSON for less than the
 * rows' transfer cost. The answer is the presenter's for staff, field for field and in its order:
 * tests/integration/customer-search.test.ts compares the two, and `npm run bench` compares it with
 * bench/lib/bare-sql.ts in every run.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import type { ReservationListFilter } from './reservations.repository';

/** The day list's filter: a date range, everyone's or one staff member's, and nothing else. */
type DayListFilter = ReservationListFilter & { from: Date; to: Date };

export function isDayList(filter: ReservationListFilter): filter is DayListFilter {
  return (
    filter.from !== undefined &&
    filter.to !== undefined &&
    filter.customerId === undefined &&
    !filter.statuses?.length &&
    filter.updatedSince === undefined &&
    filter.code === undefined &&
    filter.text === undefined &&
    filter.limit > 0
  );
}

/** What the presenter takes from the salon's settings and the server's environment rather than from the rows. */
interface DayListPresentation {
  timeZone: string;
  cancellationDeadlineDays: number;
}

/** The salon's wall clock as toLocal writes it (src/shared/time.ts instantToLocalDateTime: seconds, no zone). */
const local = (instant: SQL) =>
  sql`to_char((${instant}) at time zone ${sql.placeholder('timeZone')}::text, 'YYYY-MM-DD"T"HH24:MI:SS')`;

/** Date.prototype.toISOString of a timestamptz: milliseconds, UTC. */
const iso = (instant: SQL) => sql`to_char((${instant}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The options as booked, each as present.ts writes it (the price as a string); most rows have none. */
const optionsJson = sql`case when jsonb_array_length(p.options) = 0 then '[]'::json else (
    select json_agg(json_build_object('id', (o.value->>'id')::int, 'name', o.value->>'name',
      'price', o.value->>'price', 'duration_minutes', (o.value->>'duration_minutes')::int) order by o.at)
    from jsonb_array_elements(p.options) with ordinality as o(value, at)) end`;

/**
 * One reservation as present.ts answers staff: staff may cancel any active reservation; the deadline is the start
 * less whole days of 24 hours (src/shared/cancellation.ts); the customer's incident counts as server/db/incidents.ts
 * counts them (the partial index's predicate).
 */
const reservationJson = sql`json_build_object(
    'id', p.id, 'reservation_number', p.reservation_number, 'reservation_code', p.reservation_code,
    'status', p.status, 'salon', json_build_object('name', p.salon_name),
    'service', json_build_object('id', p.service_id, 'name', p.service_name, 'price', p.price::text,
      'duration_minutes', p.duration_minutes),
    'options', ${optionsJson},
    'is_nominated', p.is_nominated, 'nomination_fee', p.nomination_fee::text, 'service_name', p.service_name,
    'start_time', ${local(sql`p.start_time`)}, 'end_time', ${local(sql`p.end_time`)},
    'customer_id', p.customer_id, 'customer_name', p.customer_name, 'customer_furigana', p.customer_furigana,
    'customer_email', p.customer_email, 'customer_phone', p.customer_phone,
    'staff_id', p.staff_id, 'staff_name', p.staff_name,
    'cancellation_deadline', ${local(sql`p.start_time - make_interval(hours => 24 * ${sql.placeholder('deadlineDays')}::int)`)},
    'can_cancel', p.status in ('pending', 'confirmed'), 'updated_at', ${iso(sql`p.updated_at`)},
    'needs_approval', p.needs_approval, 'cancelled_late', p.cancelled_late,
    'customer_no_show_count', inc.no_show_count, 'customer_late_cancel_count', inc.late_cancel_count)`;

function dayListStatement(db: Executor, name: string, oneStaff: boolean) {
  const where = sql`r.salon_id = ${sql.placeholder('salonId')}::int
    ${oneStaff ? sql`and r.staff_id = ${sql.placeholder('staffId')}::int` : sql``}
    and r.start_time >= ${sql.placeholder('from')}::timestamptz and r.start_time < ${sql.placeholder('to')}::timestamptz`;
  const limit = sql`${sql.placeholder('limit')}::int`;
  const offset = sql`${sql.placeholder('offset')}::int`;
  const page = sql`(
    select r.id, r.reservation_number, r.reservation_code, r.status, r.service_id, r.service_name, r.price,
      r.duration_minutes, r.options, r.is_nominated, r.nomination_fee, r.start_time, r.end_time, r.customer_id,
      r.customer_name, r.customer_furigana, r.customer_email, r.customer_phone, r.staff_id, r.updated_at,
      r.needs_approval, r.cancelled_late, s.name as salon_name, st.full_name as staff_name
    from reservations r
    join salons s on s.id = r.salon_id
    join staff_users st on st.id = r.staff_id
    where ${where}
    order by r.start_time, r.id
    limit ${limit} offset ${offset}) p
  left join lateral (
    select count(*) filter (where incident.status = 'no_show')::int as no_show_count,
      count(*) filter (where incident.cancelled_late)::int as late_cancel_count
    from reservations incident
    where incident.customer_id = p.customer_id and (incident.status = 'no_show' or incident.cancelled_late)) inc on true`;
  return db
    .select({
      // As totalOf (server/db/paging.ts): a page that is not full tells the total; a full one, or an empty one past
      // the start, counts.
      total: sql<number>`case
        when count(*) > 0 and count(*) < ${limit} then ${offset} + count(*)
        when count(*) = 0 and ${offset} = 0 then 0
        else (select count(*) from reservations r where ${where}) end::int`.mapWith(Number),
      body: sql<string>`coalesce(json_agg(${reservationJson} order by p.start_time, p.id), '[]')::text`,
    })
    .from(page)
    .prepare(name);
}

/** The page as the route sends it (a JSON array, encoded) and X-Total-Count. */
export async function dayListAnswer(
  db: Executor,
  filter: DayListFilter,
  presentation: DayListPresentation,
): Promise<{ total: number; json: string }> {
  const oneStaff = filter.staffId !== undefined;
  const name = oneStaff ? 'day_list_answer_of_staff' : 'day_list_answer';
  const statement = preparedOn(db, name, (db) => dayListStatement(db, name, oneStaff));
  const [row] = await statement.execute({
    salonId: filter.salonId,
    staffId: filter.staffId ?? 0,
    from: filter.from.toISOString(),
    to: filter.to.toISOString(),
    limit: filter.limit,
    offset: filter.offset,
    timeZone: presentation.timeZone,
    deadlineDays: presentation.cancellationDeadlineDays,
  });
  return { total: row!.total, json: row!.body };
}
