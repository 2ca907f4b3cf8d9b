import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendOrQueue } from '#src/lib/outbox';
import type { RefundLineRequest } from '#src/shared/money/refund';
import type { QueuedChange } from '#src/lib/outbox-changes';
import type { Checkout } from '#src/shared/schemas/register';
import { REGISTER_DRAFT_ROOT, REGISTER_ROOT } from '../offline/offline';
import {
  closeRegister,
  createProduct,
  fetchCheckoutDraft,
  fetchCheckouts,
  fetchClosings,
  fetchCustomerName,
  fetchProducts,
  fetchRegisterSettings,
  refundCheckout,
  retireProduct,
  sendReceipt,
  updateProduct,
  voidCheckout,
  type ProductInput,
  type ReceiptChannel,
} from './register-api';

const registerKeys = {
  all: [REGISTER_ROOT] as const,
  draft: (reservationNumber: string) => [REGISTER_DRAFT_ROOT, reservationNumber] as const,
  settings: () => ['register', 'settings'] as const,
  products: () => ['register', 'products'] as const,
  checkouts: (date: string) => ['register', 'checkouts', date] as const,
  closings: (from: string, to: string) => ['register', 'closings', from, to] as const,
};

export function useCheckoutDraft(reservationNumber: string | undefined) {
  return useQuery({
    queryKey: registerKeys.draft(reservationNumber ?? ''),
    queryFn: ({ signal }) => fetchCheckoutDraft(reservationNumber ?? '', signal),
    enabled: Boolean(reservationNumber),
  });
}

export function useRegisterSettings() {
  return useQuery({ queryKey: registerKeys.settings(), queryFn: ({ signal }) => fetchRegisterSettings(signal) });
}

export function useProducts() {
  return useQuery({ queryKey: registerKeys.products(), queryFn: ({ signal }) => fetchProducts(signal) });
}

export function useCheckouts(date: string) {
  return useQuery({ queryKey: registerKeys.checkouts(date), queryFn: ({ signal }) => fetchCheckouts(date, signal) });
}

export function useClosings(from: string, to: string) {
  return useQuery({
    queryKey: registerKeys.closings(from, to),
    queryFn: ({ signal }) => fetchClosings(from, to, signal),
  });
}

/** Every register answer is stale after a change (the day's list, the closing's totals, the catalogue). */
function useRegisterMutation<A, R>(run: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: registerKeys.all }),
  });
}

/** A checkout through the outbox: taken by the server now, or kept on the device (未送信) and sent once later. */
export function useRecordCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: QueuedChange) => sendOrQueue<Checkout>(change),
    // Runs offline too: the outbox decides whether it is sent now or kept (React Query would pause it).
    networkMode: 'always',
    onSuccess: () => queryClient.invalidateQueries({ queryKey: registerKeys.all }),
  });
}
export const useVoidCheckout = () =>
  useRegisterMutation(({ id, reason }: { id: number; reason: string }) => voidCheckout(id, reason));
export const useRefundCheckout = () =>
  useRegisterMutation(({ id, reason, lines }: { id: number; reason: string; lines?: RefundLineRequest[] }) =>
    refundCheckout(id, reason, lines),
  );
export const useCloseRegister = () => useRegisterMutation(closeRegister);
export const useSaveProduct = () =>
  useRegisterMutation(({ id, input }: { id: number | null; input: ProductInput }) =>
    id === null ? createProduct(input) : updateProduct(id, input),
  );
export const useRetireProduct = () => useRegisterMutation(retireProduct);

const customerQuery = (id: number | undefined) => ({
  queryKey: ['register', 'customer', id ?? 0] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchCustomerName(id ?? 0, signal),
  enabled: id !== undefined,
});

export function useCustomerName(id: number | undefined) {
  return useQuery({ ...customerQuery(id), select: (customer) => customer.name });
}

/** Whether the customer has an e-mail address and a linked LINE account (the same answer as their name). */
export function useCustomerReach(id: number | undefined) {
  return useQuery({
    ...customerQuery(id),
    select: (customer) => ({
      email: customer.email === undefined ? undefined : customer.email.trim() !== '',
      line: customer.is_line_linked,
    }),
  });
}

/** Sends the receipt; nothing on screen goes stale (the outbox's row is not shown here). */
export function useSendReceipt() {
  return useMutation({
    mutationFn: ({ id, channel }: { id: number; channel: ReceiptChannel }) => sendReceipt(id, channel),
  });
}
