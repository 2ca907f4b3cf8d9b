import { and, asc, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { ReservationStatus } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { reservations, services } from '../../db/schema';

/**
 * What counts as sales and as a service's popularity (docs/architecture.md): completed visits only, never a booking
 * still to come or one that did not happen. The register's takings (server/features/register) count what was paid.
 */
const SALES_STATUSES = ['completed'] as const satisfies readonly ReservationStatus[];

/**
 * Sales per salon-local month (`yyyy-MM`) of the start, at the price stored on each reservation, for starts in
 * [from, to) and before `now`. Grouped in SQL: the month is the one on the salon's wall clock, not UTC's.
 */
export function monthlySales(
  db: Executor,
  input: { salonId: number; timeZone: string; from: Date; to: Date; now: Date },
) {
  return (
    db
      .select({
        month: sql<string>`to_char(${reservations.start_time} at time zone ${input.timeZone}, 'YYYY-MM')`,
        total: sql<number>`sum(${reservations.price})`.mapWith(Number),
      })
      .from(reservations)
      .where(
        and(
          eq(reservations.salon_id, input.salonId),
          inArray(reservations.status, [...SALES_STATUSES]),
          gte(reservations.start_time, input.from),
          lt(reservations.start_time, input.to < input.now ? input.to : input.now),
        ),
      )
      // By position: the month expression carries a bound parameter, which PostgreSQL would not match textually.
      .groupBy(sql`1`)
  );
}

/**
 * The most visited services (completed, started before `now`), ties by name in code-point order (the same on every
 * engine and locale; kana sort in syllabary order); named as the menu names them now.
 */
export function topServices(db: Executor, salonId: number, limit: number, now: Date) {
  const bookings = count(reservations.id);
  return db
    .select({ name: services.name, bookings })
    .from(reservations)
    .innerJoin(services, eq(services.id, reservations.service_id))
    .where(
      and(
        eq(reservations.salon_id, salonId),
        inArray(reservations.status, [...SALES_STATUSES]),
        lt(reservations.start_time, now),
      ),
    )
    .groupBy(services.id, services.name)
    .orderBy(desc(bookings), asc(sql`${services.name} collate "C"`), asc(services.id))
    .limit(limit);
}

export function countsByStatus(db: Executor, salonId: number) {
  return db
    .select({ status: reservations.status, total: count(reservations.id) })
    .from(reservations)
    .where(eq(reservations.salon_id, salonId))
    .groupBy(reservations.status);
}
