import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { adminAuthKeys } from '#src/lib/query-keys';
import type { AdminProfile, CalendarFeed } from '#src/shared/schemas/auth';

/** What the new URL shows: customers' phone numbers or not (absent: as the URL it replaces). */
export interface CalendarFeedChoice {
  include_phone?: boolean;
}

/**
 * POST /api/admin/me/calendar-feed/: a new secret calendar URL for the signed-in staff member. Never queued offline:
 * a replacement sent later would silently end the URL the staff member just registered.
 */
function regenerateCalendarFeed(choice: CalendarFeedChoice = {}) {
  return api.post<CalendarFeed>('/api/admin/me/calendar-feed/', choice, { offline: false });
}

/** Replaces the URL; the profile (GET /api/admin/me/, which carries it) shows the new one at once. */
export function useRegenerateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...adminAuthKeys.me(), 'calendar-feed'],
    mutationFn: (choice: CalendarFeedChoice = {}) => regenerateCalendarFeed(choice),
    onSuccess: (feed) =>
      queryClient.setQueryData<AdminProfile>(adminAuthKeys.me(), (profile) =>
        profile ? { ...profile, ...feed } : profile,
      ),
  });
}
