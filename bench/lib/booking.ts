/**
 * Booking creation under load: every request is a different customer (signed in with a customer token) asking
 * for a start that is free according to the database, so every request is a real booking attempt. The server
 * decides which staff member takes it; the database decides races. Afterwards SQL checks the invariant.
 */
import { sql } from 'drizzle-orm';
import type { RequestSpec } from 'autocannon';
import type { Database } from '../../server/db/client';
import { TOKEN_AUDIENCES } from '../../src/shared/constants';
import { addDaysToDate } from '../../src/shared/time';
import type { Dataset } from './dataset';
import { shuffled } from './random';
import { benchSigner } from './tokens';

export interface BookingItem {
  token: string;
  body: string;
}

/** Bookings go to the next four months, starting the day after tomorrow (well past the minimum notice). */
const APP_WINDOW = { first: 2, last: 120 };
/**
 * The bare server's bookings (bench/bare-server.ts) go to the four months after: it runs before the app's server, and
 * what it books must neither take the app's starts nor change what the app's reads answer (the next 30 days).
 */
const BARE_WINDOW = { first: 121, last: 240 };

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * `count` starts for a 30-minute service in the window: one per free (staff, half-hour), so that demand at each start
 * equals what the staff can take, shuffled. "Free" is what the exclusion constraint checks: nothing active holds
 * [start, occupied_until) over the half-hour.
 */
async function freeStarts(db: Database, ds: Dataset, window: { first: number; last: number }, count: number) {
  const from = addDaysToDate(ds.today, window.first);
  const to = addDaysToDate(ds.today, window.last);
  const zone = sql.raw(`'${ds.timeZone.replace(/'/g, '')}'`);
  const units = await rows<{ start: string; free: number }>(
    db,
    sql`select to_char(os.slot_date, 'YYYY-MM-DD') || 'T' || to_char(os.start_time, 'HH24:MI:SS') as start, count(*)::int as free
        from opening_slots os
        where os.salon_id = ${ds.salonId} and os.slot_date between ${from} and ${to}
          and not exists (
            select 1 from reservations r
            where r.staff_id = os.staff_id and r.status in ('pending', 'confirmed')
              and tstzrange(r.start_time, r.occupied_until, '[)') && tstzrange(
                (os.slot_date + os.start_time) at time zone ${zone},
                (os.slot_date + os.start_time) at time zone ${zone} + interval '30 minutes', '[)'))
        group by 1 order by 1`,
  );
  const starts = shuffled(
    units.flatMap((unit) => Array.from({ length: Number(unit.free) }, () => unit.start)),
    500,
  ).slice(0, count);
  if (starts.length < count) throw new Error(`only ${starts.length} free starts for ${count} bookings`);
  return starts;
}

/** The first `count` customers with nothing upcoming, and the 30-minute service. */
async function bookingInputs(db: Database, ds: Dataset, count: number) {
  const [service] = await rows<{ id: number }>(
    db,
    sql`select id from services where salon_id = ${ds.salonId} and duration_minutes = 30 and is_active order by id limit 1`,
  );
  const customers = await rows<{ id: number; name: string; furigana: string; email: string; phone_number: string }>(
    db,
    sql`select c.id, c.name, c.furigana, c.email, c.phone_number from customers c
        where c.salon_id = ${ds.salonId} and not exists (
          select 1 from reservations r where r.customer_id = c.id and r.status in ('pending', 'confirmed') and r.end_time > now())
        order by c.id limit ${count}`,
  );
  if (customers.length < count) throw new Error(`only ${customers.length} customers free for ${count} bookings`);
  return { serviceId: Number(service!.id), customers };
}

/** The request body of one booking, as the booking page sends it; the bare server also reads `customer`. */
function bookingBody(ds: Dataset, serviceId: number, start: string, customer: BookingCustomer) {
  return {
    salon: ds.salonId,
    service: serviceId,
    start_time: start,
    customer_name: customer.name,
    customer_furigana: customer.furigana,
    customer_email: customer.email,
    customer_phone: customer.phone_number,
  };
}
type BookingCustomer = Awaited<ReturnType<typeof bookingInputs>>['customers'][number];

