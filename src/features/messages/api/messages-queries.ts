import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  fetchLineHistory,
  normalizeHistoryFilters,
  sendBulkMessage,
  sendReply,
  type BulkMessage,
  type HistoryFilters,
} from './messages-api';
import { messageKeys } from '#src/lib/query-keys';

const lineHistoryQuery = (filters: HistoryFilters) =>
  queryOptions({
    queryKey: messageKeys.list(normalizeHistoryFilters(filters)),
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

/** A reply in one customer's thread; the history is read again so that it shows up at the end. */
export function useSendReply(customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...messageKeys.all, 'reply', customerId],
    mutationFn: (text: string) => sendReply(customerId, text),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
}
