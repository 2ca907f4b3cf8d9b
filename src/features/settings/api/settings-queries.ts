import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchLineUsage, fetchSettings, updateSettings } from './settings-api';
import { settingsKeys } from '#src/lib/query-keys';

const settingsQuery = queryOptions({
  queryKey: settingsKeys.current(),
  queryFn: ({ signal }) => fetchSettings(signal),
});

export function useSettings() {
  return useQuery(settingsQuery);
}

export const lineUsageQuery = queryOptions({
  queryKey: settingsKeys.lineUsage(),
  queryFn: ({ signal }) => fetchLineUsage(signal),
});

export function useLineUsage() {
  return useQuery(lineUsageQuery);
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.current(), settings);
      // The public config carries the salon name and the booking rules the customer pages show.
      void queryClient.invalidateQueries({ queryKey: ['config'] });
      // The LINE usage answer carries the plan's limit.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.lineUsage() });
    },
  });
}
