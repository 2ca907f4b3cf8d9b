import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { ReservationChangeAction, ReservationChangeEvent } from '#src/shared/schemas/events';
import type { Reservation } from '#src/shared/schemas/reservations';
import { bookingLength, timeToMinutes, type BookingLength } from '#src/shared/slots';
import { instantToLocalDateTime, localDateTimeToInstant } from '#src/shared/time';
import { SQLSTATE, sqlState, type Database, type Executor } from '../../db/client';
import { customers, reservations, salons, type ReservationOptionSnapshot } from '../../db/schema';
import { ApiHttpError, badRequest, conflict, forbidden, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import { recentEmailAddresses, refuseEmailAddressOverLimit } from '../../plugins/booking-limits';
import { findCustomerForStaff } from '../../db/scope';
import { incidentCounts, NO_INCIDENTS, type IncidentCounts } from '../../db/incidents';
import { approvalRuleOf, onlineBookingStatus } from '../../scheduling/approval-rule';
import type { ReservationEventDetails } from '../../outbox/reservation-notifications';
import type { ReservationEvent } from '../../outbox/reservation-recipients';
import {
  beforeCancellationDeadline,
  cancellationDeadline,
  decideTransition,
  TRANSITIONS,
  type StaffAction,
} from './reservation-rules';
import { resolveMenuChoice, type MenuChoice, type ServiceWithOptions } from '../../scheduling/menu';
import type { BookableStaffRow as BookableStaff } from '../../scheduling/working-time';
import * as repo from './reservations.repository';
import type { ReservationNames, ReservationWithNames } from './reservations.repository';

/** What a customer sends to book (POST /api/reservations/). */
interface CustomerBooking {
  salon: number;
  service: number;
  staff_id?: number;
  option_ids?: number[];
  start_time: string;
  customer_name: string;
  customer_furigana: string;
  customer_email: string;
  customer_phone: string;
}

/** What presenting a reservation reads: the row and the names (not the LINE ids, which only notifying needs). */
type PresentableReservation = Omit<ReservationWithNames, 'customer_line_user_id'>;
/** Queues the messages an event causes, inside the transaction of the change (the outbox). */
export type NotifyReservation = (
  tx: Executor,
  event: ReservationEvent,
  reservation: ReservationWithNames,
  /**
   * A move's messages say where the booking was (and with whom): the reloaded row only knows where it is now.
   * `contact`: the salon's contact lines, read before the transaction (server/outbox/reservation-notifications.ts).
   */
  details?: ReservationEventDetails,
) => Promise<void>;

/** What bookings need of the availability service: who is free (read fresh), the menu and settings (cached). */
interface Availability {
  startsByStaff(
    date: string,
    length: BookingLength,
    staffId?: number,
    ignoreReservationId?: number,
  ): Promise<{ starts: Map<number, string[]>; staff: BookableStaff[] }>;
  activeServices(): Promise<ServiceWithOptions[]>;
  lengthOf(serviceMinutes: number, optionMinutes: readonly number[]): Promise<BookingLength>;
  salon(): Promise<typeof salons.$inferSelect | undefined>;
}

/**
 * Thrown inside a booking's transaction when the staff member's working time changed since availability was read
 * (schedule_version moved): the transaction is rolled back and the booking decided again on the new schedule.
 */
class ScheduleChanged extends Error {}

/** SQLSTATE deadlock_detected: how an exclusion-constraint race can also end (see insertWithNotifications). */
const DEADLOCK_DETECTED = '40P01';

/** The exclusion constraint (migration 0006) that keeps one customer's own bookings from overlapping. */
const CUSTOMER_OVERLAP_CONSTRAINT = 'reservations_customer_no_overlap';

/** Whether a database error names this constraint (both drivers report it; Drizzle wraps it in `cause`). */
function violates(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const { constraint: name, message } = current as { constraint?: unknown; message?: unknown };
    if (name === constraint || (typeof message === 'string' && message.includes(`"${constraint}"`))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** How long after its start a reservation's e-mail link still opens it. */
const LINK_VALID_AFTER_START_MS = 30 * 24 * 60 * 60_000;

/** Constant-time comparison of a link secret with what the request carried. */
function secretsMatch(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** How many past reservations the customer's list shows (latest first). */
const CUSTOMER_PAST_LIMIT = 50;

/** A booking that loses the race for a staff member's time is retried with the next free staff member. */
const MAX_BOOKING_ATTEMPTS = 4;

export type ReservationsService = ReturnType<typeof createReservationsService>;

export function createReservationsService(deps: {
  db: Database;
  salonId: number;
  timeZone: string;
  now: () => Date;
  availability: Availability;
  notify: NotifyReservation;
  /** Called after a commit that queued messages, so the outbox sends them now rather than at its next poll. */
  afterNotify?: () => void;
  /** Live updates for the staff app (the event bus); called after the commit, never inside the transaction. */
  publish?: (event: ReservationChangeEvent) => void;
  /** Distinct e-mail addresses one customer may book with in 24 hours (server/plugins/booking-limits.ts). */
  emailAddressesPerDay?: number;
}) {
  const { db, salonId, timeZone, now, availability, notify, afterNotify = () => {}, publish = () => {} } = deps;
  const emailAddressesPerDay = deps.emailAddressesPerDay ?? Number.POSITIVE_INFINITY;
  const toLocal = (instant: Date) => instantToLocalDateTime(instant, timeZone);

  function published(action: ReservationChangeAction, row: ReservationWithNames, by: 'customer' | 'staff') {
    publish({
      action,
      reservation_number: row.reservation_number,
      staff_id: row.staff_id,
      status: row.status,
      start_time: toLocal(row.start_time),
      customer_name: row.customer_name,
      by,
    });
  }

  async function salonSettings() {
    const salon = await availability.salon();
    if (!salon) throw new ApiHttpError(500, 'server_error', MESSAGES.salonNotFound);
    return salon;
  }

  /** The contact lines of the notices' e-mails, from the cached settings: read before a transaction, never in one. */
  async function contactLines(): Promise<ReservationEventDetails['contact']> {
    const { phone_number, address, map_url, opening_hours_text } = await salonSettings();
    return { phone_number, address, map_url, opening_hours_text };
  }

  async function present(reservation: PresentableReservation, viewer: 'customer' | 'staff'): Promise<Reservation> {
    const incidents = viewer === 'staff' ? await incidentCounts(db, [reservation.customer_id]) : undefined;
    return presentWith(reservation, viewer, await salonSettings(), incidents);
  }

  /** Staff also see the customer's 無断欠席 and 直前キャンセル (`incidents`, read for the whole list at once). */
  function presentWith(
    reservation: PresentableReservation,
    viewer: 'customer' | 'staff',
    salon: { cancellation_deadline_days: number },
    incidents?: Map<number, IncidentCounts>,
  ): Reservation {
    const deadlineDays = salon.cancellation_deadline_days;
    const active = (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(reservation.status);
    return {
      id: reservation.id,
      reservation_number: reservation.reservation_number,
      reservation_code: reservation.reservation_code,
      status: reservation.status,
      salon: { name: reservation.salon_name },
      service: {
        id: reservation.service_id,
        name: reservation.service_name,
        price: String(reservation.price),
        duration_minutes: reservation.duration_minutes,
      },
      options: reservation.options.map((option) => ({ ...option, price: String(option.price) })),
      is_nominated: reservation.is_nominated,
      nomination_fee: String(reservation.nomination_fee),
      service_name: reservation.service_name,
      start_time: toLocal(reservation.start_time),
      end_time: toLocal(reservation.end_time),
      customer_id: reservation.customer_id,
      customer_name: reservation.customer_name,
      customer_furigana: reservation.customer_furigana,
      customer_email: reservation.customer_email,
      customer_phone: reservation.customer_phone,
      staff_id: reservation.staff_id,
      staff_name: reservation.staff_name,
      cancellation_deadline: toLocal(cancellationDeadline(reservation.start_time, deadlineDays)),
      can_cancel:
        active && (viewer === 'staff' || beforeCancellationDeadline(reservation.start_time, deadlineDays, now())),
      updated_at: reservation.updated_at.toISOString(),
      ...(viewer === 'staff' && staffOnly(reservation, incidents)),
    };
  }

  function staffOnly(reservation: PresentableReservation, incidents: Map<number, IncidentCounts> | undefined) {
    const counts = incidents?.get(reservation.customer_id) ?? NO_INCIDENTS;
    return {
      needs_approval: reservation.needs_approval,
      cancelled_late: reservation.cancelled_late,
      customer_no_show_count: counts.no_show_count,
      customer_late_cancel_count: counts.late_cancel_count,
    };
  }

  async function reload(executor: Executor, reservationNumber: string) {
    const row = await repo.findByNumber(executor, salonId, reservationNumber);
    if (!row) throw notFound(MESSAGES.reservationNotFound);
    return row;
  }

  /**
   * Runs a booking; when it is refused (a 4xx) and its Idempotency-Key already made a reservation, answers with
   * that one. That is a repeat whose first run committed but whose answer the idempotency plugin did not keep (the
   * process died, or a 5xx came after the commit): its own reservation now holds the time, so the booking itself
   * is refused. Looked up only on a refusal, so a booking that goes through pays no extra read; a repeat that
   * would book again is stopped by the key's unique index (insertWithNotifications).
   */
  async function unlessMadeEarlier(
    idempotencyKey: string | undefined,
    viewer: 'customer' | 'staff',
    book: () => Promise<Reservation>,
  ): Promise<Reservation> {
    try {
      return await book();
    } catch (error) {
      if (!idempotencyKey || !(error instanceof ApiHttpError) || error.statusCode >= 500) throw error;
      const earlier = await repo.findByIdempotencyKey(db, salonId, idempotencyKey);
      if (!earlier) throw error;
      return present(earlier, viewer);
    }
  }

  /** Parses and checks a requested start: on the salon's grid and not in the past. */
  async function parseStart(localStart: string) {
    const grid = (await salonSettings()).slot_minutes;
    if (timeToMinutes(localStart.slice(11, 16)) % grid !== 0 || localStart.slice(17, 19) !== '00') {
      const message = grid === 30 ? MESSAGES.offGridTime : MESSAGES.offGridTimeFor(grid);
      throw badRequest(message, { start_time: [message] });
    }
    const start = localDateTimeToInstant(localStart, timeZone);
    if (start <= now()) throw badRequest(MESSAGES.pastDateTime, { start_time: [MESSAGES.pastDateTime] });
    return { start, date: localStart.slice(0, 10), time: localStart.slice(11, 16) };
  }

  function menuChoice(serviceId: number, optionIds: readonly number[], serviceField: string) {
    return resolveMenuChoice(availability, { serviceId, optionIds, serviceField });
  }

  /**
   * Inside a customer's move: the staff member's working time is still what availability was read against (a
   * booking reads the version with its locks, repo.lockCustomerAndStaff). Run after the row's update, whose
   * foreign-key check holds a key-share lock on the staff row that a schedule change's `FOR UPDATE`
   * (server/features/schedule) waits for, and vice versa: either this sees the raised version and retries, or the
   * change sees this booking and refuses to strand it.
   */
  async function verifyScheduleVersion(tx: Executor, staff: BookableStaff | undefined) {
    if (!staff) return;
    if ((await repo.scheduleVersionOf(tx, staff.id)) !== staff.schedule_version) throw new ScheduleChanged();
  }

  /**
   * Inserts one reservation with its outbox rows; an overlap (23P01) becomes a 409 or a retry signal. With an
   * Idempotency-Key, a concurrent or earlier insert under the same key answers with the reservation it made.
   * `work` returns the row to insert and, when it has read them under its locks, the names its messages need;
   * without them the reservation is read back with its names.
   */
  async function insertWithNotifications(
    idempotencyKey: string | undefined,
    work: (tx: Executor) => Promise<{ row: typeof reservations.$inferInsert; names?: ReservationNames }>,
  ): Promise<ReservationWithNames | 'overlap'> {
    const contact = await contactLines();
    try {
      const full = await db.transaction(async (tx) => {
        const { row, names } = await work(tx);
        const inserted = await repo.insertReservation(tx, { ...row, idempotency_key: idempotencyKey ?? null });
        const stored = names ? { ...inserted, ...names } : await reload(tx, inserted.reservation_number);
        // Created confirmed (staff, or an online booking the salon confirms at once): the customer hears the
        // confirmation, never the acceptance that promises one later.
        await notify(tx, stored.status === 'confirmed' ? 'created_confirmed' : 'created', stored, { contact });
        return stored;
      });
      afterNotify();
      published('created', full, full.created_by === 'customer' ? 'customer' : 'staff');
      return full;
    } catch (error) {
      if (lostTimeRace(error)) return 'overlap';
      if (idempotencyKey && sqlState(error) === SQLSTATE.uniqueViolation) {
        const earlier = await repo.findByIdempotencyKey(db, salonId, idempotencyKey);
        if (earlier) return earlier;
      }
      throw error;
    }
  }

  /** What a reservation keeps of its menu choice and 指名 when booked: later menu edits do not rewrite it. */
  function snapshot(choice: MenuChoice, start: Date, nomination: { fee: number } | undefined) {
    const options: ReservationOptionSnapshot[] = choice.options.map((option) => ({
      id: option.id,
      name: option.name,
      price: option.price,
      duration_minutes: option.duration_minutes,
    }));
    const fee = nomination?.fee ?? 0;
    return {
      salon_id: salonId,
      service_id: choice.service.id,
      start_time: start,
      end_time: new Date(start.getTime() + choice.length.servedMinutes * 60_000),
      occupied_until: new Date(start.getTime() + choice.length.occupiedMinutes * 60_000),
      service_name: choice.service.name,
      price: choice.service.price + options.reduce((sum, option) => sum + option.price, 0) + fee,
      duration_minutes: choice.length.servedMinutes,
      options,
      is_nominated: nomination !== undefined,
      nomination_fee: fee,
    };
  }

  /** bookAsCustomer's booking itself (the reservation it made earlier aside). */
  async function book(customerId: number, body: CustomerBooking, idempotencyKey: string | undefined) {
    if (body.salon !== salonId) throw badRequest(MESSAGES.salonNotFound, { salon: [MESSAGES.salonNotFound] });
    const choice = await menuChoice(body.service, body.option_ids ?? [], 'service');
    const { start, date, time } = await parseStart(body.start_time);
    const salon = await salonSettings();

    for (let attempt = 0; attempt < MAX_BOOKING_ATTEMPTS; attempt += 1) {
      const { starts, staff } = await availability.startsByStaff(date, choice.length, body.staff_id);
      if (body.staff_id !== undefined && staff.length === 0) {
        throw badRequest(MESSAGES.staffNotBookable, { staff_id: [MESSAGES.staffNotBookable] });
      }
      const free = [...starts].filter(([, times]) => times.includes(time)).map(([staffId]) => staffId);
      if (free.length === 0) throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
      const staffId = await chooseStaff(free, customerId, date);
      const chosen = staff.find((member) => member.id === staffId);
      const nomination = body.staff_id !== undefined && chosen ? { fee: chosen.nomination_fee } : undefined;

      const result = await insertWithNotifications(idempotencyKey, async (tx) => {
        const locked = await repo.lockCustomerAndStaff(tx, customerId, staffId);
        if (!locked) throw notFound(MESSAGES.customerNotFound);
        // The staff member's working time is still what availability was read against (see lockCustomerAndStaff).
        if (chosen && locked.staff?.schedule_version !== chosen.schedule_version) throw new ScheduleChanged();
        // The details entered become the customer's profile, so the next booking starts filled in.
        const { upcoming, alsoRead: recentAddresses } = await repo.saveProfileAndCountUpcoming(
          tx,
          customerId,
          {
            name: body.customer_name,
            furigana: body.customer_furigana,
            email: body.customer_email,
            phone_number: body.customer_phone,
            assigned_staff_id: locked.customer.assigned_staff_id ?? staffId,
          },
          now(),
          recentEmailAddresses(customerId),
        );
        // Each booking mails the address typed in: a few per day per account, not a relay to anyone.
        refuseEmailAddressOverLimit(recentAddresses, body.customer_email, emailAddressesPerDay);
        if (upcoming >= salon.max_upcoming_per_customer) {
          throw conflict(MESSAGES.reservationLimit(salon.max_upcoming_per_customer), 'reservation_limit');
        }
        // Pending until staff confirm it, unless the salon confirms online bookings at once and the customer's
        // no-shows and late cancels stay below its threshold (server/scheduling/approval-rule.ts), as counted now.
        const { status, needs_approval } = await onlineBookingStatus(tx, approvalRuleOf(salon), customerId);
        return {
          row: {
            ...snapshot(choice, start, nomination),
            staff_id: staffId,
            customer_id: customerId,
            status,
            needs_approval,
            customer_name: body.customer_name,
            customer_furigana: body.customer_furigana,
            customer_email: body.customer_email,
            customer_phone: body.customer_phone,
            created_by: 'customer',
          },
          // Read under the locks, so the reservation need not be read back; the salon's name from its settings.
          names: {
            salon_name: salon.name,
            staff_name: locked.staff?.name ?? '',
            staff_line_user_id: locked.staff?.line_user_id ?? null,
            customer_line_user_id: locked.customer.line_user_id,
          },
        };
      });
      if (result !== 'overlap') return present(result, 'customer');
    }
    throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
  }

  return {
    /** A list of reservations for staff, reading the salon's settings once rather than once per row. */
    async presentAllForStaff(rows: PresentableReservation[]): Promise<Reservation[]> {
      const salon = await salonSettings();
      const incidents = await incidentCounts(
        db,
        rows.map((row) => row.customer_id),
      );
      return rows.map((row) => presentWith(row, 'staff', salon, incidents));
    },

    /**
     * A customer books (docs/architecture.md#booking-rules): the start must be bookable for the service with its
     * options; the staff member is the one named (指名, with their 指名料), else the customer's own if free, else the
     * free one with the fewest bookings that day. Created pending (or confirmed: onlineBookingStatus), with its
     * messages queued.
     */
    async bookAsCustomer(customerId: number, body: CustomerBooking, idempotencyKey?: string): Promise<Reservation> {
      return unlessMadeEarlier(idempotencyKey, 'customer', () => book(customerId, body, idempotencyKey));
    },

    async getForCustomer(customerId: number, reservationNumber: string) {
      const row = await repo.findByNumber(db, salonId, reservationNumber);
      // Someone else's reservation looks exactly like a missing one.
      if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
      return present(row, 'customer');
    },

    /** The signed-in customer's list (GET /api/reservations/): their own bookings only, upcoming and past. */
    async listForCustomer(customerId: number) {
      const salon = await salonSettings();
      const { upcoming, past } = await repo.listForCustomer(db, salonId, customerId, now(), CUSTOMER_PAST_LIMIT);
      return {
        upcoming: upcoming.map((row) => presentWith(row, 'customer', salon)),
        past: past.map((row) => presentWith(row, 'customer', salon)),
      };
    },

    /**
     * The e-mail link (GET /api/reservations/{number}/by-link/?t=…): the reservation's own link secret opens it
     * read-only, without signing in, until LINK_VALID_AFTER_START_MS after its start. A wrong, missing or expired
     * secret looks exactly like an unknown number.
     */
    async getByLink(reservationNumber: string, secret: string) {
      const row = await repo.findByNumber(db, salonId, reservationNumber);
      const valid =
        row !== undefined &&
        secretsMatch(row.link_secret, secret) &&
        now().getTime() <= row.start_time.getTime() + LINK_VALID_AFTER_START_MS;
      if (!valid) throw notFound(MESSAGES.reservationLinkInvalid);
      // Read-only: cancelling stays with the signed-in customer (or the salon, by phone).
      return { ...(await present(row, 'customer')), can_cancel: false };
    },

    async getForStaff(staff: StaffPrincipal, reservationNumber: string) {
      const row = await repo.findByNumber(db, salonId, reservationNumber);
      if (!row || (!staff.isSuperuser && row.staff_id !== staff.id)) throw notFound(MESSAGES.reservationNotFound);
      return present(row, 'staff');
    },

    /** The owner cancels while pending or confirmed and before the deadline; after it, 403 with a message. */
    async cancelAsCustomer(customerId: number, reservationNumber: string) {
      const row = await repo.findByNumber(db, salonId, reservationNumber);
      if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
      const salon = await salonSettings();
      if (!beforeCancellationDeadline(row.start_time, salon.cancellation_deadline_days, now())) {
        throw forbidden(MESSAGES.cancellationDeadlinePassed, 'cancellation_deadline_passed');
      }
      return transition(reservationNumber, TRANSITIONS.cancel, eq(reservations.customer_id, customerId), 'customer');
    },

    /**
     * A staff status action. `expectedStart` (salon-local; the offline outbox always sends it) is the start the staff
     * member saw: the change is made only while the reservation still starts then (a condition of the update
     * itself), else 409 `rescheduled` and nothing changes.
     */
    async transitionAsStaff(
      staff: StaffPrincipal,
      reservationNumber: string,
      action: StaffAction,
      expectedStart?: string,
    ) {
      const scope = staff.isSuperuser ? undefined : eq(reservations.staff_id, staff.id);
      return transition(reservationNumber, TRANSITIONS[action], scope, 'staff', expectedStart);
    },

    /** Staff book for a known customer: confirmed at once, assigned to the caller (a superuser may choose). */
    async createForCustomer(
      staff: StaffPrincipal,
      body: { service_id: number; customer_id: number; start_time: string; staff_id?: number; option_ids?: number[] },
      idempotencyKey?: string,
    ) {
      return unlessMadeEarlier(idempotencyKey, 'staff', async () => {
        const customer = await findCustomerForStaff(db, salonId, body.customer_id, staff);
        if (!customer) throw notFound(MESSAGES.customerNotFound);
        return createAsStaff(staff, customer, body, idempotencyKey);
      });
    },

    /**
     * A front-desk booking with a customer typed in: reuses a customer the caller already sees, not linked to LINE,
     * with the same e-mail or phone (never renaming them), else creates one (findWalkInCustomerByContact says why).
     * Either way the answer carries only what the caller typed or could already read.
     */
    async createWithNewCustomer(
      staff: StaffPrincipal,
      body: {
        name: string;
        phone_number: string;
        email: string;
        service_id: number;
        start_time: string;
        staff_id?: number;
        option_ids?: number[];
      },
      idempotencyKey?: string,
    ) {
      return unlessMadeEarlier(idempotencyKey, 'staff', () =>
        // Looked up and inserted in the booking's own transaction: a refused booking (an overlap) used to leave a
        // customer row behind, one more for every retry of a walk-in without e-mail or phone.
        createAsStaff(
          staff,
          async (tx, staffId) =>
            (await repo.findWalkInCustomerByContact(tx, {
              salonId,
              staff,
              email: body.email,
              phone: body.phone_number,
            })) ??
            // The staff member who serves them looks after them, as with an online booking.
            (await repo.insertWalkInCustomer(tx, {
              salonId,
              name: body.name,
              email: body.email,
              phone: body.phone_number,
              staffId,
            })),
          body,
          idempotencyKey,
        ),
      );
    },

    async nextForCustomer(customerId: number) {
      return repo.findNextActiveForCustomer(db, customerId, now());
    },

    /**
     * POST /api/reservations/{n}/reschedule/: the owner moves an active booking before the cancellation deadline to
     * a start that is bookable now (for the same staff member when they named one or name one now).
     */
    async rescheduleAsCustomer(
      customerId: number,
      reservationNumber: string,
      body: { start_time: string; staff_id?: number },
    ) {
      const row = await repo.findByNumber(db, salonId, reservationNumber);
      if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
      if (!isActive(row)) throw conflict(MESSAGES.reservationNotChangeable, 'not_changeable');
      const salon = await salonSettings();
      if (!beforeCancellationDeadline(row.start_time, salon.cancellation_deadline_days, now())) {
        throw forbidden(MESSAGES.rescheduleDeadlinePassed, 'reschedule_deadline_passed');
      }
      return moveAsCustomer(row, body);
    },

    /**
     * POST /api/admin/reservations/{n}/reschedule/: staff move an active booking any time, to any start on the grid
     * (like booking at the front desk, outside working hours too); a superuser may hand it to another staff member.
     * `expected_start_time` (the offline outbox sends it) refuses a move of a booking that has moved since.
     */
    async rescheduleAsStaff(
      staff: StaffPrincipal,
      reservationNumber: string,
      body: { start_time: string; staff_id?: number; expected_start_time?: string },
    ) {
      const row = await repo.findByNumber(db, salonId, reservationNumber);
      if (!row || (!staff.isSuperuser && row.staff_id !== staff.id)) throw notFound(MESSAGES.reservationNotFound);
      refuseIfMoved(row, body.expected_start_time);
      if (!isActive(row)) throw conflict(MESSAGES.reservationNotChangeable, 'not_changeable');
      const staffId = staff.isSuperuser && body.staff_id !== undefined ? body.staff_id : row.staff_id;
      if (staffId !== row.staff_id && !(await repo.findStaff(db, salonId, staffId))) {
        throw badRequest(MESSAGES.staffNotFound, { staff_id: [MESSAGES.staffNotFound] });
      }
      const { start } = await parseStart(body.start_time);
      refuseSameTime(row, start, staffId);
      const length = await heldLength(row);
      // A booking the customer named their staff member for keeps its 指名 only with that staff member.
      const nomination = row.is_nominated && staffId === row.staff_id ? { fee: row.nomination_fee } : undefined;
      const result = await move(row, { start, staffId, length, nomination, by: 'staff', staff });
      if (result === 'overlap') throw conflict(MESSAGES.staffTimeTaken, 'slot_unavailable');
      return present(result, 'staff');
    },
  };

  function isActive(row: PresentableReservation) {
    return (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(row.status);
  }

  function refuseIfMoved(row: PresentableReservation, expectedStart: string | undefined) {
    if (expectedStart !== undefined && toLocal(row.start_time) !== expectedStart) {
      throw conflict(MESSAGES.reservationMovedMeanwhile, 'rescheduled');
    }
  }

  function refuseSameTime(row: PresentableReservation, start: Date, staffId: number) {
    if (row.start_time.getTime() === start.getTime() && row.staff_id === staffId) {
      throw badRequest(MESSAGES.rescheduleSameTime, { start_time: [MESSAGES.rescheduleSameTime] });
    }
  }

  /** The time a booking of this reservation's total length holds under the salon's current rounding and buffer. */
  async function heldLength(row: PresentableReservation): Promise<BookingLength> {
    const salon = await salonSettings();
    return bookingLength({
      serviceMinutes: row.duration_minutes,
      roundingMinutes: salon.block_rounding_minutes,
      bufferMinutes: salon.buffer_minutes,
    });
  }

  async function moveAsCustomer(row: ReservationWithNames, body: { start_time: string; staff_id?: number }) {
    const { start, date, time } = await parseStart(body.start_time);
    const length = await heldLength(row);
    // Named now, or named when booked: only that staff member; otherwise anyone free, the current one first.
    const named = body.staff_id ?? (row.is_nominated ? row.staff_id : undefined);
    refuseSameTime(row, start, named ?? row.staff_id);
    for (let attempt = 0; attempt < MAX_BOOKING_ATTEMPTS; attempt += 1) {
      const { starts, staff } = await availability.startsByStaff(date, length, named, row.id);
      if (named !== undefined && staff.length === 0) {
        throw badRequest(MESSAGES.staffNotBookable, { staff_id: [MESSAGES.staffNotBookable] });
      }
      const free = [...starts].filter(([, times]) => times.includes(time)).map(([staffId]) => staffId);
      if (free.length === 0) throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
      const staffId = free.includes(row.staff_id) ? row.staff_id : await chooseStaff(free, row.customer_id, date);
      const chosen = staff.find((member) => member.id === staffId);
      const nomination =
        named === undefined
          ? undefined
          : { fee: named === row.staff_id && row.is_nominated ? row.nomination_fee : (chosen?.nomination_fee ?? 0) };
      const result = await move(row, { start, staffId, length, nomination, by: 'customer', verifyAgainst: chosen });
      if (result !== 'overlap') return present(result, 'customer');
    }
    throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
  }

  /**
   * One move in one transaction: the compare-and-swap update (repo.moveReservation), its history row and its
   * messages. An overlap (the exclusion constraint, or a deadlock between two racing moves) or a schedule change
   * is 'overlap', for the caller to retry or refuse; the reservation stays where it was.
   */
  async function move(
    row: ReservationWithNames,
    to: {
      start: Date;
      staffId: number;
      length: BookingLength;
      nomination: { fee: number } | undefined;
      by: 'customer' | 'staff';
      staff?: StaffPrincipal;
      verifyAgainst?: BookableStaff;
    },
  ): Promise<ReservationWithNames | 'overlap'> {
    const fee = to.nomination?.fee ?? 0;
    const contact = await contactLines();
    try {
      const full = await db.transaction(async (tx) => {
        const moved = await repo.moveReservation(tx, {
          id: row.id,
          from: { start: row.start_time, staffId: row.staff_id },
          to: {
            start_time: to.start,
            end_time: new Date(to.start.getTime() + to.length.servedMinutes * 60_000),
            occupied_until: new Date(to.start.getTime() + to.length.occupiedMinutes * 60_000),
            staff_id: to.staffId,
            is_nominated: to.nomination !== undefined,
            nomination_fee: fee,
            price: row.price - row.nomination_fee + fee,
          },
        });
        if (!moved) return null;
        await verifyScheduleVersion(tx, to.verifyAgainst);
        await repo.recordReschedule(tx, {
          reservation_id: row.id,
          old_start_time: row.start_time,
          new_start_time: to.start,
          old_staff_id: row.staff_id,
          new_staff_id: to.staffId,
          by: to.by,
          staff_id: to.staff?.id ?? null,
        });
        const reloaded = await reload(tx, row.reservation_number);
        await notify(tx, 'rescheduled', reloaded, {
          contact,
          previousStartTime: row.start_time,
          // Handed to another staff member: the one it was with hears of it too.
          previousStaff:
            row.staff_id === to.staffId
              ? undefined
              : { name: row.staff_name, lineUserId: row.staff_line_user_id, id: row.staff_id },
        });
        return reloaded;
      });
      if (!full) {
        // Moved, cancelled or confirmed-and-completed by someone else meanwhile.
        const current = await repo.findByNumber(db, salonId, row.reservation_number);
        if (current && isActive(current)) throw conflict(MESSAGES.reservationMovedMeanwhile, 'rescheduled');
        throw conflict(MESSAGES.staleStatus, 'stale_status');
      }
      afterNotify();
      published('rescheduled', full, to.by);
      return full;
    } catch (error) {
      if (lostTimeRace(error)) return 'overlap';
      throw error;
    }
  }

  /**
   * Whether a booking or a move failed because someone else claimed the time first (the caller retries or answers
   * 409). PostgreSQL checks an exclusion constraint after inserting the index entry, so two transactions that
   * claim overlapping time at once can each wait for the other (or for a row lock the other holds, e.g. a
   * customer's booking locks its customer row while a staff booking for that customer needs a key-share lock on
   * it): one of them is then aborted with 40P01 instead of 23P01. It lost the same race, so it is the same answer,
   * never a 500. A schedule change that came first is the same too. When the customer already holds a booking of
   * their own at that time (a double submit), another staff member would not help: that is a 409 at once.
   */
  function lostTimeRace(error: unknown): boolean {
    if (error instanceof ScheduleChanged) return true;
    const state = sqlState(error);
    if (state === SQLSTATE.exclusionViolation && violates(error, CUSTOMER_OVERLAP_CONSTRAINT)) {
      throw conflict(MESSAGES.customerTimeTaken, 'customer_overlap');
    }
    return state === SQLSTATE.exclusionViolation || state === DEADLOCK_DETECTED;
  }

  async function createAsStaff(
    staff: StaffPrincipal,
    customerOrCreate:
      typeof customers.$inferSelect | ((tx: Executor, staffId: number) => Promise<typeof customers.$inferSelect>),
    body: { service_id: number; start_time: string; staff_id?: number; option_ids?: number[] },
    idempotencyKey: string | undefined,
  ) {
    const choice = await menuChoice(body.service_id, body.option_ids ?? [], 'service_id');
    const { start } = await parseStart(body.start_time);
    const staffId = staff.isSuperuser && body.staff_id ? body.staff_id : staff.id;
    if (staffId !== staff.id && !(await repo.findStaff(db, salonId, staffId))) {
      throw badRequest(MESSAGES.staffNotFound, { staff_id: [MESSAGES.staffNotFound] });
    }
    // Confirmed at once: the customer gets the confirmation, not the acceptance that promises one later.
    const result = await insertWithNotifications(idempotencyKey, async (tx) => {
      const customer = typeof customerOrCreate === 'function' ? await customerOrCreate(tx, staffId) : customerOrCreate;
      return {
        row: {
          ...snapshot(choice, start, undefined),
          staff_id: staffId,
          customer_id: customer.id,
          status: 'confirmed',
          customer_name: customer.name,
          customer_furigana: customer.furigana,
          customer_email: customer.email,
          customer_phone: customer.phone_number,
          created_by: 'staff',
          created_by_staff_id: staff.id,
        },
      };
    });
    if (result === 'overlap') throw conflict(MESSAGES.staffTimeTaken, 'slot_unavailable');
    return present(result, 'staff');
  }

  /** Compare-and-swap on the status; a stale transition is a 409, someone else's reservation a 404. */
  async function transition(
    reservationNumber: string,
    rule: (typeof TRANSITIONS)[StaffAction],
    scope: ReturnType<typeof eq> | undefined,
    viewer: 'customer' | 'staff',
    expectedStart?: string,
  ) {
    const contact = rule.event ? await contactLines() : undefined;
    const result = await db.transaction(async (tx) => {
      const changed = await repo.transitionStatus(tx, {
        salonId,
        reservationNumber,
        from: rule.from,
        to: rule.to,
        scope,
        startedBefore: rule.pastOnly ? now() : undefined,
        startTime: expectedStart === undefined ? undefined : localDateTimeToInstant(expectedStart, timeZone),
        now: now(),
      });
      if (!changed) return null;
      const full = await reload(tx, reservationNumber);
      if (rule.event) await notify(tx, rule.event, full, { contact });
      return full;
    });
    if (result) {
      if (rule.event) afterNotify();
      published(rule.to as ReservationChangeAction, result, viewer);
      return present(result, viewer);
    }

    const current = await repo.findByNumber(db, salonId, reservationNumber);
    if (!current || (scope && !(await repo.existsInScope(db, reservationNumber, scope)))) {
      throw notFound(MESSAGES.reservationNotFound);
    }
    // The update refused because the reservation moved since the caller saw it: say so, whatever its status.
    refuseIfMoved(current, expectedStart);
    const outcome = decideTransition(rule, current, now());
    if ('refused' in outcome && outcome.refused === 'not_started')
      throw conflict(MESSAGES.notYetStarted, 'not_started');
    throw conflict(MESSAGES.staleStatus, 'stale_status');
  }

  /** The customer's own staff member when free, else the free one with the fewest bookings that day. */
  async function chooseStaff(free: number[], customerId: number, date: string): Promise<number> {
    if (free.length === 1) return free[0]!;
    const dayStart = localDateTimeToInstant(`${date}T00:00:00`, timeZone);
    const dayEnd = new Date(dayStart.getTime() + 24 * 60 * 60_000);
    const { assigned, loads } = await repo.staffChoiceInputs(db, {
      salonId,
      customerId,
      staffIds: free,
      from: dayStart,
      to: dayEnd,
    });
    if (assigned && free.includes(assigned)) return assigned;
    const load = (staffId: number) => loads.get(staffId) ?? 0;
    return [...free].sort((a, b) => load(a) - load(b) || a - b)[0]!;
  }
}
