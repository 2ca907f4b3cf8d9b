/**
 * The bare limits' statements (bench/bare-server.ts): what the app's booking, customer search and staff day list do,
 * each as one SQL statement with nothing around it, so that `npm run bench` can say how much the app adds. The reads
 * answer the app's JSON (same fields, rows and X-Total-Count; bench/lib/bare-compare.ts checks it in every run);
 * the booking writes the row the app's online booking writes (book_reservation(),
 * server/db/migrations/0025_book_reservation.sql: same table, exclusion constraints, triggers and defaults) and one
 * outbox row, in one transaction.
 * Parameters are cast where they are used: PGlite and pg send them untyped.
 */

/** Salon-local wall clock as the app writes it (src/shared/time.ts instantToLocalDateTime). */
const local = (instant: string, zone: string) =>
  `to_char((${instant}) at time zone ${zone}, 'YYYY-MM-DD"T"HH24:MI:SS')`;
/** Date.prototype.toISOString of a timestamptz (milliseconds, UTC). */
const iso = (instant: string) => `to_char((${instant}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A customer's 無断欠席 and 直前キャンセル (server/db/incidents.ts), on the same partial index. */
const incidents = (customerId: string) => `left join lateral (
    select count(*) filter (where incident.status = 'no_show')::int as no_show_count,
           count(*) filter (where incident.cancelled_late)::int as late_cancel_count
    from reservations incident
    where incident.customer_id = ${customerId} and (incident.status = 'no_show' or incident.cancelled_late)) inc on true`;

/**
 * POST /api/reservations/: $1 salon, $2 service, $3 local start (`yyyy-MM-ddTHH:mm:ss`), $4 time zone, $5 customer,
 * $6–$9 name, furigana, e-mail, phone. The first staff member with an opening slot at the start and nothing active
 * over the service's time; none: no row (409). Two concurrent bookings picking the same one: 23P01, retried.
 */
export const BARE_BOOKING = `
with input as (
  select s.id as salon_id, s.name as salon_name, s.auto_confirm_online_bookings as auto_confirm,
         sv.id as service_id, sv.name as service_name, sv.price, sv.duration_minutes,
         ($3::text::timestamp at time zone $4::text) as start_at,
         ($3::text::timestamp at time zone $4::text) + make_interval(mins => sv.duration_minutes) as end_at
  from salons s join services sv on sv.salon_id = s.id and sv.id = $2::int
  where s.id = $1::int
),
chosen as (
  select os.staff_id from opening_slots os, input i
  where os.salon_id = i.salon_id and os.slot_date = $3::text::timestamp::date and os.start_time = $3::text::timestamp::time
    and not exists (
      select 1 from reservations r
      where r.staff_id = os.staff_id and r.status in ('pending', 'confirmed')
        and tstzrange(r.start_time, r.occupied_until, '[)') && tstzrange(i.start_at, i.end_at, '[)'))
  order by os.staff_id limit 1
),
booked as (
  insert into reservations (salon_id, staff_id, customer_id, service_id, start_time, end_time, occupied_until, status,
    service_name, price, duration_minutes, customer_name, customer_furigana, customer_email, customer_phone, created_by)
  select i.salon_id, c.staff_id, $5::int, i.service_id, i.start_at, i.end_at, i.end_at,
    case when i.auto_confirm then 'confirmed' else 'pending' end, i.service_name, i.price, i.duration_minutes,
    $6::text, $7::text, $8::text, $9::text, 'customer'
  from input i, chosen c
  returning id, reservation_number, reservation_code, status, staff_id, start_time, end_time
),
queued as (
  insert into notifications_outbox (salon_id, channel, kind, recipient, reservation_id, payload)
  select i.salon_id, 'email', case when b.status = 'confirmed' then 'reservation_confirmed' else 'reservation_accepted' end,
    $8::text, b.id, jsonb_build_object(
      'to', $8::text,
      'subject', '【' || i.salon_name || '】ご予約を承りました',
      'text', $6::text || ' 様' || E'\\n\\n' || i.salon_name || 'をご利用いただきありがとうございます。' || E'\\n' ||
        '日時: ' || ${local('b.start_time', '$4::text')} || E'\\n' || 'メニュー: ' || i.service_name || E'\\n' ||
        '予約番号: ' || b.reservation_code)
  from booked b, input i
  returning id
)
select json_build_object('id', b.id, 'reservation_number', b.reservation_number, 'reservation_code', b.reservation_code,
  'status', b.status, 'staff_id', b.staff_id, 'start_time', ${local('b.start_time', '$4::text')},
  'end_time', ${local('b.end_time', '$4::text')}, 'notifications', (select count(*) from queued))::text as body
