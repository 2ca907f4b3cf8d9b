/**
 * Reading reservations (docs/architecture.md#reading-a-reservation): the owning customer, staff within their
 * scope, or anyone holding the reservation's e-mail link. Someone else's reservation looks exactly like a
 * missing one.
 */
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { reachesBookingOf } from '../../db/scope';
import { MESSAGES } from '#src/shared/messages';
import { reservationSchema } from '#src/shared/schemas/reservations';
import { notFound } from '../../http-errors';
import type { StaffPrincipal } from '../../plugins/auth';
import { encodeJson, type EncodedJson } from '../../zod-app';
import { dayListAnswer, isDayList } from './day-list.repository';
import { present, presentAllForStaff, presentWith } from './present';
import { salonSettings, type ReservationsContext } from './reservations.context';
import * as repo from './reservations.repository';
import type { ReservationListFilter } from './reservations.repository';

/** How long after its start a reservation's e-mail link still opens it. */
const LINK_VALID_AFTER_START_MS = 30 * 24 * 60 * 60_000;

/** How many past reservations the customer's list shows (latest first). */
const CUSTOMER_PAST_LIMIT = 50;

/** Constant-time comparison of a link secret with what the request carried. */
function secretsMatch(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function getForCustomer(ctx: ReservationsContext, customerId: number, reservationNumber: string) {
  const row = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  // Someone else's reservation looks exactly like a missing one.
  if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
  return present(ctx, row, 'customer');
}

/** The signed-in customer's list (GET /api/reservations/): their own bookings only, upcoming and past. */
export async function listForCustomer(ctx: ReservationsContext, customerId: number) {
  const salon = await salonSettings(ctx);
  const { upcoming, past } = await repo.listForCustomer(
    ctx.db,
    ctx.salonId,
    customerId,
    ctx.now(),
    CUSTOMER_PAST_LIMIT,
  );
  return {
    upcoming: upcoming.map((row) => presentWith(ctx, row, 'customer', salon)),
    past: past.map((row) => presentWith(ctx, row, 'customer', salon)),
  };
}

/**
 * The e-mail link (GET /api/reservations/{number}/by-link/?t=…): the reservation's own link secret opens it
 * read-only, without signing in, until LINK_VALID_AFTER_START_MS after its start. A wrong, missing or expired
 * secret looks exactly like an unknown number.
 */
export async function getByLink(ctx: ReservationsContext, reservationNumber: string, secret: string) {
  const row = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  const valid =
    row !== undefined &&
    secretsMatch(row.link_secret, secret) &&
    ctx.now().getTime() <= row.start_time.getTime() + LINK_VALID_AFTER_START_MS;
  if (!valid) throw notFound(MESSAGES.reservationLinkInvalid);
  // Read-only: cancelling stays with the signed-in customer (or the salon, by phone).
  return { ...(await present(ctx, row, 'customer')), can_cancel: false };
}

export async function getForStaff(ctx: ReservationsContext, staff: StaffPrincipal, reservationNumber: string) {
  const row = await repo.findByNumber(ctx.db, ctx.salonId, reservationNumber);
  if (!row || !reachesBookingOf(staff, row.staff_id)) throw notFound(MESSAGES.reservationNotFound);
  return present(ctx, row, 'staff');
}

/** The caller's next active reservation, with the names its LINE message needs (the check page's push). */
export async function nextForCustomer(ctx: ReservationsContext, customerId: number) {
  return repo.findNextActiveForCustomer(ctx.db, customerId, ctx.now());
}

export const reservationListSchema = z.array(reservationSchema);

/**
 * A page of the staff list (GET /api/admin/reservations/), encoded as the route sends it, and its total. The day list
 * (a date range alone) is answered by the database as JSON in one statement (day-list.repository.ts); the other
 * filters read rows and present them here.
 */
export async function listForStaff(
  ctx: ReservationsContext,
  filter: ReservationListFilter,
): Promise<{ total: number; page: EncodedJson }> {
  if (isDayList(filter)) {
    const salon = await salonSettings(ctx);
    const { total, json } = await dayListAnswer(ctx.db, filter, {
      timeZone: ctx.timeZone,
      cancellationDeadlineDays: salon.cancellation_deadline_days,
    });
    return { total, page: { json } };
  }
  const { rows, total } = await repo.listReservations(ctx.db, filter);
  return { total, page: encodeJson(reservationListSchema, await presentAllForStaff(ctx, rows)) };
}
