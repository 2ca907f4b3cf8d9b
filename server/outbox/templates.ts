/**
 * The Japanese texts of every notification. Pure functions of a reservation snapshot: the same input always
 * gives the same text, so queued texts (rendered in the booking transaction) and reminders (rendered when
 * sent) read alike.
 */
import { formatDateTimeJa, formatDateTimeRangeJa, formatYen } from '../../src/shared/format';
import { MESSAGES } from '../../src/shared/messages';
import { instantToLocalDateTime } from '../../src/shared/time';
import { linkCard } from './line-cards';
import type { LineMessage } from '../integrations/line/messaging';
import type { EmailPayload } from './payloads';

export interface ReservationSnapshot {
  reservation_number: string;
  service_name: string;
  /** Yen. */
  price: number;
  start_time: Date;
  /** The end (service, options and 指名 time); absent in snapshots stored before it was kept: the start alone. */
  end_time?: Date;
  customer_name: string;
  /** The short code a customer reads out on the phone (absent in snapshots stored before it existed). */
  reservation_code?: string;
  /** The secret of the e-mail link that opens this reservation without signing in (GET /api/reservations/{number}/by-link/). */
  link_secret?: string;
  /** The staff member serving it, and whether the customer named them (指名); absent: no 担当 line. */
  staff_name?: string;
  is_nominated?: boolean;
  /** The options booked (the reservation's snapshot); absent or empty: no オプション line. */
  options?: ReadonlyArray<{ name: string }>;
  /** Where a moved booking was before (rescheduled messages only). */
  previous_start_time?: Date;
  /** Who it was with before, when a move handed it to another staff member (rescheduled messages only). */
  previous_staff_name?: string;
  /** Held for the salon's approval by its no-show rule (server/scheduling/approval-rule.ts): staff are told so. */
  needs_approval?: boolean;
}

/** How customers reach the salon (the settings screen); '' = not given, that line is left out. */
export interface SalonContactLines {
  phone_number: string;
  address: string;
  map_url: string;
  opening_hours_text: string;
}

export interface RenderContext {
  salonName: string;
  /** Printed under the salon's name at the foot of every customer e-mail; absent: the name alone. */
  contact?: SalonContactLines;
  /** The app's public origin, e.g. https://salon.example.com (a trailing slash is ignored). */
  publicUrl: string;
  timeZone: string;
}

export type CustomerTemplate = 'accepted' | 'confirmed' | 'cancelled' | 'rescheduled' | 'reminder' | 'latest';
export type StaffTemplate = 'new' | 'cancelled' | 'rescheduled';

/** The button of every reservation card (customers and staff alike). */
export const RESERVATION_BUTTON_LABEL = '予約を確認する';

/** The customer's detail page (docs/screens.md#customer-reservation-detail: /reservations/{reservationNumber}). */
export function reservationUrl(publicUrl: string, reservationNumber: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/reservations/${reservationNumber}`;
}

/** The staff detail page (docs/screens.md#admin-reservation-detail: /admin/reservations/{reservationNumber}). */
export function adminReservationUrl(publicUrl: string, reservationNumber: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/admin/reservations/${reservationNumber}`;
}

const CUSTOMER_TEXTS: Record<CustomerTemplate, { subject: string; lead: string; lineTitle: string }> = {
  accepted: {
    subject: 'ご予約を受け付けました',
    lead: '以下の内容でご予約を受け付けました。サロンで内容を確認し、確定しましたら改めてご連絡いたします。',
    lineTitle: 'ご予約を受け付けました。確定しましたら改めてご連絡いたします。',
  },
  confirmed: {
    subject: 'ご予約が確定しました',
    lead: '以下のご予約が確定しました。ご来店を心よりお待ちしております。',
    lineTitle: 'ご予約が確定しました。ご来店をお待ちしております。',
  },
  rescheduled: {
    subject: 'ご予約日時の変更のお知らせ',
    lead: '以下のとおりご予約日時を変更しました。ご来店を心よりお待ちしております。',
    lineTitle: 'ご予約日時を変更しました。',
  },
  cancelled: {
    subject: 'ご予約がキャンセルされました',
    lead: '以下のご予約はキャンセルされました。またのご利用をお待ちしております。',
    lineTitle: 'ご予約がキャンセルされました。',
  },
  latest: {
    subject: 'ご予約内容のご案内',
    lead: 'ご予約内容をお知らせします。',
    lineTitle: 'ご予約内容をお知らせします。',
  },
  reminder: {
    subject: '明日のご予約のお知らせ',
    lead: '明日のご予約のお知らせです。ご来店を心よりお待ちしております。',
    lineTitle: '明日のご予約のお知らせです。ご来店をお待ちしております。',
  },
};

