import { api } from '#src/lib/api-client';
import type { Service, ServiceOption } from '#src/shared/schemas/booking';

/**
 * Fetchers of menu management (docs/screens.md#menu-management: GET/POST /api/services/, PATCH/DELETE /api/services/{id}/, and the
 * options under /api/services/{id}/options/). The
 * writes are staff calls outside /api/admin/, so they carry the admin token explicitly. No React here.
 */

export interface ServicePayload {
  name: string;
  price: number;
  duration_minutes: number;
  /** 再来店のご案内（日数）; null: none. */
  rebook_cycle_days?: number | null;
}

/** docs/screens.md#menu-management: a non-array answer is treated as empty. */
export async function fetchMenu(signal?: AbortSignal): Promise<Service[]> {
  const answer = await api.get<unknown>('/api/services/', { signal });
  return Array.isArray(answer) ? (answer as Service[]) : [];
}

export function createService(payload: ServicePayload) {
  return api.post<Service>('/api/services/', payload, { auth: 'admin' });
}

export function updateService(id: number, payload: Partial<ServicePayload>) {
  return api.patch<Service>(`/api/services/${id}/`, payload, { auth: 'admin' });
}

export function deleteService(id: number) {
  return api.delete<void>(`/api/services/${id}/`, { auth: 'admin' });
}

/** An option (オプション) of a service: its own price and the minutes it adds (0 to 180, in steps of 5). */
export interface OptionPayload {
  name: string;
  price: number;
  duration_minutes: number;
}

export function createOption(serviceId: number, payload: OptionPayload) {
  return api.post<ServiceOption>(`/api/services/${serviceId}/options/`, payload, { auth: 'admin' });
}

export function updateOption(serviceId: number, optionId: number, payload: Partial<OptionPayload>) {
  return api.patch<ServiceOption>(`/api/services/${serviceId}/options/${optionId}/`, payload, { auth: 'admin' });
}

/** A soft delete on the server: reservations already made keep the option they were booked with. */
export function deleteOption(serviceId: number, optionId: number) {
  return api.delete<void>(`/api/services/${serviceId}/options/${optionId}/`, { auth: 'admin' });
}
