/**
 * キャンセル待ち: a customer joins the waitlist of a day for a service (POST /api/waitlist/), sees and withdraws their
 * own entries, and staff see a day's entries. Offering freed starts is the outbox worker's sweep
 * (server/outbox/waitlist-offers.ts); booking one is an ordinary POST /api/reservations/, where the database's
 * exclusion constraint decides who gets a start that several were offered.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AdminWaitlistEntry, WaitlistEntry } from '#src/shared/schemas/waitlist';
import { WAITLIST_MAX_DAYS_AHEAD, WAITLIST_MAX_WAITING } from '#src/shared/schemas/waitlist';
import { timeToMinutes, withinWindow } from '#src/shared/slots';
import { addDaysToDate, instantToLocalDateTime, localDateOf } from '#src/shared/time';
import type { AppContext } from '../../context';
import { SQLSTATE, sqlState } from '../../db/client';
import { ownBookingsOnly, type ScopedStaff } from '../../db/scope';
import { badRequest, conflict, notFound } from '../../http-errors';
import { resolveMenuChoice } from '../../scheduling/menu';
import * as repo from './waitlist.repository';

interface JoinWaitlist {
  service_id: number;
  date: string;
  staff_id?: number;
  option_ids: number[];
  time_from?: string;
  time_to?: string;
}

type EntryRow = NonNullable<Awaited<ReturnType<typeof repo.findEntry>>>;

export function createWaitlistService(ctx: Pick<AppContext, 'db' | 'salonId' | 'now' | 'availability' | 'env'>) {
  const { db, salonId, now, availability } = ctx;
  const timeZone = ctx.env.SALON_TZ;
  const today = () => localDateOf(now(), timeZone);

  function present(row: EntryRow): WaitlistEntry {
    return {
      id: row.id,
      service_id: row.service_id,
      service_name: row.service_name,
      option_ids: row.option_ids,
      staff_id: row.staff_id,
      staff_name: row.staff_id === null ? null : (row.staff_name ?? ''),
      date: row.date,
      time_from: row.time_from?.slice(0, 5) ?? null,
      time_to: row.time_to?.slice(0, 5) ?? null,
      status: row.status,
      created_at: instantToLocalDateTime(row.created_at, timeZone),
    };
  }

  /** The checks a booking makes, where they apply to a day rather than a start: a 400 on the field at fault. */
  async function validate(body: JoinWaitlist) {
    const first = today();
    if (body.date < first)
      throw badRequest(SERVER_MESSAGES.waitlistDatePast, { date: [SERVER_MESSAGES.waitlistDatePast] });
    if (body.date > addDaysToDate(first, WAITLIST_MAX_DAYS_AHEAD)) {
      const message = SERVER_MESSAGES.waitlistDateTooFar(WAITLIST_MAX_DAYS_AHEAD);
      throw badRequest(message, { date: [message] });
    }
    const choice = await resolveMenuChoice(availability, {
      serviceId: body.service_id,
      optionIds: body.option_ids,
      serviceField: 'service_id',
    });
    if (body.staff_id !== undefined) {
      const staff = await availability.bookableStaff();
      if (!staff.some((member) => member.id === body.staff_id)) {
        throw badRequest(SERVER_MESSAGES.staffNotBookable, { staff_id: [SERVER_MESSAGES.staffNotBookable] });
      }
    }
    const grid = (await availability.salon())?.slot_minutes ?? 30;
    for (const field of ['time_from', 'time_to'] as const) {
      const value = body[field];
      if (value !== undefined && timeToMinutes(value) % grid !== 0) {
        throw badRequest(MESSAGES.waitlistTimeInvalid, { [field]: [MESSAGES.waitlistTimeInvalid] });
      }
    }
    // A window that still has a free start is booked, not waited for: registering it would only cost a LINE push
    // when the sweep offers the start that is free now.
    const free = await availability.availableStarts(body.date, choice.length, body.staff_id);
    if (free.some((time) => withinWindow(time, body.time_from ?? null, body.time_to ?? null))) {
      throw conflict(MESSAGES.waitlistTimesFree, 'waitlist_times_free');
    }
    // Options in the menu's order, each once: the sweep and the wizard read them as a menu choice.
    return choice.options.map((option) => option.id);
  }

  return {
    async join(customerId: number, body: JoinWaitlist): Promise<WaitlistEntry> {
      const optionIds = await validate(body);
      try {
        const id = await db.transaction(async (tx) => {
          if (!(await repo.lockCustomer(tx, salonId, customerId))) throw notFound(MESSAGES.customerNotFound);
          if ((await repo.countWaiting(tx, customerId, today())) >= WAITLIST_MAX_WAITING) {
            throw conflict(SERVER_MESSAGES.waitlistTooMany(WAITLIST_MAX_WAITING), 'waitlist_limit');
          }
          return repo.insertEntry(tx, {
            salon_id: salonId,
            customer_id: customerId,
            service_id: body.service_id,
            option_ids: optionIds,
            staff_id: body.staff_id ?? null,
            date: body.date,
            time_from: body.time_from ?? null,
            time_to: body.time_to ?? null,
            // The app's clock: first come, first served is by this instant, as the staff list shows it.
            created_at: now(),
            updated_at: now(),
          });
        });
        return present((await repo.findEntry(db, salonId, id))!);
      } catch (error) {
        // The partial unique index: this customer already waits for this day, service and staff choice.
        if (sqlState(error) === SQLSTATE.uniqueViolation) {
          throw conflict(SERVER_MESSAGES.waitlistDuplicate, 'waitlist_duplicate');
        }
        throw error;
      }
    },

    async listForCustomer(customerId: number): Promise<WaitlistEntry[]> {
      return (await repo.listWaitingForCustomer(db, salonId, customerId, today())).map(present);
    },

    /** Reading one entry (the wizard's /reserve?waitlist=<id>): someone else's is a 404 like a missing one. */
    async getForCustomer(customerId: number, id: number): Promise<WaitlistEntry> {
      const row = await repo.findEntry(db, salonId, id);
      if (!row || row.customer_id !== customerId) throw notFound(SERVER_MESSAGES.waitlistEntryNotFound);
      return present(row);
    },

    async withdraw(customerId: number, id: number): Promise<void> {
      if (!(await repo.withdraw(db, salonId, customerId, id, now()))) {
        throw notFound(SERVER_MESSAGES.waitlistEntryNotFound);
      }
    },

    /** The day's entries (not withdrawn): all for a superuser, else those naming the caller or naming no one. */
    async listForStaff(staff: ScopedStaff, date: string): Promise<AdminWaitlistEntry[]> {
      const rows = await repo.listForDay(db, salonId, date, ownBookingsOnly(staff));
      return rows.map((row) => ({
        ...present(row),
        customer_id: row.customer_id,
        customer_name: row.customer_name,
        offers: row.offers,
        last_offered_at:
          row.last_offered_at === null ? null : instantToLocalDateTime(new Date(row.last_offered_at), timeZone),
      }));
    },
  };
}
