/**
 * What every reservation use case (book.ts, create-as-staff.ts, transition.ts, reschedule.ts, read.ts, present.ts)
 * takes as its first argument, and the few steps they all share. reservations.service.ts builds it once from what
 * buildApp() (server/app.ts) hands over.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { ReservationChangeAction, ReservationChangeEvent } from '#src/shared/schemas/events';
import type { BookingLength } from '#src/shared/slots';
import { instantToLocalDateTime } from '#src/shared/time';
import type { Database, Executor } from '../../db/client';
import type { salons } from '../../db/schema';
import { ApiHttpError, conflict, notFound } from '../../http-errors';
import type { ReservationEventDetails } from '../../outbox/reservation-notifications';
import type { ReservationEvent } from '../../outbox/reservation-recipients';
import type { ServiceWithOptions } from '../../scheduling/menu';
import type { BookableStaffRow as BookableStaff } from '../../scheduling/working-time';
import * as repo from './reservations.repository';
import type { ReservationWithNames } from './reservations.repository';

/** Queues the messages an event causes, inside the transaction of the change (the outbox). */
type NotifyReservation = (
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

/** What createReservationsService takes (server/app.ts builds it; tests may leave the optional parts out). */
export interface ReservationsDeps {
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
}

/** The deps with their defaults filled in: what the use cases read. */
export type ReservationsContext = Required<ReservationsDeps>;

export function reservationsContext(deps: ReservationsDeps): ReservationsContext {
  return {
    ...deps,
    afterNotify: deps.afterNotify ?? (() => {}),
    publish: deps.publish ?? (() => {}),
    emailAddressesPerDay: deps.emailAddressesPerDay ?? Number.POSITIVE_INFINITY,
  };
}

/** An instant as the API speaks it: salon-local, naive (docs/architecture.md#time-and-identity). */
export function toLocal(ctx: ReservationsContext, instant: Date): string {
  return instantToLocalDateTime(instant, ctx.timeZone);
}

/** Tells the staff app's live view about a committed change (after the commit, never inside the transaction). */
export function publishChange(
  ctx: ReservationsContext,
  action: ReservationChangeAction,
  row: ReservationWithNames,
  by: 'customer' | 'staff',
) {
  ctx.publish({
    action,
    reservation_number: row.reservation_number,
    staff_id: row.staff_id,
    status: row.status,
    start_time: toLocal(ctx, row.start_time),
    customer_name: row.customer_name,
    by,
  });
}

/** The salon's settings row (cached by the availability service); its absence is a broken install, a 500. */
export async function salonSettings(ctx: ReservationsContext) {
  const salon = await ctx.availability.salon();
  if (!salon) throw new ApiHttpError(500, 'server_error', MESSAGES.salonNotFound);
  return salon;
}

/** The contact lines of the notices' e-mails, from the cached settings: read before a transaction, never in one. */
export async function contactLines(ctx: ReservationsContext): Promise<ReservationEventDetails['contact']> {
  const { phone_number, address, map_url, opening_hours_text } = await salonSettings(ctx);
  return { phone_number, address, map_url, opening_hours_text };
}

/** Reads a reservation back with its names (inside the change's transaction, for its messages). */
export async function reload(ctx: ReservationsContext, executor: Executor, reservationNumber: string) {
  const row = await repo.findByNumber(executor, ctx.salonId, reservationNumber);
  if (!row) throw notFound(MESSAGES.reservationNotFound);
  return row;
}

/**
 * The caller acted on the start on their screen (`expected_start_time`, which the offline outbox always sends):
 * a reservation that has moved since is a 409 `rescheduled`, whatever the action (transition.ts, reschedule.ts).
 */
export function refuseIfMoved(
  ctx: ReservationsContext,
  row: { start_time: Date },
  expectedStart: string | undefined,
): void {
  if (expectedStart !== undefined && toLocal(ctx, row.start_time) !== expectedStart) {
    throw conflict(SERVER_MESSAGES.reservationMovedMeanwhile, 'rescheduled');
  }
}
