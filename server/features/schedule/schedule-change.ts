import { MESSAGES } from '#src/shared/messages';
import type { StrandedReservations } from '#src/shared/schemas/schedule';
import { coveredByCells, timeToMinutes } from '#src/shared/slots';
import { addDaysToDate, instantToLocalDateTime, localDateOf, localDateTimeToInstant } from '#src/shared/time';
import type { Database, Executor } from '../../db/client';
import type { Env } from '../../env';
import { ApiHttpError } from '../../http-errors';
import * as repo from './schedule.repository';
import { loadWorkingCells, type WorkingCells } from '../../scheduling/working-time';

/**
 * What a schedule change needs of the app: the AppContext (server/context.ts) fits it. Spelled out rather than
 * picked from AppContext, which names ScheduleScope: the two modules would import each other.
 */
interface ChangeContext {
  db: Database;
  salonId: number;
  now: () => Date;
  env: Pick<Env, 'SALON_TZ'>;
}

/** Whose working time a change touches, and (for a change of some days only) which days. */
export interface ScheduleScope {
  /** One or more staff members, or `'salon'`: everyone (a closed weekday, a holiday). */
  staffIds: readonly number[] | 'salon';
  /** The first and last date (inclusive) whose working time can change; absent = any day from now on. */
  dates?: { from: string; to: string };
}

/** The 409 of a change that would leave bookings outside working time: the body lists them. */
class StrandedError extends ApiHttpError {
  constructor(readonly reservations: StrandedReservations['reservations']) {
    super(409, 'stranded', MESSAGES.scheduleStrandsReservations(reservations.length), undefined, undefined, {
      reservations,
    });
  }
}

/**
 * Runs one change of working time (docs/architecture.md#booking-rules) so that it never strands a booking: in one
 * transaction it locks the staff rows concerned, reads the active bookings not yet over and the working time
 * before, makes the change, reads the working time after, and refuses (409 `stranded`, nothing written) when a
 * booking that lay within working time before no longer does. A booking that staff placed outside working time
 * on purpose was not covered before and does not block a change. Finally it raises those staff members'
 * schedule_version.
 *
 * Why no booking can slip in between: a customer's booking inserts its row (whose foreign-key check takes a
 * key-share lock on its staff row) and then re-reads schedule_version (server/features/reservations). If the
 * booking came first, the `FOR UPDATE` here waits for it to commit, and the bookings read after the lock include
 * it. If this came first, the booking waits for this commit and then sees the raised version, and is decided again
 * on the new working time.
 */
export async function changeSchedule<T>(
  ctx: ChangeContext,
  scope: ScheduleScope,
  write: (tx: Executor) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const locked = await repo.lockStaffRows(tx, ctx.salonId, scope.staffIds);
    const bookings = await repo.listActiveBookings(tx, {
      salonId: ctx.salonId,
      staffIds: scope.staffIds,
      after: ctx.now(),
      ...(scope.dates && {
        from: localDateTimeToInstant(`${scope.dates.from}T00:00:00`, ctx.env.SALON_TZ),
        to: localDateTimeToInstant(`${addDaysToDate(scope.dates.to, 1)}T00:00:00`, ctx.env.SALON_TZ),
      }),
    });
    const before = bookings.length > 0 ? await workingTimeFor(tx, ctx, bookings) : undefined;
    const result = await write(tx);
    if (before) {
      const after = await workingTimeFor(tx, ctx, bookings);
      const stranded = bookings.filter((booking) => before.covers(booking) && !after.covers(booking));
      if (stranded.length > 0) {
        throw new StrandedError(
          stranded.map((booking) => ({
            reservation_number: booking.reservation_number,
            start_time: instantToLocalDateTime(booking.start, ctx.env.SALON_TZ),
            customer_name: booking.customer_name,
            staff_name: booking.staff_name,
          })),
        );
      }
    }
    await repo.raiseScheduleVersions(tx, locked);
    return result;
  });
}

/**
 * The working time of the bookings' staff members over the bookings' days (one loadWorkingCells call), as a test
 * of whether a booking's served time [start_time, end_time) lies on open cells. A booking running past midnight
 * needs the next day's cells too.
 */
async function workingTimeFor(tx: Executor, ctx: ChangeContext, bookings: readonly repo.ActiveBooking[]) {
  const timeZone = ctx.env.SALON_TZ;
  const days = bookings.map((booking) => localDateOf(booking.start, timeZone)).sort();
  const staffIds = [...new Set(bookings.map((booking) => booking.staff_id))];
  const cells: WorkingCells = await loadWorkingCells(tx, {
    salonId: ctx.salonId,
    from: days[0]!,
    to: addDaysToDate(days[days.length - 1]!, 1),
    staffIds,
    closedWeekdays: await repo.closedWeekdaysOf(tx, ctx.salonId),
  });
  return {
    covers(booking: repo.ActiveBooking): boolean {
      const date = localDateOf(booking.start, timeZone);
      const midnight = localDateTimeToInstant(`${date}T00:00:00`, timeZone).getTime();
      const open = new Set<number>();
      for (const [offset, day] of [date, addDaysToDate(date, 1)].entries()) {
        for (const cell of cells.get(day)?.get(booking.staff_id) ?? [])
          open.add(offset * 24 * 60 + timeToMinutes(cell));
      }
      return coveredByCells(open, {
        start: (booking.start.getTime() - midnight) / 60_000,
        end: (booking.end.getTime() - midnight) / 60_000,
      });
    },
  };
}
