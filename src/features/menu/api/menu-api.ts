import { api } from '#src/lib/api-client';
import type { Service } from '#src/shared/schemas/booking';
import type { SalonOption } from '#src/shared/schemas/menu';

/**
 * Fetchers of menu management (docs/screens.md#menu-management: GET/POST /api/services/, PATCH/DELETE
 * /api/services/{id}/, and the salon's options under /api/admin/options/). The service writes are staff calls outside
 * /api/admin/, so they carry the admin token explicitly. No React here.
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

/**
 * An option (オプション) of the salon: its own price, the minutes it adds (0 to 180, in steps of 5) and the menus
 * that allow it (一つのジェルオフを複数のメニューで). GET /api/services/ lists it under each of those menus.
 */
export interface SalonOptionPayload {
  name: string;
  price: number;
  duration_minutes: number;
  service_ids: number[];
}

/** docs/screens.md#menu-management: a non-array answer is treated as empty. */
export async function fetchSalonOptions(signal?: AbortSignal): Promise<SalonOption[]> {
  const answer = await api.get<unknown>('/api/admin/options/', { signal });
  return Array.isArray(answer) ? (answer as SalonOption[]) : [];
}

export function createSalonOption(payload: SalonOptionPayload) {
  return api.post<SalonOption>('/api/admin/options/', payload);
}

/** Name, price and time change for every menu that allows it; `service_ids` replaces that set. */
export function updateSalonOption(id: number, payload: Partial<SalonOptionPayload>) {
  return api.patch<SalonOption>(`/api/admin/options/${id}/`, payload);
}

/** A soft delete on the server: reservations already made keep the option they were booked with. */
export function deleteSalonOption(id: number) {
  return api.delete<void>(`/api/admin/options/${id}/`);
}
