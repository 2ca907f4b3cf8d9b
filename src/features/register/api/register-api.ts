import { api } from '#src/lib/api-client';
import type { SalonSettings } from '#src/shared/schemas/settings';
import type { Checkout, Closing, Correction, Product } from '#src/shared/schemas/register';
import type { RefundLineRequest } from '#src/shared/money/refund';
import type { ReceiptLine } from '#src/shared/money/types';

/**
 * Fetchers of the register (docs/architecture.md#register-会計). What a checkout needs goes through the offline
 * layer (the draft, the settings, the catalogue: src/features/register/offline/offline.ts), and the checkout itself
 * through the outbox (offline/checkout-change.ts). The rest (corrections, closings, the day's list, receipts from the
 * server) is online only: it bypasses the offline layer, so it is either taken by the server or refused on screen.
 */
const ONLINE = { offline: false } as const;

interface CheckoutDraft {
  reservation_number: string;
  customer_id: number;
  staff_id: number;
  lines: ReceiptLine[];
}

export function fetchCheckoutDraft(reservationNumber: string, signal?: AbortSignal) {
  return api.get<CheckoutDraft>(`/api/admin/reservations/${encodeURIComponent(reservationNumber)}/checkout-draft/`, {
    signal,
  });
}

/** The salon's tax rounding and 釣り銭準備金 come with the settings, which every staff member may read. */
export function fetchRegisterSettings(signal?: AbortSignal) {
  return api.get<SalonSettings>('/api/admin/settings/', { signal });
}

export function fetchProducts(signal?: AbortSignal) {
  return api.get<Product[]>('/api/admin/products/', { signal });
}

export type ProductInput = Omit<Product, 'id'>;

export function createProduct(input: ProductInput) {
  return api.post<Product>('/api/admin/products/', input, ONLINE);
}

export function updateProduct(id: number, input: Partial<ProductInput>) {
  return api.patch<Product>(`/api/admin/products/${id}/`, input, ONLINE);
}

/** Retires the product: it leaves the catalogue, receipts that sold it keep its line. */
export function retireProduct(id: number) {
  return api.delete<void>(`/api/admin/products/${id}/`, ONLINE);
}

export function fetchCheckouts(date: string, signal?: AbortSignal) {
  return api.get<Checkout[]>('/api/admin/checkouts/', { ...ONLINE, query: { date }, signal });
}

export function voidCheckout(id: number, reason: string) {
  return api.post<Correction>(`/api/admin/checkouts/${id}/void/`, { reason }, ONLINE);
}

/** Gives back the named lines, or everything not yet refunded (the server's default when none are named). */
export function refundCheckout(id: number, reason: string, lines?: RefundLineRequest[]) {
  return api.post<Correction>(`/api/admin/checkouts/${id}/refund/`, { reason, ...(lines ? { lines } : {}) }, ONLINE);
}

export interface ReceiptOptions {
  proviso: string;
  withName: boolean;
}

/** The printable receipt's HTML, fetched with the staff token (a new tab would carry none). */
export function fetchReceiptHtml(id: number, options: ReceiptOptions) {
  return api.get<string>(`/api/admin/checkouts/${id}/receipt/`, {
    ...ONLINE,
    headers: { Accept: 'text/html' },
    query: { proviso: options.proviso.trim() || undefined, name: options.withName ? '1' : undefined },
  });
}

export function fetchClosings(from: string, to: string, signal?: AbortSignal) {
  return api.get<Closing[]>('/api/admin/register-closings/', { ...ONLINE, query: { from, to }, signal });
}

export function closeRegister(input: { date: string; counted_cash: number; memo: string }) {
  return api.post<Closing>('/api/admin/register-closings/', input, ONLINE);
}

/**
 * The customer's name for the checkout's heading, and whether a receipt can reach them by e-mail or LINE (the
 * customers feature's own fetchers stay its own).
 */
export function fetchCustomerName(id: number, signal?: AbortSignal) {
  // The reach is optional here: without it the screen offers both ways and lets the server say which is missing.
  return api.get<{ id: number; name: string; email?: string; is_line_linked?: boolean }>(
    `/api/admin/customers/${id}/`,
    { signal },
  );
}

export type ReceiptChannel = 'email' | 'line';

/** Queues the receipt to the checkout's customer (202); 409 with the reason when they have no such address. */
export function sendReceipt(id: number, channel: ReceiptChannel) {
  return api.post<{ channel: ReceiptChannel; to: string }>(
    `/api/admin/checkouts/${id}/send-receipt/`,
    { channel },
    ONLINE,
  );
}
