/** The SQL of a move (reschedule.ts): the compare-and-swap update, its history row, the schedule version check. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { reservationReschedules, reservations, staffUsers } from '../../db/schema';
import type { ReservationRow } from './reservations.repository';

/**
 * The staff member's schedule_version (server/db/schema.ts says what it guards), read under a key-share lock: a
 * move within the same staff member's day changes no foreign key, so nothing else would make this wait for a
 * schedule change holding the row (`FOR UPDATE`, server/features/schedule/schedule-change.ts) and see its version.
 */
export async function scheduleVersionOf(db: Executor, staffId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ version: staffUsers.schedule_version })
    .from(staffUsers)
    .where(eq(staffUsers.id, staffId))
    .for('key share');
  return row?.version;
}

/**
 * Moves an active reservation (compare-and-swap on its current start, staff member and status): the old time is
 * held until this one statement commits, and the exclusion constraint checks the new time against every other
 * booking. Undefined when the reservation changed meanwhile.
 */
export async function moveReservation(
  db: Executor,
  input: {
    id: number;
    from: { start: Date; staffId: number };
    to: Pick<
      ReservationRow,
      'start_time' | 'end_time' | 'occupied_until' | 'staff_id' | 'is_nominated' | 'nomination_fee' | 'price'
    >;
  },
) {
  const [row] = await db
    .update(reservations)
    .set({ ...input.to, reminder_sent_at: null, updated_at: sql`now()` })
    .where(
      and(
        eq(reservations.id, input.id),
        eq(reservations.start_time, input.from.start),
        eq(reservations.staff_id, input.from.staffId),
        inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
      ),
    )
    .returning({ id: reservations.id });
  return row;
}

export async function recordReschedule(db: Executor, row: typeof reservationReschedules.$inferInsert) {
  await db.insert(reservationReschedules).values(row);
}
