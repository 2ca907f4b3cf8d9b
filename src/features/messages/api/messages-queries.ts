import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchLineHistory,
  normalizeHistoryFilters,
  sendBulkMessage,
  type BulkMessage,
  type HistoryFilters,
} from './messages-api';

/**
 * Query keys of the message history. The root 'line-history' is also invalidated by the customers feature
 * after a message is sent there (features do not import each other).
 */
export const messageKeys = {
  all: ['line-history'] as const,
  list: (filters: HistoryFilters) => [...messageKeys.all, normalizeHistoryFilters(filters)] as const,
};

export const lineHistoryQuery = (filters: HistoryFilters) =>
  queryOptions({
    queryKey: messageKeys.list(filters),
    queryFn: ({ signal }) => fetchLineHistory(filters, signal),
  });

export function useLineHistory(filters: HistoryFilters) {
  return useQuery(lineHistoryQuery(filters));
}

export function useSendBulkMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...messageKeys.all, 'bulk-send'],
    mutationFn: (message: BulkMessage) => sendBulkMessage(message),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
}
