import { api } from '#src/lib/api-client';
import type { AdminCustomer, CustomerLineLink } from '#src/shared/schemas/customers';
import type { LineMessageItem } from '#src/shared/schemas/messages';
import type { Reservation } from '#src/shared/schemas/reservations';

/**
 * Fetchers of the customer screens (docs/screens.md#customer-detail). Plain functions without React so that the offline
 * layer (docs/architecture.md#offline-design) can call them from its outbox as well. Answers are typed, not parsed: the admin entry must
 * stay small and the server validates its own answers against the same shared schemas.
 */

export interface CustomerFilters {
  name?: string;
  email?: string;
  phone_number?: string;
}

export const CUSTOMER_PAGE_SIZE = 100;

export function fetchCustomers(filters: CustomerFilters, offset: number, signal?: AbortSignal) {
  return api.get<AdminCustomer[]>('/api/admin/customers/', {
    query: { ...filters, limit: CUSTOMER_PAGE_SIZE, offset },
    signal,
  });
}

export function fetchCustomer(id: number, signal?: AbortSignal) {
  return api.get<AdminCustomer>(`/api/admin/customers/${id}/`, { signal });
}

export function fetchCustomerReservations(id: number, signal?: AbortSignal) {
  return api.get<Reservation[]>(`/api/admin/customers/${id}/reservations/`, { signal });
}

/** 再来店のご案内 on or off for this customer (server/outbox/rebooking.ts). */
export function patchCustomerRebookPrompts(id: number, enabled: boolean) {
  return api.patch<AdminCustomer>(`/api/admin/customers/${id}/`, { rebook_prompts_enabled: enabled });
}

export function generateCustomerLineLink(id: number) {
  return api.post<CustomerLineLink>(`/api/admin/customers/${id}/generate-line-link/`);
}

/** A superuser removes the customer's LINE link. Never queued offline: the superuser sees it done or refused. */
export function unlinkCustomerLine(id: number) {
  return api.delete<void>(`/api/admin/customers/${id}/line-link/`, { offline: false });
}

export interface OutgoingMessage {
  text: string;
  image: File | null;
}

/** Multipart with optional `text` and `image`; the client leaves the content type to the browser. */
export function sendCustomerMessage(id: number, { text, image }: OutgoingMessage) {
  const form = new FormData();
  if (text.trim()) form.append('text', text);
  if (image) form.append('image', image);
  return api.post<LineMessageItem>(`/api/admin/customers/${id}/send-message/`, form);
}
