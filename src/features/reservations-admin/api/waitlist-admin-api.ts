import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { adminWaitlistKeys } from '#src/lib/query-keys';
import type { AdminWaitlistEntry } from '#src/shared/schemas/waitlist';

/** GET /api/admin/waitlist/?date=: a day's キャンセル待ち (scoped on the server like the reservations). */
export const adminWaitlistDayQuery = (date: string) =>
  queryOptions({
    queryKey: adminWaitlistKeys.day(date),
    queryFn: ({ signal }) => api.get<AdminWaitlistEntry[]>('/api/admin/waitlist/', { signal, query: { date } }),
    staleTime: 0,
  });
