import { api } from '#src/lib/api-client';
import type { BulkSendResponse, LineMessageItem } from '#src/shared/schemas/messages';

/**
 * Fetchers of the message history screens (docs/screens.md#message-history). Answers are typed, not parsed, to keep zod out of
 * the admin entry; the server validates them against src/shared/schemas/messages.ts.
 */

export interface HistoryFilters {
  customer_id?: number;
  query?: string;
  /** Salon-local `yyyy-MM-dd`, inclusive. */
  start_date?: string;
  end_date?: string;
}

/** Empty filter values are left out of the request (docs/screens.md#message-history). */
export function normalizeHistoryFilters(filters: HistoryFilters): HistoryFilters {
  const result: HistoryFilters = {};
  if (filters.customer_id) result.customer_id = filters.customer_id;
  const query = filters.query?.trim();
  if (query) result.query = query;
  if (filters.start_date) result.start_date = filters.start_date;
  if (filters.end_date) result.end_date = filters.end_date;
  return result;
}

export function fetchLineHistory(filters: HistoryFilters, signal?: AbortSignal) {
  return api.get<LineMessageItem[]>('/api/admin/line-history/', {
    query: { ...normalizeHistoryFilters(filters) },
    signal,
  });
}

export interface BulkMessage {
  text: string;
  image: File | null;
}

/** A text reply to one customer's thread (POST /api/admin/customers/{id}/send-message/, multipart like the send page). */
export function sendReply(customerId: number, text: string) {
  const form = new FormData();
  form.append('text', text);
  return api.post<LineMessageItem>(`/api/admin/customers/${customerId}/send-message/`, form);
}

/** Multipart with optional `text` and `image` to every LINE-linked customer in the caller's scope. */
export function sendBulkMessage({ text, image }: BulkMessage) {
  const form = new FormData();
  if (text.trim()) form.append('text', text);
  if (image) form.append('image', image);
  return api.post<BulkSendResponse>('/api/admin/send-bulk-message/', form);
}