/**
 * `count` booking requests for a 30-minute service at free starts of the next four months, each for a different
 * customer with nothing upcoming, signed in with a customer token.
 */
export async function prepareBookings(
  db: Database,
  ds: Dataset,
  count: number,
  jwtSecret: string,
): Promise<BookingItem[]> {
  const starts = await freeStarts(db, ds, APP_WINDOW, count);
  const { serviceId, customers } = await bookingInputs(db, ds, count);
  const signer = benchSigner(jwtSecret);
  return Promise.all(
    customers.map(async (customer, i) => ({
      token: (
        await signer.sign({ audience: TOKEN_AUDIENCES.customer, subjectId: Number(customer.id), tokenType: 'access' })
      ).token,
      body: JSON.stringify(bookingBody(ds, serviceId, starts[i]!, customer)),
    })),
  );
}

/**
 * The same for the bare server, in BARE_WINDOW: the same customers (one more upcoming booking each stays under the
 * salon's limit of three), the customer's id in the body instead of a token.
 */
export async function prepareBareBookings(db: Database, ds: Dataset, count: number): Promise<BookingItem[]> {
  const starts = await freeStarts(db, ds, BARE_WINDOW, count);
  const { serviceId, customers } = await bookingInputs(db, ds, count);
  return customers.map((customer, i) => ({
    token: '',
    body: JSON.stringify({ ...bookingBody(ds, serviceId, starts[i]!, customer), customer: Number(customer.id) }),
  }));
}

/** Where the bare server's bookings start: reservations from here on were made by it (checkBookings). */
export function bareWindowStart(ds: Dataset): string {
  return addDaysToDate(ds.today, BARE_WINDOW.first);
}

/** autocannon requests that hand out `items` one by one (run with `amount: items.length`). */
export function bookingRequests(items: BookingItem[]): RequestSpec[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/api/reservations/',
      setupRequest: (request) => {
        const item = items[next % items.length]!;
        next += 1;
        request.headers = {
          ...request.headers,
          authorization: `Bearer ${item.token}`,
          'content-type': 'application/json',
        };
        request.body = item.body;
        return request;
      },
    },
  ];
}

export interface BookingCheck {
  /** Pairs of active reservations of one staff member whose held time [start, occupied_until) overlaps: must be 0. */
  overlappingPairs: number;
  /** Reservations created during the benchmark (compare with the 201s)... */
  createdByBench: number;
  /** ...of which by the bare server (those in its window). */
  createdByBare: number;
}

/** The newest reservation id before the load: everything above it was booked during the benchmark. */
export async function lastReservationId(db: Database): Promise<number> {
  const [row] = await rows<{ id: number | null }>(db, sql`select max(id) as id from reservations`);
  return Number(row?.id ?? 0);
}

export async function checkBookings(db: Database, afterId: number, ds: Dataset): Promise<BookingCheck> {
  const [overlap] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from reservations a join reservations b
          on a.staff_id = b.staff_id and a.id < b.id
         and tstzrange(a.start_time, a.occupied_until, '[)') && tstzrange(b.start_time, b.occupied_until, '[)')
        where a.status in ('pending', 'confirmed') and b.status in ('pending', 'confirmed')`,
  );
  const [created] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from reservations where id > ${afterId}`,
  );
  const zone = sql.raw(`'${ds.timeZone.replace(/'/g, '')}'`);
  const [bare] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from reservations
        where id > ${afterId} and start_time >= ${bareWindowStart(ds)}::date::timestamp at time zone ${zone}`,
  );
  return { overlappingPairs: Number(overlap!.n), createdByBench: Number(created!.n), createdByBare: Number(bare!.n) };
}
