import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchStatistics } from './statistics-api';
import { statisticsKeys } from '#src/lib/query-keys';

const statisticsQuery = () =>
  queryOptions({ queryKey: statisticsKeys.summary(), queryFn: ({ signal }) => fetchStatistics(signal) });

export function useStatistics() {
  return useQuery(statisticsQuery());
}
