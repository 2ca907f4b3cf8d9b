import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { PublicConfig } from '../shared/schemas/config';
import { api } from './api-client';

/**
 * GET /api/config/ (docs/architecture.md#operating-contract): salon name and LINE login settings, read at run time so that one build serves
 * every deployment. Used by several features, so it lives here rather than in one of them.
 */
const publicConfigQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: ({ signal }) => api.get<PublicConfig>('/api/config/', { signal }),
  staleTime: 10 * 60_000,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}

/**
 * Asks for the config while the page's first modules load (src/main.tsx), so that the first render has it: every
 * first screen reads it, and fetching it only once mounted cost a loading state and a second render of the page.
 */
export function prefetchPublicConfig(client: QueryClient): void {
  void client.prefetchQuery(publicConfigQuery);
}
