/**
 * Moving a booking (日時変更, docs/architecture.md#booking-rules): the owner before the cancellation deadline, to a
 * start bookable now; staff any time, to any start on the grid. One move is one compare-and-swap update with its
 * history row and messages (reschedule.repository.ts); the exclusion constraint checks the new time
 * (claim-time.ts).
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { canSeeAllBookings } from '#src/shared/roles';
import { reachesBookingOf } from '../../db/scope';
import type { Reservation } from '#src/shared/schemas/reservations';
import { bookingLength, type BookingLength } from '#src/shared/slots';
import type { Executor } from '../../db/client';
import { badRequest, conflict, forbidden, notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import type { BookableStaffRow as BookableStaff } from '../../scheduling/working-time';
import { parseStart } from './booking-request';
import { lostTimeRace, MAX_BOOKING_ATTEMPTS, ScheduleChanged } from './claim-time';
import { present, type PresentableReservation } from './present';
import { beforeCancellationDeadline, isActive } from './reservation-rules';
import {
  contactLines,
  publishChange,
  refuseIfMoved,
  reload,
  salonSettings,
  type ReservationsContext,
} from './reservations.context';
import * as repo from './reservations.repository';
import type { ReservationWithNames } from './reservations.repository';
import * as rescheduleRepo from './reschedule.repository';
import * as staffRepo from './staff-booking.repository';
import { chooseStaff, freeAt } from './staff-choice';

/**
 * POST /api/reservations/{n}/reschedule/: the owner moves an active booking before the cancellation deadline to
 * a start that is bookable now (for the same staff member when they named one or name one now).
 */
export async function rescheduleAsCustomer(
  ctx: ReservationsContext,
  customerId: number,
  reservationNumber: string,
  body: { start_time: string; staff_id?: number },
) {
  const row = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
  if (!isActive(row)) throw conflict(SERVER_MESSAGES.reservationNotChangeable, 'not_changeable');
  const salon = await salonSettings(ctx);
  if (!beforeCancellationDeadline(row.start_time, salon.cancellation_deadline_days, ctx.now())) {
    throw forbidden(MESSAGES.rescheduleDeadlinePassed, 'reschedule_deadline_passed');
  }
  return moveAsCustomer(ctx, row, body);
}

/**
 * POST /api/admin/reservations/{n}/reschedule/: staff move an active booking any time, to any start on the grid
 * (like booking at the front desk, outside working hours too); a superuser may hand it to another staff member.
 * `expected_start_time` (the offline outbox sends it) refuses a move of a booking that has moved since.
 */
export async function rescheduleAsStaff(
  ctx: ReservationsContext,
  staff: StaffPrincipal,
  reservationNumber: string,
  body: { start_time: string; staff_id?: number; expected_start_time?: string },
) {
  const row = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  if (!row || !reachesBookingOf(staff, row.staff_id)) throw notFound(MESSAGES.reservationNotFound);
  refuseIfMoved(ctx, row, body.expected_start_time);
  if (!isActive(row)) throw conflict(SERVER_MESSAGES.reservationNotChangeable, 'not_changeable');
  const staffId = canSeeAllBookings(staff.role) && body.staff_id !== undefined ? body.staff_id : row.staff_id;
  if (staffId !== row.staff_id && !(await staffRepo.findStaff(ctx.db, ctx.salonId, staffId))) {
    throw badRequest(MESSAGES.staffNotFound, { staff_id: [MESSAGES.staffNotFound] });
  }
  const { start } = await parseStart(ctx, body.start_time);
  refuseSameTime(row, start, staffId);
  const length = await heldLength(ctx, row);
  // A booking the customer named their staff member for keeps its 指名 only with that staff member.
  const nomination = row.is_nominated && staffId === row.staff_id ? { fee: row.nomination_fee } : undefined;
  const result = await move(ctx, row, { start, staffId, length, nomination, by: 'staff', staff });
  if (result === 'overlap') throw conflict(SERVER_MESSAGES.staffTimeTaken, 'slot_unavailable');
  return present(ctx, result, 'staff');
}

function refuseSameTime(row: PresentableReservation, start: Date, staffId: number) {
  if (row.start_time.getTime() === start.getTime() && row.staff_id === staffId) {
    throw badRequest(SERVER_MESSAGES.rescheduleSameTime, { start_time: [SERVER_MESSAGES.rescheduleSameTime] });
  }
}

/** The time a booking of this reservation's total length holds under the salon's current rounding and buffer. */
async function heldLength(ctx: ReservationsContext, row: PresentableReservation): Promise<BookingLength> {
  const salon = await salonSettings(ctx);
  return bookingLength({
    serviceMinutes: row.duration_minutes,
    roundingMinutes: salon.block_rounding_minutes,
    bufferMinutes: salon.buffer_minutes,
  });
}

