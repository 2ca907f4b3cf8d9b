import { api } from '#src/lib/api-client';
import type { CreateStaffRequest, PatchStaffRequest, StaffLineLink, StaffUser } from '#src/shared/schemas/staff';

/**
 * Fetchers of the staff screens (docs/screens.md#staff-list, superuser only). Answers are typed, not parsed, to keep zod out of
 * the admin entry; the server validates them against src/shared/schemas/staff.ts.
 */

export function fetchStaffList(signal?: AbortSignal) {
  return api.get<StaffUser[]>('/api/admin/users/', { signal });
}

export function fetchStaff(id: number, signal?: AbortSignal) {
  return api.get<StaffUser>(`/api/admin/users/${id}/`, { signal });
}

export function createStaff(payload: CreateStaffRequest) {
  return api.post<StaffUser>('/api/admin/users/', payload);
}

export function generateStaffLineLink(id: number) {
  return api.post<StaffLineLink>(`/api/admin/users/${id}/generate-line-link/`);
}

/** Superuser only. A new password or a deactivation ends every session of that staff member on the server. */
export function patchStaff(id: number, payload: PatchStaffRequest) {
  return api.patch<StaffUser>(`/api/admin/users/${id}/`, payload);
}

/** Owner only: the photo is cropped to a centred square and served by the app (server/features/staff/staff-picture.ts). */
export function uploadStaffPicture(id: number, photo: Blob, filename: string) {
  const form = new FormData();
  form.set('photo', photo, filename);
  return api.post<StaffUser>(`/api/admin/users/${id}/picture/`, form);
}
