import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { waitlistKeys } from '#src/lib/query-keys';
import type { WaitlistEntry } from '#src/shared/schemas/waitlist';

/** GET /api/waitlist/: the signed-in customer's waiting キャンセル待ち, soonest day first. */
export const myWaitlistQuery = () =>
  queryOptions({
    queryKey: waitlistKeys.mine(),
    queryFn: ({ signal }) => api.get<WaitlistEntry[]>('/api/waitlist/', { signal, auth: 'customer' }),
    staleTime: 0,
  });

/** DELETE /api/waitlist/{id}/: 取り消す. */
export function withdrawWaitlistEntry(id: number): Promise<unknown> {
  return api.delete(`/api/waitlist/${id}/`, { auth: 'customer' });
}
