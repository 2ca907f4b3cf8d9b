import { RESERVATION_STATUSES, type ReservationStatus } from '#src/shared/constants';
import type { Statistics } from '#src/shared/schemas/statistics';
import { localDateOf, localDateTimeToInstant } from '#src/shared/time';
import type { Database } from '../../db/client';
import * as repo from './statistics.repository';

const MONTHS = 12;
const TOP_SERVICES = 5;

interface Month {
  year: number;
  month: number;
}

const monthKey = ({ year, month }: Month) => `${year}-${String(month).padStart(2, '0')}`;
const firstInstant = (m: Month, timeZone: string) => localDateTimeToInstant(`${monthKey(m)}-01T00:00:00`, timeZone);
const shift = ({ year, month }: Month, by: number): Month => {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
};

/** The last `MONTHS` salon-local months ending with the current one, oldest first. */
function recentMonths(now: Date, timeZone: string): Month[] {
  const [year, month] = localDateOf(now, timeZone).split('-').map(Number) as [number, number];
  const current = { year, month };
  return Array.from({ length: MONTHS }, (_, i) => shift(current, i - (MONTHS - 1)));
}

/** GET /api/statistics/ (docs/screens.md#statistics, docs/architecture.md: completed visits at the stored price). */
export function createStatisticsService(deps: { db: Database; salonId: number; timeZone: string; now: () => Date }) {
  const { db, salonId, timeZone, now } = deps;

  return {
    async summary(): Promise<Statistics> {
      const at = now();
      const months = recentMonths(at, timeZone);
      const [sales, top, counts] = await Promise.all([
        repo.monthlySales(db, {
          salonId,
          timeZone,
          from: firstInstant(months[0]!, timeZone),
          to: firstInstant(shift(months[MONTHS - 1]!, 1), timeZone),
          now: at,
        }),
        repo.topServices(db, salonId, TOP_SERVICES, at),
        repo.countsByStatus(db, salonId),
      ]);
      const salesByMonth = new Map(sales.map((row) => [row.month, row.total]));
      const stats = Object.fromEntries(RESERVATION_STATUSES.map((status) => [status, 0])) as Record<
        ReservationStatus,
        number
      >;
      for (const row of counts) stats[row.status] = Number(row.total);
      return {
        monthly_sales: {
          labels: months.map(({ year, month }) => `${year}年${month}月`),
          data: months.map((m) => salesByMonth.get(monthKey(m)) ?? 0),
        },
        service_ranking: { labels: top.map((row) => row.name), data: top.map((row) => Number(row.bookings)) },
        reservation_stats: stats,
      };
    },
  };
}