const STAFF_TITLES: Record<StaffTemplate, string> = {
  new: '【新しいご予約】',
  cancelled: '【ご予約のキャンセル】',
  rescheduled: '【ご予約の日時変更】',
};

/**
 * The reservation's lines. The customer's texts name who serves them (担当, with （指名） when they named them); the
 * staff member's own message does not need their name, except after a handover. A move shows the new time first,
 * then the old one.
 */
function detailLines(reservation: ReservationSnapshot, context: RenderContext, reader: 'customer' | 'staff'): string[] {
  const when = bookingTimeWriter(reservation, context.timeZone);
  const options = reservation.options?.map((option) => option.name) ?? [];
  const handedOver =
    reservation.previous_staff_name !== undefined && reservation.previous_staff_name !== reservation.staff_name;
  // Staff read who serves it only when a move handed it over (the one it was taken from is told too).
  const staff =
    reader === 'customer' && reservation.staff_name
      ? `${reservation.staff_name}${reservation.is_nominated ? '（指名）' : ''}`
      : reader === 'staff' && handedOver
        ? `${reservation.previous_staff_name} → ${reservation.staff_name ?? ''}`
        : undefined;
  return [
    `予約番号: ${reservation.reservation_number}`,
    ...(reservation.reservation_code ? [`予約コード: ${reservation.reservation_code}`] : []),
    reservation.previous_start_time
      ? `変更後の日時: ${when(reservation.start_time)}`
      : `日時: ${when(reservation.start_time)}`,
    ...(reservation.previous_start_time ? [`変更前の日時: ${when(reservation.previous_start_time)}`] : []),
    `メニュー: ${reservation.service_name}`,
    ...(options.length > 0 ? [`オプション: ${options.join('、')}`] : []),
    ...(staff ? [`担当: ${staff}`] : []),
    `料金: ${formatYen(reservation.price)}`,
  ];
}

/**
 * Writes a start of this booking with its end ("2026年12月2日(水) 14:00〜16:00"). A move keeps the booking's length,
 * so the time before a move ends as long after its start as the new one does.
 */
export function bookingTimeWriter(reservation: ReservationSnapshot, timeZone: string): (start: Date) => string {
  const local = (instant: Date) => instantToLocalDateTime(instant, timeZone);
  const end = reservation.end_time;
  if (!end) return (start) => formatDateTimeJa(local(start));
  const length = end.getTime() - reservation.start_time.getTime();
  return (start) => formatDateTimeRangeJa(local(start), local(new Date(start.getTime() + length)));
}

/** The e-mail's signature: the salon's name, then each contact detail it has. */
function signatureLines(context: RenderContext): string[] {
  const contact = context.contact;
  const line = (label: string, value: string | undefined) => (value?.trim() ? [`${label}: ${oneLine(value)}`] : []);
  return [
    context.salonName,
    ...line('電話', contact?.phone_number),
    ...line('住所', contact?.address),
    ...line('地図', contact?.map_url),
    ...line('営業時間', contact?.opening_hours_text),
  ];
}

