/**
 * The Japanese texts of the Web Push notices staff get on their devices (web-push.ts sends them). A notification
 * shows a title and a few short lines, so the body is one line per fact, with the details a tap away: the url is
 * the staff detail page of the reservation.
 */
import {
  adminReservationUrl,
  approvalLine,
  bookingTimeWriter,
  type RenderContext,
  type ReservationSnapshot,
  type StaffTemplate,
} from './templates';
import type { StaffPushMessage } from './payloads';

const PUSH_TITLES: Record<StaffTemplate, string> = {
  new: '新しいご予約',
  cancelled: 'ご予約のキャンセル',
  rescheduled: 'ご予約の日時変更',
};

export function renderStaffPush(
  template: StaffTemplate,
  reservation: ReservationSnapshot,
  context: RenderContext,
): StaffPushMessage {
  const when = bookingTimeWriter(reservation, context.timeZone);
  const handedOver =
    reservation.previous_staff_name !== undefined && reservation.previous_staff_name !== reservation.staff_name;
  const lines = [
    reservation.previous_start_time
      ? `${when(reservation.start_time)}（変更前: ${when(reservation.previous_start_time)}）`
      : when(reservation.start_time),
    `${reservation.service_name} / ${reservation.customer_name} 様`,
    ...approvalLine(template, reservation),
    ...(handedOver ? [`担当: ${reservation.previous_staff_name} → ${reservation.staff_name ?? ''}`] : []),
  ];
  return {
    title: PUSH_TITLES[template],
    body: lines.join('\n'),
    url: adminReservationUrl(context.publicUrl, reservation.reservation_number),
    tag: `reservation-${reservation.reservation_number}`,
  };
}
