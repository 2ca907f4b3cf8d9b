import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { sendOrQueue } from '#src/lib/outbox';
import { customerNotesChange } from '../offline-changes';
import type { AdminCustomer } from '#src/shared/schemas/customers';
import {
  CUSTOMER_PAGE_SIZE,
  fetchCustomer,
  fetchCustomerReservations,
  fetchCustomers,
  generateCustomerLineLink,
  patchCustomerRebookPrompts,
  sendCustomerMessage,
  unlinkCustomerLine,
  type CustomerFilters,
  type OutgoingMessage,
} from './customers-api';
import { customerKeys } from '#src/lib/query-keys';

/** Empty filter values are left out, so "" and undefined share one cache entry. */
function normalizeFilters(filters: CustomerFilters): CustomerFilters {
  const result: CustomerFilters = {};
  for (const key of ['name', 'email', 'phone_number'] as const) {
    const value = filters[key]?.trim();
    if (value) result[key] = value;
  }
  return result;
}

/**
 * The message history's key root (src/features/messages). Features do not import each other, so the shared
 * prefix is spelled here: a sent message must show up in the history without a reload.
 */
const LINE_HISTORY_KEY_ROOT = ['line-history'] as const;

const customerListQuery = (filters: CustomerFilters) =>
  infiniteQueryOptions({
    queryKey: customerKeys.list(normalizeFilters(filters)),
    queryFn: ({ pageParam, signal }) => fetchCustomers(normalizeFilters(filters), pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastOffset) =>
      lastPage.length < CUSTOMER_PAGE_SIZE ? undefined : lastOffset + CUSTOMER_PAGE_SIZE,
  });

export function useCustomerList(filters: CustomerFilters) {
  // The old rows stay on screen while a new search runs instead of flashing a spinner.
  return useInfiniteQuery({ ...customerListQuery(filters), placeholderData: keepPreviousData });
}

const customerQuery = (id: number) =>
  queryOptions({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => fetchCustomer(id, signal) });

export function useCustomer(id: number) {
  return useQuery(customerQuery(id));
}

const customerReservationsQuery = (id: number) =>
  queryOptions({
    queryKey: customerKeys.reservations(id),
    queryFn: ({ signal }) => fetchCustomerReservations(id, signal),
  });

export function useCustomerReservations(id: number) {
  return useQuery(customerReservationsQuery(id));
}

function storeCustomer(queryClient: ReturnType<typeof useQueryClient>, customer: AdminCustomer) {
  queryClient.setQueryData(customerKeys.detail(customer.id), customer);
  void queryClient.invalidateQueries({ queryKey: customerKeys.lists() });
}

/**
 * The memo goes through the outbox (docs/architecture.md#offline-design): saved at once when possible, else kept on the device
 * (`queued: true`, shown as 未送信) and sent when the connection is back.
 */
export function useUpdateCustomerNotes(id: number, customerName?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.detail(id), 'notes'],
    mutationFn: (notes: string) =>
      sendOrQueue<AdminCustomer>(customerNotesChange.of({ customerId: id, notes, customerName })),
    networkMode: 'always',
    onSuccess: (result) => {
      if (!result.queued) storeCustomer(queryClient, result.data);
    },
  });
}

/** The 再来店のご案内 switch: online only (a setting, not a note worth queuing). */
export function useSetRebookPrompts(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.detail(id), 'rebook-prompts'],
    mutationFn: (enabled: boolean) => patchCustomerRebookPrompts(id, enabled),
    onSuccess: (customer) => storeCustomer(queryClient, customer),
  });
}

export function useGenerateCustomerLineLink(id: number) {
  return useMutation({
    mutationKey: [...customerKeys.detail(id), 'line-link'],
    mutationFn: () => generateCustomerLineLink(id),
  });
}

/** Removes the LINE link; the customer (detail and lists) is read again, now 未連携. */
export function useUnlinkCustomerLine(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.detail(id), 'line-unlink'],
    mutationFn: () => unlinkCustomerLine(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.all }),
  });
}

export function useSendCustomerMessage(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...customerKeys.detail(id), 'send-message'],
    mutationFn: (message: OutgoingMessage) => sendCustomerMessage(id, message),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LINE_HISTORY_KEY_ROOT }),
  });
}