/** Header values never carry line breaks, whatever a salon name contains. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

export function renderCustomerEmail(
  template: CustomerTemplate,
  reservation: ReservationSnapshot,
  context: RenderContext,
): EmailPayload {
  const texts = CUSTOMER_TEXTS[template];
  // The e-mail's link opens the reservation without LINE (a front-desk customer has none linked to it).
  const url = reservation.link_secret
    ? `${reservationUrl(context.publicUrl, reservation.reservation_number)}?t=${reservation.link_secret}`
    : reservationUrl(context.publicUrl, reservation.reservation_number);
  const text = [
    `${reservation.customer_name} 様`,
    '',
    `${context.salonName}をご利用いただきありがとうございます。`,
    texts.lead,
    '',
    ...detailLines(reservation, context, 'customer'),
    '',
    template === 'cancelled' ? 'ご予約の内容はこちらでご確認いただけます:' : 'ご予約の確認・キャンセルはこちらから:',
    url,
    '',
    'ご予約の確認には予約番号が必要です。このメールは大切に保管してください。',
    context.contact?.phone_number.trim()
      ? '※このメールは送信専用です。ご返信いただいてもお答えできません。お問い合わせはお電話でどうぞ。'
      : '※このメールは送信専用です。ご返信いただいてもお答えできません。',
    '',
    ...signatureLines(context),
    '',
  ].join('\n');
  return { subject: oneLine(`【${context.salonName}】${texts.subject}`), text };
}

export function renderCustomerLine(
  template: CustomerTemplate,
  reservation: ReservationSnapshot,
  context: RenderContext,
): LineMessage[] {
  const texts = CUSTOMER_TEXTS[template];
  const url = reservationUrl(context.publicUrl, reservation.reservation_number);
  const details = detailLines(reservation, context, 'customer');
  const text = [
    `【${context.salonName}】`,
    `${reservation.customer_name} 様`,
    texts.lineTitle,
    '',
    ...details,
    '',
    `詳細: ${url}`,
  ].join('\n');
  return [
    linkCard({
      altText: text,
      title: `【${context.salonName}】`,
      lines: [`${reservation.customer_name} 様`, texts.lineTitle, '', ...details],
      button: { label: RESERVATION_BUTTON_LABEL, url },
    }),
  ];
}

/** A new booking the no-show rule held back: the staff member is the one who confirms it (staff messages). */
export function approvalLine(template: StaffTemplate, reservation: ReservationSnapshot): string[] {
  return template === 'new' && reservation.needs_approval ? [STAFF_APPROVAL_LINE] : [];
}

export const STAFF_APPROVAL_LINE = `${MESSAGES.needsApproval}: 詳細から確定してください`;

export function renderStaffLine(
  template: StaffTemplate,
  reservation: ReservationSnapshot,
  context: RenderContext,
): LineMessage[] {
  const url = adminReservationUrl(context.publicUrl, reservation.reservation_number);
  const lines = [
    `お客様: ${reservation.customer_name} 様`,
    ...approvalLine(template, reservation),
    ...detailLines(reservation, context, 'staff'),
  ];
  const text = [STAFF_TITLES[template], ...lines, '', `詳細: ${url}`].join('\n');
  return [
    linkCard({
      altText: text,
      title: STAFF_TITLES[template],
      lines,
      button: { label: RESERVATION_BUTTON_LABEL, url },
    }),
  ];
}

/**
 * The check page's answer when the customer has nothing upcoming (docs/screens.md#check-reservation
 * pages): a card like every other reservation message, whose button opens the booking screen.
 */
export function renderNoReservationLine(context: RenderContext): LineMessage[] {
  const url = `${context.publicUrl.replace(/\/+$/, '')}/reserve`;
  const title = `【${context.salonName}】`;
  const line = '現在、今後のご予約は見つかりませんでした。';
  return [
    linkCard({
      altText: [title, line, `ご予約はこちらから: ${url}`].join('\n'),
      title,
      lines: [line],
      button: { label: BOOK_BUTTON_LABEL, url },
    }),
  ];
}

/** The button of the "no reservation" card. */
export const BOOK_BUTTON_LABEL = 'ご予約はこちら';
