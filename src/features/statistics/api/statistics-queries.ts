import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchStatistics } from './statistics-api';

export const statisticsKeys = {
  all: ['statistics'] as const,
  summary: () => [...statisticsKeys.all, 'summary'] as const,
};

export const statisticsQuery = () =>
  queryOptions({ queryKey: statisticsKeys.summary(), queryFn: ({ signal }) => fetchStatistics(signal) });

export function useStatistics() {
  return useQuery(statisticsQuery());
}
