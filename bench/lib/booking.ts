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
const FIRST_DAY = 2;
const LAST_DAY = 120;

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * `count` booking requests for a 30-minute service: one per free (staff, half-hour) of the window, so that
 * demand at each start equals what the staff can take, shuffled, each for a customer with nothing upcoming.
 * "Free" is what the exclusion constraint checks: nothing active holds [start, occupied_until) over the half-hour.
 */
export async function prepareBookings(
  db: Database,
  ds: Dataset,
  count: number,
  jwtSecret: string,
): Promise<BookingItem[]> {
  const [service] = await rows<{ id: number }>(
    db,
    sql`select id from services where salon_id = ${ds.salonId} and duration_minutes = 30 and is_active order by id limit 1`,
  );
  const from = addDaysToDate(ds.today, FIRST_DAY);
  const to = addDaysToDate(ds.today, LAST_DAY);
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
  const customers = await rows<{ id: number; name: string; furigana: string; email: string; phone_number: string }>(
    db,
    sql`select c.id, c.name, c.furigana, c.email, c.phone_number from customers c
        where c.salon_id = ${ds.salonId} and not exists (
          select 1 from reservations r where r.customer_id = c.id and r.status in ('pending', 'confirmed') and r.end_time > now())
        order by c.id limit ${count}`,
  );
  const total = Math.min(starts.length, customers.length);
  if (total < count) throw new Error(`only ${total} bookable (start, customer) pairs for ${count} bookings`);

  const signer = benchSigner(jwtSecret);
  return Promise.all(
    customers.slice(0, total).map(async (customer, i) => ({
      token: (
        await signer.sign({ audience: TOKEN_AUDIENCES.customer, subjectId: Number(customer.id), tokenType: 'access' })
      ).token,
      body: JSON.stringify({
        salon: ds.salonId,
        service: Number(service!.id),
        start_time: starts[i],
        customer_name: customer.name,
        customer_furigana: customer.furigana,
        customer_email: customer.email,
        customer_phone: customer.phone_number,
      }),
    })),
  );
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
  /** Reservations created during the benchmark (compare with the 201s). */
  createdByBench: number;
}

/** The newest reservation id before the load: everything above it was booked during the benchmark. */
export async function lastReservationId(db: Database): Promise<number> {
  const [row] = await rows<{ id: number | null }>(db, sql`select max(id) as id from reservations`);
  return Number(row?.id ?? 0);
}

export async function checkBookings(db: Database, afterId: number): Promise<BookingCheck> {
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
  return { overlappingPairs: Number(overlap!.n), createdByBench: Number(created!.n) };
}
