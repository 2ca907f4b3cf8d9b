/**
 * 再来店のご案内: a service's cycle (services.rebook_cycle_days, e.g. 21 days for gel) after a completed visit, a
 * LINE-linked customer with nothing booked gets one message with a link that books the same menu again
 * (/reserve?rebook=<number>, the wizard pre-filled by src/features/booking/hooks/use-rebook.ts).
 *
 * Like the reminders (reminders.ts): queuing marks the visit (rebook_prompted_at) in the same transaction with a
 * compare-and-swap, so several instances and repeated sweeps queue each visit's message once.
 */
import { and, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ACTIVE_RESERVATION_STATUSES } from '../../src/shared/constants';
import { formatDateJa } from '../../src/shared/format';
import { addDaysToDate, instantToLocalDateTime, localDateOf } from '../../src/shared/time';
import type { Database } from '../db/client';
import { customers, reservations, salons, services } from '../db/schema';
import { enqueueNotifications, type LineMessage, type NewNotification } from './outbox';
import { linkCard } from './line-cards';
import { reservationUrl } from './templates';

interface RebookingScheduleOptions {
  now: Date;
  timeZone: string;
  publicUrl: string;
  /** Salon-local hour from which the messages go out (a morning message, never at night). Default 10. */
  fromHour?: number;
  /** Salon-local hour until which they go out (exclusive). Default 20. */
  untilHour?: number;
  /**
   * Days after the cycle during which a missed message still goes out (the app was down that morning); older
   * visits are left alone, so that giving a service a cycle does not message every customer who ever had it.
   * Default 7.
   */
  graceDays?: number;
}

/** The link in the message: the booking wizard with the visit's menu, options and 指名 filled in. */
function rebookUrl(publicUrl: string, reservationNumber: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/reserve?rebook=${encodeURIComponent(reservationNumber)}`;
}

/** The card's button: it books (the wizard pre-filled), unlike the notices' 「予約を確認する」. */
const REBOOK_BUTTON_LABEL = '前回と同じ内容で予約する';

export function renderRebookingPromptLine(
  visit: { reservation_number: string; service_name: string; start_time: Date; customer_name: string },
  context: { salonName: string; publicUrl: string; timeZone: string },
): LineMessage[] {
  const visited = formatDateJa(instantToLocalDateTime(visit.start_time, context.timeZone));
  const greeting = [
    `${visit.customer_name} 様`,
    `前回のご来店（${visited}・${visit.service_name}）からそろそろお手入れの時期です。`,
  ];
  const bookingLink = rebookUrl(context.publicUrl, visit.reservation_number);
  const stopLink = reservationUrl(context.publicUrl, visit.reservation_number);
  const stopLines = ['※今後このご案内が不要な場合は、こちらから停止できます:', stopLink];
  const text = [
    `【${context.salonName}】`,
    ...greeting,
    '前回と同じ内容でのご予約はこちらから:',
    bookingLink,
    '',
    ...stopLines,
  ].join('\n');
  // The button books again; the stop link stays in the card's text (a second, quieter way out).
  return [
    linkCard({
      altText: text,
      title: `【${context.salonName}】`,
      lines: [...greeting, '', ...stopLines],
      button: { label: REBOOK_BUTTON_LABEL, url: bookingLink },
    }),
  ];
}

/**
 * Queues the 再来店のご案内 of every completed visit whose service's cycle has come (salon-local days) and that has
 * none yet, when the customer is linked to LINE, has not opted out, has no pending or confirmed booking from now on
 * and has had no completed visit since. Returns the number of visits.
 */
export async function enqueueDueRebookingPrompts(db: Database, options: RebookingScheduleOptions): Promise<number> {
  const { now, timeZone, publicUrl, fromHour = 10, untilHour = 20, graceDays = 7 } = options;
  const hour = Number(instantToLocalDateTime(now, timeZone).slice(11, 13));
  if (hour < fromHour || hour >= untilHour) return 0;
  const today = localDateOf(now, timeZone);
  const earliest = addDaysToDate(today, -graceDays);

  const later = alias(reservations, 'later');
  // The visit's salon-local date plus the cycle: the day its message is due.
  const dueDate = sql`((${reservations.start_time} at time zone ${timeZone})::date + ${services.rebook_cycle_days})`;

  return db.transaction(async (tx) => {
    const due = tx
      .select({ id: reservations.id })
      .from(reservations)
      .innerJoin(services, eq(services.id, reservations.service_id))
      .innerJoin(customers, eq(customers.id, reservations.customer_id))
      .where(
        and(
          eq(reservations.status, 'completed'),
          isNull(reservations.rebook_prompted_at),
          isNotNull(services.rebook_cycle_days),
          sql`${dueDate} <= ${today}::date`,
          sql`${dueDate} >= ${earliest}::date`,
          isNotNull(customers.line_user_id),
          eq(customers.rebook_prompts_enabled, true),
          // Already rebooked: a booking from now on, or a visit after this one.
          sql`not exists (${tx
            .select({ one: sql`1` })
            .from(later)
            .where(
              and(
                eq(later.customer_id, reservations.customer_id),
                sql`(${and(inArray(later.status, [...ACTIVE_RESERVATION_STATUSES]), gt(later.start_time, now))}
                  or (${later.status} = 'completed' and ${later.start_time} > ${reservations.start_time}))`,
              ),
            )})`,
        ),
      );
    // The compare-and-swap: a second instance running the same statement waits for this row lock, then re-checks
    // `rebook_prompted_at IS NULL` on the committed row and skips it.
    const marked = await tx
      .update(reservations)
      .set({ rebook_prompted_at: now })
      .where(and(inArray(reservations.id, due), isNull(reservations.rebook_prompted_at)))
      .returning({
        id: reservations.id,
        salon_id: reservations.salon_id,
        customer_id: reservations.customer_id,
        reservation_number: reservations.reservation_number,
        service_name: reservations.service_name,
        start_time: reservations.start_time,
        customer_name: reservations.customer_name,
      });
    if (marked.length === 0) return 0;
    const recipients = await tx
      .select({ id: customers.id, line_user_id: customers.line_user_id, name: customers.name, salonName: salons.name })
      .from(customers)
      .innerJoin(salons, eq(salons.id, customers.salon_id))
      .where(inArray(customers.id, [...new Set(marked.map((row) => row.customer_id))]));
    const byId = new Map(recipients.map((row) => [row.id, row]));
    const rows: NewNotification[] = [];
    for (const visit of marked) {
      const customer = byId.get(visit.customer_id);
      if (!customer?.line_user_id) continue;
      const messages = renderRebookingPromptLine(
        { ...visit, customer_name: customer.name.trim() || visit.customer_name },
        { salonName: customer.salonName, publicUrl, timeZone },
      );
      rows.push({
        salonId: visit.salon_id,
        reservationId: visit.id,
        kind: 'rebook_prompt',
        channel: 'line',
        recipient: customer.line_user_id,
        payload: { messages },
      });
    }
    await enqueueNotifications(tx, rows);
    return marked.length;
  });
}
