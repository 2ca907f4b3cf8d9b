import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateJa, formatDateTimeJa } from '#src/shared/format';
import { RESERVATION_PAGE_DEFAULT } from '#src/shared/schemas/reservations';
import {
  idbCount,
  openProfile,
  salonDate,
  SALON_TZ,
  signInAndSync,
  startOfflineWorld,
  type OfflineWorld,
} from './helpers/offline-e2e';

/**
 * Issue 7 acceptance, scale: 10,000 reservations and 5,000 customers (inserted with SQL on the server's
 * PostgreSQL) sync into IndexedDB on the first visit, and offline the list of one day renders from it, coming from
 * another screen and (issue 17) coming from the 500-row default list. The sync time (a User Timing measure the app
 * leaves: first request to last write) and the day's render times (navigation to the day's rows being the table's
 * rows) are printed for docs/BENCHMARKS.md; the test asserts only that the data is complete and right (targets:
 * sync under 3 s, a day's list under 300 ms, in headless Chromium).
 */
const RESERVATIONS = 10_000;
const CUSTOMERS = 5_000;
const STAFF = 9;
const PER_DAY = 200;
/** The data starts this many days ago, inside the app's 30-day window back. */
const FIRST_DAY = -10;

describe('10,000 reservations and 5,000 customers', () => {
  let world: OfflineWorld;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    world = await startOfflineWorld();
    const started = Date.now();
    const staff = await world.db.query<{ id: number }>(
      `insert into staff_users (salon_id, username, full_name)
       select $1, 'scale-' || n, 'スタッフ ' || n from generate_series(1, $2) as n returning id`,
      [world.salonId, STAFF],
    );
    await world.db.query(
      `insert into customers (salon_id, name, furigana, email, phone_number, notes)
       select $1, '顧客 ' || n, 'コキャク', 'customer' || n || '@example.com', '090' || lpad(n::text, 8, '0'), 'メモ ' || n
       from generate_series(1, $2) as n`,
      [world.salonId, CUSTOMERS],
    );
    // 200 a day: 9 staff x 24 half-hour slots from 09:00 (30-minute bookings never overlap), statuses mixed.
    await world.db.query(
      `with staff as (select id, row_number() over (order by id) - 1 as k from unnest($2::int[]) as id),
            cust as (select id, row_number() over (order by id) - 1 as k from customers where salon_id = $1),
            rows as (
              select i, ($3::date + (i / $4) + (${FIRST_DAY})) as day, (i % $4) / 24 as staff_k, (i % $4) % 24 as slot
              from generate_series(0, $5 - 1) as i)
       insert into reservations (salon_id, staff_id, customer_id, service_id, start_time, end_time, status,
         service_name, price, duration_minutes, customer_name, customer_email, created_by)
       select $1, staff.id, cust.id, $6,
         (rows.day + time '09:00' + rows.slot * interval '30 minutes') at time zone $7,
         (rows.day + time '09:30' + rows.slot * interval '30 minutes') at time zone $7,
         (array['pending','confirmed','cancelled','completed'])[1 + rows.i % 4],
         'ジェルネイル', 6000, 30, '顧客 ' || (cust.k + 1), 'customer' || (cust.k + 1) || '@example.com', 'customer'
       from rows
       join staff on staff.k = rows.staff_k
       join cust on cust.k = rows.i % $8`,
      [
        world.salonId,
        staff.rows.map((row) => row.id),
        salonDate(0),
        PER_DAY,
        RESERVATIONS,
        world.serviceId,
        SALON_TZ,
        CUSTOMERS,
      ],
    );
    await world.db.query('analyze reservations; analyze customers');
    console.log(
      `seeded ${RESERVATIONS} reservations and ${CUSTOMERS} customers with SQL in ${Date.now() - started} ms`,
    );
    ({ context, page } = await openProfile(world, world.newProfile()));
  });

  afterAll(async () => {
    await context?.close();
    await world?.stop();
  });

  it('syncs everything into IndexedDB, and offline renders one day from it', async () => {
    const { rows: counts } = await world.db.query<{ reservations: number; customers: number }>(
      'select (select count(*)::int from reservations) as reservations, (select count(*)::int from customers) as customers',
    );
    expect(counts[0]).toEqual({ reservations: RESERVATIONS, customers: CUSTOMERS });

    await signInAndSync(world, page);
    expect(await idbCount(page, 'reservations')).toBe(RESERVATIONS);
    expect(await idbCount(page, 'customers')).toBe(CUSTOMERS);
    const sync = await page.evaluate<number[]>(
      `performance.getEntriesByName('salon-sync-full').map((entry) => Math.round(entry.duration))`,
    );
    expect(sync).toHaveLength(1);
    console.log(
      `first sync of ${RESERVATIONS} reservations and ${CUSTOMERS} customers into IndexedDB: ${sync[0]} ms (target < 3000 ms)`,
    );

    // The day to show: five days ahead, every status.
    const day = salonDate(5);
    const { rows: expected } = await world.db.query<{ count: number; first: string }>(
      `select count(*)::int as count, to_char(min(start_time) at time zone $2, 'HH24:MI') as first
       from reservations where (start_time at time zone $2)::date = $1::date`,
      [day, SALON_TZ],
    );
    expect(expected[0]!.count).toBe(PER_DAY);

    await context.setOffline(true);
    const started = Date.now();
    await page.reload();
    await page.getByRole('table', { name: '予約一覧' }).waitFor();
    console.log(
      `cold start offline with ${RESERVATIONS} reservations: navigation → list visible ${Date.now() - started} ms`,
    );

    // The default list (from today, pending and confirmed) is a full page: the server's 500 rows.
    const table = page.getByRole('table', { name: '予約一覧' });
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(RESERVATION_PAGE_DEFAULT);

    // From another screen, a client-side navigation to the day's list, timed in the page: URL change to the rows
    // being in the DOM (the query answered from IndexedDB and 200 rows rendered).
    await page.getByRole('navigation', { name: '管理メニュー' }).getByRole('link', { name: '受付時間設定' }).click();
    await page.getByRole('heading', { name: '受付時間設定' }).waitFor();
    const result = await showDay(page, day);
    console.log(`offline list of ${day} (${result.rows} reservations) rendered in ${result.ms} ms (target < 300 ms)`);
    expect(result.rows).toBe(PER_DAY);
    expect(await rows.first().textContent()).toContain(expected[0]!.first);
    expect(await page.getByText(`${PER_DAY}件`).count()).toBe(1);

    // Back to the 500-row default list, then the same for the next day (not yet in the query cache): the 500 rows
    // leave the page and the day's 200 arrive (issue 17's target: under 300 ms).
    await page.getByRole('navigation', { name: '管理メニュー' }).getByRole('link', { name: '予約確認' }).click();
    await expect.poll(() => rows.count()).toBe(RESERVATION_PAGE_DEFAULT);
    await expect.poll(() => page.getByText(`${RESERVATION_PAGE_DEFAULT}件`).count()).toBe(1);
    const nextDay = salonDate(6);
    const switched = await showDay(page, nextDay);
    console.log(
      `offline list of ${nextDay} (${switched.rows} reservations) after the ${RESERVATION_PAGE_DEFAULT}-row list rendered in ${switched.ms} ms (target < 300 ms)`,
    );
    expect(switched.rows).toBe(PER_DAY);
    expect(await rows.first().textContent()).toContain(formatDateTimeJa(`${nextDay}T${expected[0]!.first}`));
    expect(await rows.last().textContent()).toContain(formatDateTimeJa(`${nextDay}T20:30`));
    expect(await page.getByText(`${PER_DAY}件`).count()).toBe(1);
  });
});

