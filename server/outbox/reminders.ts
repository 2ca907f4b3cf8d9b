/**
 * Day-before reminders (docs/architecture.md). Queuing marks the reservation (reminder_sent_at) in the same
 * transaction with a compare-and-swap, so several instances queue each reminder once. The text is rendered
 * only when the worker sends it, from the reservation's state at that moment.
 */
import { and, eq, gte, inArray, isNull, lt } from 'drizzle-orm';
import { ACTIVE_RESERVATION_STATUSES } from '../../src/shared/constants';
import { addDaysToDate, instantToLocalDateTime, localDateOf, localDateTimeToInstant } from '../../src/shared/time';
import type { Database } from '../db/client';
import { customers, reservations, salons, staffUsers } from '../db/schema';
import {
  enqueueNotifications,
  type EmailPayload,
  type LineMessage,
  type NewNotification,
  type OutboxRow,
} from './outbox';
import { renderCustomerEmail, renderCustomerLine } from './templates';

interface ReminderScheduleOptions {
  now: Date;
  timeZone: string;
  /** Salon-local hour from which reminders go out (no LINE pushes at midnight). Default 10. */
  fromHour?: number;
  /** Salon-local hour until which reminders go out (exclusive). Default 21. */
  untilHour?: number;
}

/**
 * Queues a reminder (e-mail and/or LINE) for every pending or confirmed reservation that starts tomorrow
 * (salon-local) and has none yet, in salons with reminders enabled. A reservation made today is left out:
 * its acceptance message went out hours ago at most. Returns the number of reservations.
 */
export async function enqueueDueReminders(db: Database, options: ReminderScheduleOptions): Promise<number> {
  const { now, timeZone, fromHour = 10, untilHour = 21 } = options;
  const hour = Number(instantToLocalDateTime(now, timeZone).slice(11, 13));
  if (hour < fromHour || hour >= untilHour) return 0;
  const today = localDateOf(now, timeZone);
  const todayStart = localDateTimeToInstant(`${today}T00:00:00`, timeZone);
  const tomorrow = addDaysToDate(today, 1);
  const windowStart = localDateTimeToInstant(`${tomorrow}T00:00:00`, timeZone);
  const windowEnd = localDateTimeToInstant(`${addDaysToDate(tomorrow, 1)}T00:00:00`, timeZone);

  return db.transaction(async (tx) => {
    const enabledSalons = tx.select({ id: salons.id }).from(salons).where(eq(salons.reminders_enabled, true));
    // The compare-and-swap: a second instance running the same statement waits for this row lock, then
    // re-checks `reminder_sent_at IS NULL` on the committed row and skips it.
    const marked = await tx
      .update(reservations)
      .set({ reminder_sent_at: now })
      .where(
        and(
          inArray(reservations.salon_id, enabledSalons),
          inArray(reservations.status, [...ACTIVE_RESERVATION_STATUSES]),
          isNull(reservations.reminder_sent_at),
          gte(reservations.start_time, windowStart),
          lt(reservations.start_time, windowEnd),
          lt(reservations.created_at, todayStart),
        ),
      )
      .returning({
        id: reservations.id,
        salon_id: reservations.salon_id,
        customer_id: reservations.customer_id,
        customer_email: reservations.customer_email,
      });
    if (marked.length === 0) return 0;
    const linked = await tx
      .select({ id: customers.id, line_user_id: customers.line_user_id })
      .from(customers)
      .where(inArray(customers.id, [...new Set(marked.map((row) => row.customer_id))]));
    const lineUserIds = new Map(linked.map((row) => [row.id, row.line_user_id]));
    const rows: NewNotification[] = [];
    for (const reservation of marked) {
      const base = { salonId: reservation.salon_id, reservationId: reservation.id, kind: 'reminder' as const };
      const payload = { template: 'reminder' as const };
      const email = reservation.customer_email.trim();
      if (email) rows.push({ ...base, channel: 'email', recipient: email, payload });
      const lineUserId = lineUserIds.get(reservation.customer_id);
      if (lineUserId) rows.push({ ...base, channel: 'line', recipient: lineUserId, payload });
    }
    await enqueueNotifications(tx, rows);
    return marked.length;
  });
}

type RenderedReminder =
  { skip: string } | { channel: 'email'; email: EmailPayload } | { channel: 'line'; messages: LineMessage[] };

/** The reminder's text from the reservation as it is now; a reason to skip when it no longer applies. */
export async function renderReminderAtSendTime(
  db: Database,
  row: Pick<OutboxRow, 'channel' | 'reservation_id'>,
  options: { now: Date; publicUrl: string; timeZone: string },
): Promise<RenderedReminder> {
  if (row.reservation_id === null) return { skip: 'skipped: the reminder has no reservation' };
  const [found] = await db
    .select({
      reservation: reservations,
      salonName: salons.name,
      staffName: staffUsers.full_name,
      contact: {
        phone_number: salons.phone_number,
        address: salons.address,
        map_url: salons.map_url,
        opening_hours_text: salons.opening_hours_text,
      },
    })
    .from(reservations)
    .innerJoin(salons, eq(salons.id, reservations.salon_id))
    .innerJoin(staffUsers, eq(staffUsers.id, reservations.staff_id))
    .where(eq(reservations.id, row.reservation_id));
  if (!found) return { skip: 'skipped: the reservation no longer exists' };
  const { salonName, contact } = found;
  // The reminder names who serves them, like the booking's own messages.
  const reservation = { ...found.reservation, staff_name: found.staffName };
  if (!(ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(reservation.status)) {
    return { skip: `skipped: the reservation is ${reservation.status}` };
  }
  if (reservation.start_time.getTime() <= options.now.getTime()) {
    return { skip: 'skipped: the reservation has already started' };
  }
  const context = { salonName, contact, publicUrl: options.publicUrl, timeZone: options.timeZone };
  return row.channel === 'email'
    ? { channel: 'email', email: renderCustomerEmail('reminder', reservation, context) }
    : { channel: 'line', messages: renderCustomerLine('reminder', reservation, context) };
}
