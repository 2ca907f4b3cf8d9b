/**
 * What an outbox row carries (outbox.ts stores it, the templates render it, the worker sends it): types only, so
 * that the modules that write, render and send payloads can share them without importing each other.
 */
import type { LineMessage } from '../integrations/line/messaging';

/** A rendered e-mail. */
export interface EmailPayload {
  subject: string;
  text: string;
}
/** A rendered LINE push. */
export interface LinePayload {
  messages: LineMessage[];
  /**
   * The same notice as the customer's e-mail, rendered with it: what goes out instead when the month's LINE
   * pushes are spent (line-budget.ts). Absent: the fallback e-mail is the messages' text.
   */
  email?: EmailPayload;
}
/**
 * A rendered LINE multicast: the same messages to every user id in `to` (at most 500), in one request with
 * the row's retry key. The row's recipient is then only a label (e.g. `broadcast:<id>:<batch>`).
 */
export interface MulticastPayload extends LinePayload {
  to: string[];
}
/** Rendered only when sent, from the reservation's state at that moment (reminders). */
export interface DeferredPayload {
  template: 'reminder';
}
/** What the service worker (sw/sw.ts) shows: JSON in the push message. */
export interface StaffPushMessage {
  title: string;
  body: string;
  /** Opened when the notification is tapped. */
  url: string;
  /** Same tag, same notification: a later notice about this reservation replaces the earlier one on the device. */
  tag: string;
}

/** A `webpush` row's payload: the notice and the staff member it is for (web-push.ts). */
export interface WebPushPayload extends StaffPushMessage {
  staff_id: number;
}
/**
 * A message of a booking's event that went (or was skipped), as stored after it (server/outbox/event-delivery.ts): not
 * its text, which the event renders again (the event row keeps the reservation as booked), but which message of
 * which event it was. Never sent again: such a row is never due.
 */
export interface SentFromEvent {
  sent_from_event: number;
  /** The message's place among the event's messages (reservationNotifications' order), 0-based. */
  message_index: number;
}
export type NotificationPayload =
  EmailPayload | LinePayload | MulticastPayload | DeferredPayload | WebPushPayload | SentFromEvent;