async function moveAsCustomer(
  ctx: ReservationsContext,
  row: ReservationWithNames,
  body: { start_time: string; staff_id?: number },
): Promise<Reservation> {
  const { start, date, time } = await parseStart(ctx, body.start_time);
  const length = await heldLength(ctx, row);
  // Named now, or named when booked: only that staff member; otherwise anyone free, the current one first.
  const named = body.staff_id ?? (row.is_nominated ? row.staff_id : undefined);
  refuseSameTime(row, start, named ?? row.staff_id);
  for (let attempt = 0; attempt < MAX_BOOKING_ATTEMPTS; attempt += 1) {
    const { starts, staff } = await ctx.availability.startsByStaff(date, length, named, row.id);
    if (named !== undefined && staff.length === 0) {
      throw badRequest(SERVER_MESSAGES.staffNotBookable, { staff_id: [SERVER_MESSAGES.staffNotBookable] });
    }
    const free = freeAt(starts, time);
    if (free.length === 0) throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
    const staffId = free.includes(row.staff_id) ? row.staff_id : await chooseStaff(ctx, free, row.customer_id, date);
    const chosen = staff.find((member) => member.id === staffId);
    const nomination =
      named === undefined
        ? undefined
        : { fee: named === row.staff_id && row.is_nominated ? row.nomination_fee : (chosen?.nomination_fee ?? 0) };
    const result = await move(ctx, row, { start, staffId, length, nomination, by: 'customer', verifyAgainst: chosen });
    if (result !== 'overlap') return present(ctx, result, 'customer');
  }
  throw conflict(MESSAGES.slotUnavailable, 'slot_unavailable');
}

interface MoveTarget {
  start: Date;
  staffId: number;
  length: BookingLength;
  nomination: { fee: number } | undefined;
  by: 'customer' | 'staff';
  staff?: StaffPrincipal;
  /** The staff member as availability was read (a customer's move): their schedule must not have changed since. */
  verifyAgainst?: BookableStaff;
}

/**
 * One move in one transaction: the compare-and-swap update (moveReservation), its history row and its
 * messages. An overlap (the exclusion constraint, or a deadlock between two racing moves) or a schedule change
 * is 'overlap', for the caller to retry or refuse; the reservation stays where it was.
 */
async function move(
  ctx: ReservationsContext,
  row: ReservationWithNames,
  to: MoveTarget,
): Promise<ReservationWithNames | 'overlap'> {
  const contact = await contactLines(ctx);
  try {
    const full = await ctx.db.transaction(async (tx) => {
      if (!(await rescheduleRepo.moveReservation(tx, { id: row.id, from: currentPlace(row), to: newPlace(row, to) }))) {
        return null;
      }
      await verifyScheduleVersion(tx, to.verifyAgainst);
      await rescheduleRepo.recordReschedule(tx, {
        reservation_id: row.id,
        old_start_time: row.start_time,
        new_start_time: to.start,
        old_staff_id: row.staff_id,
        new_staff_id: to.staffId,
        by: to.by,
        staff_id: to.staff?.id ?? null,
      });
      const reloaded = await reload(ctx, tx, row.reservation_number);
      await ctx.notify(tx, 'rescheduled', reloaded, {
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
    if (!full) return await refuseChangedMeanwhile(ctx, row);
    ctx.afterNotify();
    publishChange(ctx, 'rescheduled', full, to.by);
    return full;
  } catch (error) {
    if (lostTimeRace(error)) return 'overlap';
    throw error;
  }
}

/** Where the reservation is now: the compare-and-swap's condition. */
function currentPlace(row: ReservationWithNames) {
  return { start: row.start_time, staffId: row.staff_id };
}

/** The moved row's new columns: its times, staff member and 指名, its price with the 指名料 swapped. */
function newPlace(row: ReservationWithNames, to: MoveTarget) {
  const fee = to.nomination?.fee ?? 0;
  return {
    start_time: to.start,
    end_time: new Date(to.start.getTime() + to.length.servedMinutes * 60_000),
    occupied_until: new Date(to.start.getTime() + to.length.occupiedMinutes * 60_000),
    staff_id: to.staffId,
    is_nominated: to.nomination !== undefined,
    nomination_fee: fee,
    price: row.price - row.nomination_fee + fee,
  };
}

/** The compare-and-swap matched nothing: moved, cancelled or confirmed-and-completed by someone else meanwhile. */
async function refuseChangedMeanwhile(ctx: ReservationsContext, row: ReservationWithNames): Promise<never> {
  const current = await repo.findByNumber(ctx.db, ctx.salonId, row.reservation_number);
  if (current && isActive(current)) throw conflict(SERVER_MESSAGES.reservationMovedMeanwhile, 'rescheduled');
  throw conflict(SERVER_MESSAGES.staleStatus, 'stale_status');
}

/**
 * Inside a customer's move: the staff member's working time is still what availability was read against (a
 * customer's booking instead locks the staff rows before it reads their working time: migration 0025). Run after the row's update,
 * whose foreign-key check holds a key-share lock on the staff row that a schedule change's `FOR UPDATE`
 * (server/features/schedule) waits for, and vice versa: either this sees the raised version and retries, or the
 * change sees this booking and refuses to strand it.
 */
async function verifyScheduleVersion(tx: Executor, staff: BookableStaff | undefined) {
  if (!staff) return;
  if ((await rescheduleRepo.scheduleVersionOf(tx, staff.id)) !== staff.schedule_version) throw new ScheduleChanged();
}
