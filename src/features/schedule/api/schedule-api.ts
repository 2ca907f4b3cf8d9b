import { api } from '#src/lib/api-client';
import type { StaffUser } from '#src/shared/schemas/staff';

/** Fetchers of the opening-time screen (docs/architecture.md#screens-and-texts admin data: configured-dates, available-slots). No React. */

export interface Slot {
  time: string;
  is_available: boolean;
}

export function fetchConfiguredDates(year: number, month: number, userId?: number, signal?: AbortSignal) {
  return api.get<string[]>('/api/admin/configured-dates/', { query: { year, month, user_id: userId }, signal });
}

export function fetchSlots(date: string, userId?: number, signal?: AbortSignal) {
  return api.get<Slot[]>('/api/admin/available-slots/', { query: { date, user_id: userId }, signal });
}

/** Replaces the staff member's open slots of that day with `times`. */
export function saveSlots(input: { date: string; times: string[]; userId?: number }) {
  return api.post<Slot[]>('/api/admin/available-slots/', {
    date: input.date,
    times: input.times,
    user_id: input.userId,
  });
}

/** Superusers choose whose schedule to edit. */
export function fetchStaffMembers(signal?: AbortSignal) {
  return api.get<StaffUser[]>('/api/admin/users/', { signal });
}
