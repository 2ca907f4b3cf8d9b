/**
 * Claiming a staff member's time (docs/architecture.md#no-double-booking): the database's exclusion constraint
 * decides who wins a race, and this module turns its answer into a retry or a 409. book.ts, create-as-staff.ts and
 * reschedule.ts claim through it.
 */
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { SQLSTATE, sqlState, type Executor } from '../../db/client';
import type { reservations } from '../../db/schema';
import { ApiHttpError, conflict } from '../../http-errors';
import * as bookRepo from './book.repository';
import { present, type Viewer } from './present';
import { contactLines, publishChange, reload, type ReservationsContext } from './reservations.context';
import * as repo from './reservations.repository';
import type { ReservationNames, ReservationWithNames } from './reservations.repository';

/** A booking that loses the race for a staff member's time is retried with the next free staff member. */
export const MAX_BOOKING_ATTEMPTS = 4;

/**
 * Thrown inside a booking's transaction when the staff member's working time changed since availability was read
 * (schedule_version moved): the transaction is rolled back and the booking decided again on the new schedule.
 */
export class ScheduleChanged extends Error {}

/** SQLSTATE deadlock_detected: how an exclusion-constraint race can also end (see lostTimeRace). */
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

/**
 * Whether a booking or a move failed because someone else claimed the time first (the caller retries or answers
 * 409). PostgreSQL checks an exclusion constraint after inserting the index entry, so two transactions that
 * claim overlapping time at once can each wait for the other (or for a row lock the other holds, e.g. a
 * customer's booking locks its customer row while a staff booking for that customer needs a key-share lock on
 * it): one of them is then aborted with 40P01 instead of 23P01. It lost the same race, so it is the same answer,
 * never a 500. A schedule change that came first is the same too. When the customer already holds a booking of
 * their own at that time (a double submit), another staff member would not help: that is a 409 at once.
 */
export function lostTimeRace(error: unknown): boolean {
  if (error instanceof ScheduleChanged) return true;
  const state = sqlState(error);
  if (state === SQLSTATE.exclusionViolation && violates(error, CUSTOMER_OVERLAP_CONSTRAINT)) {
    throw conflict(SERVER_MESSAGES.customerTimeTaken, 'customer_overlap');
  }
  return state === SQLSTATE.exclusionViolation || state === DEADLOCK_DETECTED;
}

/**
 * Inserts one reservation with its outbox rows; an overlap (23P01) becomes a 409 or a retry signal. With an
 * Idempotency-Key, a concurrent or earlier insert under the same key answers with the reservation it made.
 * `work` returns the row to insert and, when it has read them under its locks, the names its messages need;
 * without them the reservation is read back with its names.
 */
export function insertWithNotifications(
  ctx: ReservationsContext,
  idempotencyKey: string | undefined,
  work: (tx: Executor) => Promise<{ row: typeof reservations.$inferInsert; names?: ReservationNames }>,
): Promise<ReservationWithNames | 'overlap'> {
  return claimWithNotifications(ctx, idempotencyKey, async (tx) => {
    const { row, names } = await work(tx);
    const inserted = await bookRepo.insertReservation(tx, { ...row, idempotency_key: idempotencyKey ?? null });
    return names ? { ...inserted, ...names } : await reload(ctx, tx, inserted.reservation_number);
  });
}

/**
 * Claims time in one transaction: `claim` inserts the reservation (a staff booking, create-as-staff.ts) and returns
 * it with its names, then its outbox rows are queued in the same transaction. After the commit the outbox is woken
 * and the staff app told; a lost race is 'overlap' (or a 409), a repeat under the same Idempotency-Key answers with
 * the reservation the first one made.
 */
async function claimWithNotifications(
  ctx: ReservationsContext,
  idempotencyKey: string | undefined,
  claim: (tx: Executor) => Promise<ReservationWithNames>,
): Promise<ReservationWithNames | 'overlap'> {
  const contact = await contactLines(ctx);
  return claimed(ctx, idempotencyKey, () =>
    ctx.db.transaction(async (tx) => {
      const stored = await claim(tx);
      // Created confirmed (staff, or an online booking the salon confirms at once): the customer hears the
      // confirmation, never the acceptance that promises one later.
      await ctx.notify(tx, stored.status === 'confirmed' ? 'created_confirmed' : 'created', stored, { contact });
      return stored;
    }),
  );
}

/**
 * Claims time in one statement that is its own transaction (a customer's booking: book_reservation(), migration
 * 0027, which queues the outbox event the worker expands into the booking's messages): otherwise as
 * claimWithNotifications.
 */
export function claimInOneStatement(
  ctx: ReservationsContext,
  idempotencyKey: string | undefined,
  claim: () => Promise<ReservationWithNames>,
): Promise<ReservationWithNames | 'overlap'> {
  return claimed(ctx, idempotencyKey, claim);
}

/** After a committed claim: the outbox woken, the staff app told. A lost race or a repeated key: see above. */
async function claimed(
  ctx: ReservationsContext,
  idempotencyKey: string | undefined,
  commit: () => Promise<ReservationWithNames>,
): Promise<ReservationWithNames | 'overlap'> {
  try {
    const full = await commit();
    ctx.afterNotify();
    publishChange(ctx, 'created', full, full.created_by === 'customer' ? 'customer' : 'staff');
    return full;
  } catch (error) {
    if (lostTimeRace(error)) return 'overlap';
    if (idempotencyKey && sqlState(error) === SQLSTATE.uniqueViolation) {
      const earlier = await repo.findByIdempotencyKey(ctx.db, ctx.salonId, idempotencyKey);
      if (earlier) return earlier;
    }
    throw error;
  }
}

/**
 * Runs a booking; when it is refused (a 4xx) and its Idempotency-Key already made a reservation, answers with
 * that one. That is a repeat whose first run committed but whose answer the idempotency plugin did not keep (the
 * process died, or a 5xx came after the commit): its own reservation now holds the time, so the booking itself
 * is refused. Looked up only on a refusal, so a booking that goes through pays no extra read; a repeat that
 * would book again is stopped by the key's unique index (insertWithNotifications).
 */
export async function unlessMadeEarlier(
  ctx: ReservationsContext,
  idempotencyKey: string | undefined,
  viewer: Viewer,
  book: () => Promise<Reservation>,
): Promise<Reservation> {
  try {
    return await book();
  } catch (error) {
    if (!idempotencyKey || !(error instanceof ApiHttpError) || error.statusCode >= 500) throw error;
    const earlier = await repo.findByIdempotencyKey(ctx.db, ctx.salonId, idempotencyKey);
    if (!earlier) throw error;
    return present(ctx, earlier, viewer);
  }
}
