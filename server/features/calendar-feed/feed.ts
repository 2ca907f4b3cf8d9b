/**
 * What a staff member's calendar feed says: one VEVENT per active booking, in the salon's zone. Pure (feed.test.ts);
 * calendar-feed.service.ts reads the rows and serves the text.
 */
import { RESERVATION_STATUS_LABELS } from '#src/shared/constants';
import { instantToLocalDateTime } from '#src/shared/time';
import { adminReservationUrl } from '../../outbox/templates';
import {
  escapeText,
  localDateTime,
  paramValue,
  utcDateTime,
  utcOffset,
  writeIcal,
  type IcalComponent,
  type IcalProperty,
} from './ical';

export interface FeedBooking {
  reservation_number: string;
  status: 'pending' | 'confirmed';
  start_time: Date;
  end_time: Date;
  updated_at: Date;
  service_name: string;
  options: Array<{ name: string }>;
  is_nominated: boolean;
  customer_name: string;
  customer_phone: string;
}

interface FeedInput {
  salonName: string;
  staffName: string;
  timeZone: string;
  publicUrl: string;
  now: Date;
  bookings: FeedBooking[];
}

const DAY_MS = 86_400_000;

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(instant: Date, timeZone: string): number {
  return Date.parse(`${instantToLocalDateTime(instant, timeZone)}Z`) - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The zone's one offset when it has no daylight saving time around the feed (every week from a year before now to
 * two years after, and every booking's own start and end), else null. A fixed offset can be described by a
 * one-rule VTIMEZONE; a zone with transitions is written in UTC instead, which every calendar reads correctly.
 */
export function fixedOffset(timeZone: string, now: Date, instants: Date[]): number | null {
  const samples = [...instants];
  for (let day = -365; day <= 730; day += 7) samples.push(new Date(now.getTime() + day * DAY_MS));
  const offsets = new Set(samples.map((instant) => offsetAt(instant, timeZone)));
  return offsets.size === 1 ? [...offsets][0]! : null;
}

function description(booking: FeedBooking, publicUrl: string): string {
  return [
    `メニュー: ${booking.service_name}`,
    booking.options.length > 0 ? `オプション: ${booking.options.map((option) => option.name).join('、')}` : null,
    `指名: ${booking.is_nominated ? 'あり' : 'なし'}`,
    booking.customer_phone ? `電話番号: ${booking.customer_phone}` : null,
    `ステータス: ${RESERVATION_STATUS_LABELS[booking.status]}`,
    `予約詳細: ${adminReservationUrl(publicUrl, booking.reservation_number)}`,
  ]
    .filter((line) => line !== null)
    .join('\n');
}

/** The whole `text/calendar` body. */
export function buildStaffCalendar(input: FeedInput): string {
  const host = new URL(input.publicUrl).hostname;
  const offset = fixedOffset(
    input.timeZone,
    input.now,
    input.bookings.flatMap((booking) => [booking.start_time, booking.end_time]),
  );
  const tzid = paramValue(input.timeZone);
  const when = (name: string, instant: Date): IcalProperty =>
    offset === null
      ? [name, utcDateTime(instant)]
      : [`${name};TZID=${tzid}`, localDateTime(instantToLocalDateTime(instant, input.timeZone))];

  const timezone: IcalComponent[] =
    offset === null
      ? []
      : [
          {
            name: 'VTIMEZONE',
            properties: [['TZID', input.timeZone]],
            components: [
              {
                name: 'STANDARD',
                properties: [
                  ['DTSTART', '19700101T000000'],
                  ['TZOFFSETFROM', utcOffset(offset)],
                  ['TZOFFSETTO', utcOffset(offset)],
                ],
              },
            ],
          },
        ];

  const events = input.bookings.map((booking): IcalComponent => ({
    name: 'VEVENT',
    properties: [
      ['UID', `${booking.reservation_number}@${host}`],
      ['DTSTAMP', utcDateTime(input.now)],
      ['LAST-MODIFIED', utcDateTime(booking.updated_at)],
      when('DTSTART', booking.start_time),
      when('DTEND', booking.end_time),
      ['SUMMARY', escapeText(`${booking.customer_name} 様 ${booking.service_name}`)],
      ['DESCRIPTION', escapeText(description(booking, input.publicUrl))],
      ['URL', adminReservationUrl(input.publicUrl, booking.reservation_number)],
      ['STATUS', booking.status === 'pending' ? 'TENTATIVE' : 'CONFIRMED'],
      ['TRANSP', 'OPAQUE'],
    ],
  }));

  return writeIcal({
    name: 'VCALENDAR',
    properties: [
      ['PRODID', '-//Nail Salon Booking//Staff Calendar//JA'],
      ['VERSION', '2.0'],
      ['CALSCALE', 'GREGORIAN'],
      ['METHOD', 'PUBLISH'],
      ['X-WR-CALNAME', escapeText(`${input.salonName} 予約（${input.staffName}）`)],
      ['X-WR-TIMEZONE', input.timeZone],
      // How often calendar apps should fetch again (Google decides for itself; Apple and Outlook follow these).
      ['REFRESH-INTERVAL;VALUE=DURATION', 'PT1H'],
      ['X-PUBLISHED-TTL', 'PT1H'],
    ],
    components: [...timezone, ...events],
  });
}
