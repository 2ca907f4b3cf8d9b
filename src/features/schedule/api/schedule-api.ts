import { api } from '#src/lib/api-client';
import type { Holiday, ScheduleDay, ShiftDay, ShiftTemplate } from '#src/shared/schemas/schedule';
import type { StaffUser } from '#src/shared/schemas/staff';

/** Fetchers of the opening-time screen (docs/screens.md#schedule: configured-dates, available-slots). No React. */

interface Slot {
  time: string;
  is_available: boolean;
}

export function fetchConfiguredDates(year: number, month: number, userId?: number, signal?: AbortSignal) {
  return api.get<string[]>('/api/admin/configured-dates/', { query: { year, month, user_id: userId }, signal });
}

export function fetchSlots(date: string, userId?: number, signal?: AbortSignal) {
  return api.get<Slot[]>('/api/admin/available-slots/', { query: { date, user_id: userId }, signal });
}

/** Replaces the staff member's open slots of that day with `times`: the day no longer follows the weekly shift. */
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

/** The weekly shift template (working weekdays only); a superuser names whose. */
export function fetchShifts(userId?: number, signal?: AbortSignal) {
  return api.get<ShiftTemplate>('/api/admin/shifts/', { query: { user_id: userId }, signal });
}

/** Replaces the whole template: a weekday left out is a day off. */
export function saveShifts(input: { days: ShiftDay[]; userId?: number }) {
  return api.put<ShiftTemplate>('/api/admin/shifts/', { days: input.days, user_id: input.userId });
}

/** How each day of the month is decided, for the calendar's colours. */
export function fetchScheduleDays(year: number, month: number, userId?: number, signal?: AbortSignal) {
  return api.get<ScheduleDay[]>('/api/admin/schedule-days/', { query: { year, month, user_id: userId }, signal });
}

/** The day set by hand follows the weekly shift again. */
export function revertDay(input: { date: string; userId?: number }) {
  return api.delete<unknown>('/api/admin/available-slots/', { query: { date: input.date, user_id: input.userId } });
}

export function fetchHolidays(year: number, month: number, signal?: AbortSignal) {
  return api.get<Holiday[]>('/api/admin/holidays/', { query: { year, month }, signal });
}

/** Superuser only: nobody works that day. */
export function addHoliday(input: { date: string; note: string }) {
  return api.post<Holiday>('/api/admin/holidays/', input);
}

export function deleteHoliday(date: string) {
  return api.delete<unknown>(`/api/admin/holidays/${encodeURIComponent(date)}/`);
}
