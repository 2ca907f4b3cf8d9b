import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { adminAuthKeys } from '#src/lib/query-keys';
import type { AdminProfile, CalendarFeed } from '#src/shared/schemas/auth';

/**
 * POST /api/admin/me/calendar-feed/: a new secret calendar URL for the signed-in staff member. Never queued offline:
 * a replacement sent later would silently end the URL the staff member just registered.
 */
function regenerateCalendarFeed() {
  return api.post<CalendarFeed>('/api/admin/me/calendar-feed/', undefined, { offline: false });
}

/** Replaces the URL; the profile (GET /api/admin/me/, which carries it) shows the new one at once. */
export function useRegenerateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...adminAuthKeys.me(), 'calendar-feed'],
    mutationFn: regenerateCalendarFeed,
    onSuccess: ({ calendar_feed_url }) =>
      queryClient.setQueryData<AdminProfile>(adminAuthKeys.me(), (profile) =>
        profile ? { ...profile, calendar_feed_url } : profile,
      ),
  });
}
