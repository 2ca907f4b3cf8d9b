import { queryOptions } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { waitlistKeys } from '#src/lib/query-keys';
import type { WaitlistEntry } from '#src/shared/schemas/waitlist';

/** One of the customer's entries: the offer link (/reserve?waitlist=<id>) opens the wizard with its menu and day. */
export const waitlistEntryQuery = (id: number) =>
  queryOptions({
    queryKey: waitlistKeys.entry(id),
    queryFn: ({ signal }) => api.get<WaitlistEntry>(`/api/waitlist/${id}/`, { signal, auth: 'customer' }),
    staleTime: 30_000,
  });
