/**
 * The Japanese texts of every notification. Pure functions of a reservation snapshot: the same input always
 * gives the same text, so queued texts (rendered in the booking transaction) and reminders (rendered when
 * sent) read alike.
 */
import { formatDateTimeJa, formatYen } from '../../src/shared/format';
import { instantToLocalDateTime } from '../../src/shared/time';
import type { EmailPayload, LineMessage } from './outbox';

export interface ReservationSnapshot {
  reservation_number: string;
  service_name: string;
  /** Yen. */
  price: number;
  start_time: Date;
  customer_name: string;
}

export interface RenderContext {
  salonName: string;
  /** The app's public origin, e.g. https://salon.example.com (a trailing slash is ignored). */
  publicUrl: string;
  timeZone: string;
}

export type CustomerTemplate = 'accepted' | 'confirmed' | 'cancelled' | 'reminder' | 'latest';
export type StaffTemplate = 'new' | 'cancelled';

/** The customer's detail page (SPEC.md: /reservations/{reservationNumber}). */
export function reservationUrl(publicUrl: string, reservationNumber: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/reservations/${reservationNumber}`;
}

/** The staff detail page (SPEC.md: /admin/reservations/{reservationNumber}). */
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

function detailLines(reservation: ReservationSnapshot, context: RenderContext): string[] {
  return [
    `予約番号: ${reservation.reservation_number}`,
    `日時: ${formatDateTimeJa(instantToLocalDateTime(reservation.start_time, context.timeZone))}`,
    `メニュー: ${reservation.service_name}`,
    `料金: ${formatYen(reservation.price)}`,
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
  const url = reservationUrl(context.publicUrl, reservation.reservation_number);
  const text = [
    `${reservation.customer_name} 様`,
    '',
    `${context.salonName}をご利用いただきありがとうございます。`,
    texts.lead,
    '',
    ...detailLines(reservation, context),
    '',
    template === 'cancelled' ? 'ご予約の内容はこちらでご確認いただけます:' : 'ご予約の確認・キャンセルはこちらから:',
    url,
    '',
    'ご予約の確認には予約番号が必要です。このメールは大切に保管してください。',
    '※このメールは送信専用です。ご返信いただいてもお答えできません。',
    '',
    context.salonName,
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
  const text = [
    `【${context.salonName}】`,
    `${reservation.customer_name} 様`,
    texts.lineTitle,
    '',
    ...detailLines(reservation, context),
    '',
    `詳細: ${reservationUrl(context.publicUrl, reservation.reservation_number)}`,
  ].join('\n');
  return [{ type: 'text', text }];
}

export function renderStaffLine(
  template: StaffTemplate,
  reservation: ReservationSnapshot,
  context: RenderContext,
): LineMessage[] {
  const title = template === 'new' ? '【新しいご予約】' : '【ご予約のキャンセル】';
  const text = [
    title,
    `お客様: ${reservation.customer_name} 様`,
    ...detailLines(reservation, context),
    '',
    `詳細: ${adminReservationUrl(context.publicUrl, reservation.reservation_number)}`,
  ].join('\n');
  return [{ type: 'text', text }];
}

/** The check page's answer when the customer has nothing upcoming (SPEC.md §2 check pages). */
export function renderNoReservationLine(context: RenderContext): LineMessage[] {
  return [
    {
      type: 'text',
      text: `【${context.salonName}】\n現在、今後のご予約は見つかりませんでした。\nご予約はこちらから: ${context.publicUrl.replace(/\/+$/, '')}/reserve`,
    },
  ];
}
