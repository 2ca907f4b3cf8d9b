/** The SQL of a status change (transition.ts): one compare-and-swap update. */
import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { ReservationStatus } from '#src/shared/constants';
import type { Executor } from '../../db/client';
import { cancelColumns } from '../../db/incidents';
import { reservations } from '../../db/schema';

/**
 * Compare-and-swap transition: changes the status only from one of `from` (and within `scope`, and, with
 * `startTime`, only while the reservation still starts then), so two concurrent transitions can never both
 * succeed and a staff action made against a time that has since moved never lands on the new time. Returns
 * undefined when nothing matched.
 */
export async function transitionStatus(
  db: Executor,
  input: {
    salonId: number;
    reservationNumber: string;
    from: readonly ReservationStatus[];
    to: ReservationStatus;
    scope?: SQL;
    startedBefore?: Date;
    /** The start the caller saw (the staff action's expected_start_time). */
    startTime?: Date;
    /** The app's clock: a cancel records when it happened and whether it was late (server/db/incidents.ts). */
    now: Date;
  },
) {
  const conditions = [
    eq(reservations.salon_id, input.salonId),
    eq(reservations.reservation_number, input.reservationNumber),
    inArray(reservations.status, [...input.from]),
  ];
  if (input.scope) conditions.push(input.scope);
  if (input.startedBefore) conditions.push(lt(reservations.start_time, input.startedBefore));
  if (input.startTime) conditions.push(eq(reservations.start_time, input.startTime));
  const [row] = await db
    .update(reservations)
    .set({
      status: input.to,
      ...(input.to === 'cancelled' ? cancelColumns(input.now) : {}),
      updated_at: sql`now()`,
    })
    .where(and(...conditions))
    .returning({ id: reservations.id });
  return row;
}
