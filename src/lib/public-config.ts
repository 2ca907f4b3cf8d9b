import { queryOptions, useQuery } from '@tanstack/react-query';
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