/**
 * Client-side navigation to one day's list with every status, timed in the page: URL change to the day's rows being
 * the table's rows (the query answered from IndexedDB and rendered), polled every frame.
 */
async function showDay(page: Page, day: string): Promise<{ ms: number; rows: number }> {
  const search = new URLSearchParams({ from: day, to: day });
  for (const status of ['pending', 'confirmed', 'cancelled', 'completed', 'no_show']) search.append('status', status);
  // (A string: this code runs in the page, and the e2e project is type-checked without the DOM library.)
  return page.evaluate<{ ms: number; rows: number }>(`new Promise((resolve, reject) => {
    const started = performance.now();
    history.pushState(null, '', ${JSON.stringify(`/admin/reservations?${search.toString()}`)});
    window.dispatchEvent(new PopStateEvent('popstate'));
    const check = () => {
      const rows = document.querySelectorAll('table[aria-label="予約一覧"] tbody tr');
      const count = rows.length;
      const ofDay = () => [...rows].every((row) => row.textContent.includes(${JSON.stringify(formatDateJa(day))}));
      if (count === ${PER_DAY} && ofDay()) resolve({ ms: Math.round(performance.now() - started), rows: count });
      else if (performance.now() > started + 10000) reject(new Error('only ' + count + ' rows of the day after 10 s'));
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`);
}