from booked b`;

/** The salon's reservations starting in [$2 00:00, $3 + 1 day 00:00) on its clock: an index range, as bounds. */
const DAY_OF_SALON = `r.salon_id = $1::int
    and r.start_time >= ($2::text::date::timestamp at time zone $4::text)
    and r.start_time < (($3::text::date + 1)::timestamp at time zone $4::text)`;

/**
 * GET /api/admin/reservations/?start_date=&end_date= as the superuser sees it: $1 salon, $2 first day, $3 last day,
 * $4 time zone, $5 limit, $6 offset. The total as the app's totalOf (server/db/paging.ts) decides it: a page that is
 * not full tells it, only a full one counts.
 */
export const BARE_DAY_LIST = `
with page as (
  select r.*, s.name as salon_name, s.cancellation_deadline_days, st.full_name as staff_name
  from reservations r
  join salons s on s.id = r.salon_id
  join staff_users st on st.id = r.staff_id
  where ${DAY_OF_SALON}
  order by r.start_time, r.id
  limit $5::int offset $6::int
)
select
  case
    when count(*) > 0 and count(*) < $5::int then $6::int + count(*)
    when count(*) = 0 and $6::int = 0 then 0
    else (select count(*) from reservations r where ${DAY_OF_SALON})
  end::int as total,
  coalesce(json_agg(json_build_object(
    'id', p.id, 'reservation_number', p.reservation_number, 'reservation_code', p.reservation_code,
    'status', p.status, 'salon', json_build_object('name', p.salon_name),
    'service', json_build_object('id', p.service_id, 'name', p.service_name, 'price', p.price::text,
      'duration_minutes', p.duration_minutes),
    'options', (select coalesce(json_agg(json_build_object('id', (o->>'id')::int, 'name', o->>'name',
      'price', o->>'price', 'duration_minutes', (o->>'duration_minutes')::int)), '[]') from jsonb_array_elements(p.options) o),
    'is_nominated', p.is_nominated, 'nomination_fee', p.nomination_fee::text, 'service_name', p.service_name,
    'start_time', ${local('p.start_time', '$4::text')}, 'end_time', ${local('p.end_time', '$4::text')},
    'customer_id', p.customer_id, 'customer_name', p.customer_name, 'customer_furigana', p.customer_furigana,
    'customer_email', p.customer_email, 'customer_phone', p.customer_phone,
    'staff_id', p.staff_id, 'staff_name', p.staff_name,
    'cancellation_deadline', ${local('p.start_time - make_interval(hours => 24 * p.cancellation_deadline_days)', '$4::text')},
    'can_cancel', p.status in ('pending', 'confirmed'), 'updated_at', ${iso('p.updated_at')},
    'needs_approval', p.needs_approval, 'cancelled_late', p.cancelled_late,
    'customer_no_show_count', inc.no_show_count, 'customer_late_cancel_count', inc.late_cancel_count
  ) order by p.start_time, p.id), '[]')::text as body
from page p
${incidents('p.customer_id')}`;

/**
 * GET /api/admin/customers/?name= as the superuser searches (server/features/customers/customers.repository.ts, a
 * name alone): $1 salon, $2 the text (trimmed), $3 limit, $4 offset. The matches' ids from the table of name suffixes
 * (migration 0019), the page's customers with their counts and the salon's approval rule.
 */
export const BARE_CUSTOMER_SEARCH = `
with named as (
  select distinct n.customer_id as id from customer_name_suffixes n
  where n.salon_id = $1::int and n.suffix >= customer_search_fold($2::text)
    and n.suffix < customer_search_fold($2::text) || chr(1114111)
),
page as (select id from named order by id limit $3::int offset $4::int)
select (select count(*) from named)::int as total,
  coalesce(json_agg(json_build_object(
    'id', c.id, 'name', c.name, 'furigana', c.furigana, 'email', c.email, 'phone_number', c.phone_number,
    'notes', c.notes, 'line_user_id', c.line_user_id, 'line_display_name', c.line_display_name,
    'line_picture_url', c.line_picture_url, 'is_line_linked', coalesce(c.line_user_id, '') <> '',
    'assigned_staff_id', c.assigned_staff_id, 'rebook_prompts_enabled', c.rebook_prompts_enabled,
    'no_show_count', inc.no_show_count, 'late_cancel_count', inc.late_cancel_count,
    'needs_approval', s.auto_confirm_online_bookings and s.approval_after_incidents is not null
      and inc.no_show_count + inc.late_cancel_count >= s.approval_after_incidents,
    'updated_at', ${iso('c.updated_at')}
  ) order by c.id), '[]')::text as body
from page p
join customers c on c.id = p.id
join salons s on s.id = c.salon_id
${incidents('c.id')}`;
