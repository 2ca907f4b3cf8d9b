import { and, asc, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { ScheduleDay } from '#src/shared/schemas/schedule';
import { openCellsOfDay } from '#src/shared/slots';
import { addDaysToDate } from '#src/shared/time';
import type { Executor } from '../db/client';
import { preparedOn } from '../db/prepared';
import { openingSlots, salonHolidays, salons, scheduleExceptions, shiftTemplates, staffUsers } from '../db/schema';

/** The 30-minute cells (`HH:mm`) each staff member works, per date: `cells.get(date)?.get(staffId)`. */
export type WorkingCells = Map<string, Map<number, string[]>>;

/** 0 = Sunday … 6 = Saturday of a `yyyy-MM-dd` (a calendar date: no time zone involved). */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** What decides working time over a range of dates (loaded once, read per day by `cellsOn` / `sourceOn`). */
interface ScheduleInputs {
  templateOf: Map<string, { start: string; end: string }>;
  /** `staffId|date` of every day set by hand, with its cells (possibly none: a day off). */
  exceptionCells: Map<string, string[]>;
  holidays: Set<string>;
  closed: Set<number>;
}

async function loadScheduleInputs(
  db: Executor,
  input: { salonId: number; from: string; to: string; staffIds: readonly number[]; closedWeekdays: readonly number[] },
): Promise<ScheduleInputs> {
  const [row] = await preparedOn(db, 'schedule_inputs', scheduleInputsStatement).execute({
    salonId: input.salonId,
    from: input.from,
    to: input.to,
    staffIds: [...input.staffIds],
  });
  const { templates = [], exceptions = [], slots = [], holidays = [] } = row ?? {};

  const exceptionCells = new Map<string, string[]>(exceptions.map((row) => [`${row.staffId}|${row.date}`, []]));
  for (const slot of slots) exceptionCells.get(`${slot.staffId}|${slot.date}`)?.push(slot.time.slice(0, 5));
  return {
    templateOf: new Map(
      templates.map((row) => [
        `${row.staffId}|${row.weekday}`,
        { start: row.start.slice(0, 5), end: row.end.slice(0, 5) },
      ]),
    ),
    exceptionCells,
    holidays: new Set(holidays),
    closed: new Set(input.closedWeekdays),
  };
}

/**
 * One statement for the four inputs, as subqueries on the salon's row: a booking reads them on its way to its
 * transaction, where each round trip costs more than the JSON (times come as 'HH:mm:ss', dates as 'yyyy-MM-dd').
 */
function scheduleInputsStatement(db: Executor) {
  const staffIds = sql`any(${sql.placeholder('staffIds')}::int[])`;
  const between = (column: SQLWrapper) =>
    sql`${column} between ${sql.placeholder('from')}::date and ${sql.placeholder('to')}::date`;
  return db
    .select({
      templates: sql<Array<{ staffId: number; weekday: number; start: string; end: string }>>`(
        select coalesce(json_agg(json_build_object('staffId', ${shiftTemplates.staff_id},
          'weekday', ${shiftTemplates.weekday}, 'start', ${shiftTemplates.start_time}, 'end', ${shiftTemplates.end_time})), '[]')
        from ${shiftTemplates} where ${shiftTemplates.staff_id} = ${staffIds})`,
      exceptions: sql<Array<{ staffId: number; date: string }>>`(
        select coalesce(json_agg(json_build_object('staffId', ${scheduleExceptions.staff_id},
          'date', ${scheduleExceptions.exception_date})), '[]')
        from ${scheduleExceptions}
        where ${scheduleExceptions.salon_id} = ${salons.id} and ${between(scheduleExceptions.exception_date)}
          and ${scheduleExceptions.staff_id} = ${staffIds})`,
      slots: sql<Array<{ staffId: number; date: string; time: string }>>`(
        select coalesce(json_agg(json_build_object('staffId', ${openingSlots.staff_id}, 'date', ${openingSlots.slot_date},
          'time', ${openingSlots.start_time}) order by ${openingSlots.start_time}), '[]')
        from ${openingSlots}
        where ${openingSlots.salon_id} = ${salons.id} and ${between(openingSlots.slot_date)}
          and ${openingSlots.staff_id} = ${staffIds})`,
      holidays: sql<string[]>`(
        select coalesce(json_agg(${salonHolidays.holiday_date}), '[]')
        from ${salonHolidays}
        where ${salonHolidays.salon_id} = ${salons.id} and ${between(salonHolidays.holiday_date)})`,
    })
    .from(salons)
    .where(eq(salons.id, sql.placeholder('salonId')))
    .prepare('schedule_inputs');
}

function cellsOn(inputs: ScheduleInputs, staffId: number, date: string): string[] {
  const weekday = weekdayOf(date);
  return openCellsOfDay({
    exceptionCells: inputs.exceptionCells.get(`${staffId}|${date}`),
    template: inputs.templateOf.get(`${staffId}|${weekday}`),
    salonClosed: inputs.closed.has(weekday) || inputs.holidays.has(date),
  });
}

/** Which rule decides a staff member's day, in the order openCellsOfDay applies them. */
function sourceOn(inputs: ScheduleInputs, staffId: number, date: string): ScheduleDay['source'] {
  const weekday = weekdayOf(date);
  if (inputs.exceptionCells.has(`${staffId}|${date}`)) return 'exception';
  if (inputs.holidays.has(date)) return 'holiday';
  if (inputs.closed.has(weekday)) return 'closed';
  return inputs.templateOf.has(`${staffId}|${weekday}`) ? 'template' : 'off';
}

/**
 * Who works when (docs/architecture.md#booking-rules), from the weekly templates, the salon's closed weekdays and
 * holidays, and the days set by hand (exceptions), for the given staff members between two dates (inclusive). One
 * place decides it: availability, the schedule screens and the check that a change strands no booking all read this;
 * a customer's booking applies the same rule in the database, in book_reservation()
 * (server/db/migrations/0025_book_reservation.sql): change one, change both.
 */
export async function loadWorkingCells(
  db: Executor,
  input: { salonId: number; from: string; to: string; staffIds: readonly number[]; closedWeekdays: readonly number[] },
): Promise<WorkingCells> {
  const result: WorkingCells = new Map();
  if (input.staffIds.length === 0 || input.from > input.to) return result;
  const inputs = await loadScheduleInputs(db, input);
  for (let date = input.from; date <= input.to; date = addDaysToDate(date, 1)) {
    const perStaff = new Map<number, string[]>();
    for (const staffId of input.staffIds) {
      const cells = cellsOn(inputs, staffId, date);
      if (cells.length > 0) perStaff.set(staffId, cells);
    }
    if (perStaff.size > 0) result.set(date, perStaff);
  }
  return result;
}

/**
 * One staff member's days between two dates (inclusive) as the schedule calendar shows them: which rule decides
 * each day and whether they work at all. Read from the same inputs, by the same rule, as loadWorkingCells.
 */
export async function loadScheduleDays(
  db: Executor,
  input: { salonId: number; from: string; to: string; staffId: number; closedWeekdays: readonly number[] },
): Promise<ScheduleDay[]> {
  if (input.from > input.to) return [];
  const inputs = await loadScheduleInputs(db, { ...input, staffIds: [input.staffId] });
  const days: ScheduleDay[] = [];
  for (let date = input.from; date <= input.to; date = addDaysToDate(date, 1)) {
    days.push({
      date,
      source: sourceOn(inputs, input.staffId, date),
      open: cellsOn(inputs, input.staffId, date).length > 0,
    });
  }
  return days;
}

/**
 * The staff members customers can book, in a stable order, with what nomination shows: active, bookable, and with
 * some working time at all (a weekly template, or a day set by hand from today on). An owner's account without
 * shifts is therefore never offered for 指名, where every date would turn out empty.
 */
export function listBookableStaff(db: Executor, salonId: number) {
  return preparedOn(db, 'bookable_staff', bookableStaffStatement).execute({ salonId });
}

function bookableStaffStatement(db: Executor) {
  return db
    .select({
      id: staffUsers.id,
      name: staffUsers.full_name,
      nomination_fee: staffUsers.nomination_fee,
      profile: staffUsers.profile,
      picture_url: staffUsers.picture_url,
      schedule_version: staffUsers.schedule_version,
    })
    .from(staffUsers)
    .where(
      and(
        eq(staffUsers.salon_id, sql.placeholder('salonId')),
        eq(staffUsers.is_active, true),
        eq(staffUsers.is_bookable, true),
        // "A day set by hand from today on" as the last such day: one step down the primary key (staff_id,
        // slot_date, start_time) from its end. Written as `exists (… slot_date >= current_date)` the planner
        // expected thousands of matches and scanned the table for the first, ~3 ms for every booking at a year of
        // slots (docs/BENCHMARKS.md, second session of 2026-11-26).
        sql`(exists (select 1 from ${shiftTemplates} where ${shiftTemplates.staff_id} = ${staffUsers.id})
          or (select max(${openingSlots.slot_date}) from ${openingSlots}
              where ${openingSlots.staff_id} = ${staffUsers.id}) >= current_date)`,
      ),
    )
    .orderBy(asc(staffUsers.id))
    .prepare('bookable_staff');
}
export type BookableStaffRow = Awaited<ReturnType<typeof listBookableStaff>>[number];
