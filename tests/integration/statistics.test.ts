import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations, services, staffUsers } from '../../server/db/schema';
import type { ReservationStatus } from '../../src/shared/constants';
import type { Statistics } from '../../src/shared/schemas/statistics';
import { localDateTimeToInstant } from '../../src/shared/time';
import { startTestApp, TEST_ADMIN_USERNAME, type TestApp } from '../helpers/app';
import { testEngine } from '../helpers/database';
import { createCustomer, createStaff, type CustomerRow } from '../helpers/factories';

const TZ = 'Asia/Tokyo';
const local = (dateTime: string) => localDateTimeToInstant(dateTime, TZ);

/** The twelve labels when "now" is in November 2026 (salon time). */
const LABELS_TO_NOVEMBER = [
  '2025年12月',
  '2026年1月',
  '2026年2月',
  '2026年3月',
  '2026年4月',
  '2026年5月',
  '2026年6月',
  '2026年7月',
  '2026年8月',
  '2026年9月',
  '2026年10月',
  '2026年11月',
];

/**
 * GET /api/statistics/ against a hand-computed fixture. The clock is movable: it starts at 2026-11-15 12:00 in
 * Tokyo, so the window is 2025-12 .. 2026-11 (salon-local months).
 */
describe(`statistics on ${testEngine}`, () => {
  let t: TestApp;
  let clock = local('2026-11-15T12:00:00');
  let adminId: number;
  let superToken: string;
  let staffToken: string;
  let staffIds: number[];
  let customer: CustomerRow;
  let customerToken: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SALON_TZ: TZ }, now: () => new Date(clock) });
    const { db } = t.database;
    const [admin] = await db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));
    adminId = admin!.id;
    superToken = (await t.auth.issueTokenPair('staff', adminId)).access;
    const staff = await Promise.all(
      ['stats-a', 'stats-b', 'stats-c'].map((username) => createStaff(db, t.salonId, { username })),
    );
    staffIds = staff.map((row) => row.id);
    staffToken = (await t.auth.issueTokenPair('staff', staffIds[0]!)).access;
    customer = await createCustomer(db, t.salonId, { email: 'stats@example.com' });
    customerToken = (await t.auth.issueTokenPair('customer', customer.id)).access;
  });
  afterAll(() => t?.close());

  const statistics = async () => {
    const result = await t.api('/api/statistics/', { token: superToken });
    expect(result.status).toBe(200);
    return result.body as unknown as Statistics;
  };

  async function service(name: string, price: number) {
    const [row] = await t.database.db
      .insert(services)
      .values({ salon_id: t.salonId, name, price, duration_minutes: 30 })
      .returning();
    return row!;
  }

  /** Written directly: past bookings and every status, which the booking rules rightly refuse to create. */
  let nextStaff = 0;
  async function reservation(input: {
    service: typeof services.$inferSelect;
    start: string;
    status: ReservationStatus;
    price?: number;
  }) {
    const start = local(input.start);
    // Round-robin staff and 30-minute bookings: fixtures at the same start never trip the overlap constraint.
    const staffId = staffIds[nextStaff++ % staffIds.length]!;
    await t.database.db.insert(reservations).values({
      salon_id: t.salonId,
      staff_id: staffId,
      customer_id: customer.id,
      service_id: input.service.id,
      start_time: start,
      end_time: new Date(start.getTime() + 30 * 60_000),
      status: input.status,
      service_name: input.service.name,
      price: input.price ?? input.service.price,
      duration_minutes: 30,
      customer_name: customer.name,
      created_by: 'staff',
    });
  }

  it('an empty database gives twelve zero months, an empty ranking and zero counts', async () => {
    expect(await statistics()).toEqual({
      monthly_sales: { labels: LABELS_TO_NOVEMBER, data: Array(12).fill(0) },
      service_ranking: { labels: [], data: [] },
      reservation_stats: { confirmed: 0, pending: 0, cancelled: 0, completed: 0, no_show: 0 },
    });
  });

  it('is the superuser’s: ordinary staff get 403, customers and anonymous callers 401', async () => {
    const staff = await t.api('/api/statistics/', { token: staffToken });
    expect(staff.status).toBe(403);
    expect(staff.body).toMatchObject({ code: 'permission_denied' });
    expect((await t.api('/api/statistics/', { token: customerToken })).status).toBe(401);
    expect((await t.api('/api/statistics/')).status).toBe(401);
  });

  it('matches a hand-computed fixture: salon-local months, stored prices, completed visits only', async () => {
    const gel = await service('ジェルネイル', 5000);
    const care = await service('ハンドケア', 3000);

    // --- Inside the window, by salon-local month (UTC shown where it differs) ---
    // 2025-12 (oldest month): 05:00 JST on Dec 1 is Nov 30 20:00 UTC; a UTC month would drop it.
    await reservation({ service: gel, start: '2025-12-01T05:00:00', status: 'completed' }); // 5000
    // 2026-10: the last half hour of October in Tokyo.
    await reservation({ service: gel, start: '2026-10-31T23:30:00', status: 'completed' }); // 5000
    // 2026-11: 08:00 JST on Nov 1 is Oct 31 23:00 UTC; a UTC month would put it in October.
    await reservation({ service: gel, start: '2026-11-01T08:00:00', status: 'completed' }); // 5000
    // 2026-03
    await reservation({ service: care, start: '2026-03-15T12:00:00', status: 'completed' }); // 3000

    // --- Excluded ---
    // Statuses that are not sales: a confirmed booking whose visit was never completed, and one still to come.
    await reservation({ service: care, start: '2026-10-10T10:00:00', status: 'confirmed', price: 2500 });
    await reservation({ service: care, start: '2026-11-28T18:00:00', status: 'confirmed' });
    await reservation({ service: gel, start: '2026-10-20T10:00:00', status: 'cancelled' });
    await reservation({ service: gel, start: '2026-10-20T10:00:00', status: 'no_show' });
    await reservation({ service: gel, start: '2026-10-21T10:00:00', status: 'pending' });
    // Before the window: 23:30 JST on Nov 30, 2025 (14:30 UTC).
    await reservation({ service: gel, start: '2025-11-30T23:30:00', status: 'completed' });
    // After the window and in the future (marked completed ahead of time): 00:00 JST on Dec 1, 2026 is Nov 30
    // 15:00 UTC; a UTC month would count it in November.
    await reservation({ service: care, start: '2026-12-01T00:00:00', status: 'completed' });

    // The menu price changes after all that booking: past sales stay at the stored prices.
    await t.database.db.update(services).set({ price: 9900 }).where(eq(services.id, gel.id));

    const stats = await statistics();
    expect(stats.monthly_sales).toEqual({
      labels: LABELS_TO_NOVEMBER,
      //     12月  1   2   3     4  5  6  7  8  9  10         11
      data: [5000, 0, 0, 3000, 0, 0, 0, 0, 0, 0, 5000, 5000],
    });
    expect(stats.reservation_stats).toEqual({ confirmed: 2, pending: 1, cancelled: 1, completed: 6, no_show: 1 });
    // Counted over all past visits (before the window too): gel 3 + 1 before the window, care 1 (not the future one).
    expect(stats.service_ranking).toEqual({ labels: ['ジェルネイル', 'ハンドケア'], data: [4, 1] });
  });

  it('ranks the top five services by completed visits, ties by name', async () => {
    const counts: Array<[string, number]> = [
      ['Aネイルオフ', 5],
      ['Bフットケア', 6],
      ['Cパラジェル', 2],
      ['Dアート', 2],
      ['Eまつげ', 1],
    ];
    for (const [index, [name, bookings]] of counts.entries()) {
      const row = await service(name, 1000);
      for (let i = 0; i < bookings; i += 1) {
        const start = `2026-06-${String(10 + i).padStart(2, '0')}T${String(10 + index).padStart(2, '0')}:00:00`;
        await reservation({ service: row, start, status: 'completed' });
      }
    }
    // Popular only among bookings that were never visits (cancelled, no-shows, confirmed or pending): not popular.
    const cancelledOnly = await service('Fキャンセル続き', 1000);
    for (let i = 0; i < 8; i += 1) {
      await reservation({
        service: cancelledOnly,
        start: `2026-07-${String(10 + i).padStart(2, '0')}T10:00:00`,
        status: (['cancelled', 'no_show', 'confirmed', 'pending'] as const)[i % 4]!,
      });
    }

    const { service_ranking: ranking } = await statistics();
    // With the earlier fixture: Bフットケア 6 and Aネイルオフ 5 lead, ジェルネイル 4; the ties of 2 (Cパラジェル,
    // Dアート) come next by name, and ハンドケア 1 and Eまつげ 1 fall off.
    expect(ranking).toEqual({
      labels: ['Bフットケア', 'Aネイルオフ', 'ジェルネイル', 'Cパラジェル', 'Dアート'],
      data: [6, 5, 4, 2, 2],
    });
  });

  it('follows the salon-local clock: just after midnight on December 1 in Tokyo is already December', async () => {
    const before = await statistics();
    // 2026-12-01 00:30 in Tokyo is still 2026-11-30 15:30 UTC.
    clock = local('2026-12-01T00:30:00');
    try {
      // Two weeks on, the earlier access token has expired: sign in again at the new time.
      superToken = (await t.auth.issueTokenPair('staff', adminId)).access;
      const after = await statistics();
      expect(after.monthly_sales.labels).toEqual([...LABELS_TO_NOVEMBER.slice(1), '2026年12月']);
      // The window moved by one month: December 2025 dropped out, December 2026 (the 3000 visit, now past) came in.
      expect(after.monthly_sales.data).toEqual([...before.monthly_sales.data.slice(1), 3000]);
    } finally {
      clock = local('2026-11-15T12:00:00');
    }
  });
});
