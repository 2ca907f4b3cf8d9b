import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { sendOrQueue } from '#src/lib/outbox';
import { customerKeys, reservationAdminKeys } from '#src/lib/query-keys';
import { visitNoteChange, visitPhotoChange } from './karte-changes';
import type { CustomerVisit, Karte, VisitPhoto } from '#src/shared/schemas/karte';

/** カルテ (server/features/karte): a visit's note and photos for staff, reference images for customers. */

const karteUrl = (reservationNumber: string) => `/api/admin/reservations/${encodeURIComponent(reservationNumber)}`;

export function useKarte(reservationNumber: string) {
  return useQuery({
    queryKey: reservationAdminKeys.karte(reservationNumber),
    queryFn: ({ signal }) => api.get<Karte>(`${karteUrl(reservationNumber)}/karte/`, { signal }),
  });
}

/**
 * The note goes through the staff outbox like a customer's memo (docs/architecture.md#offline-design): saved at once
 * when possible, else kept on the device (`queued: true`) and sent when the connection is back.
 */
export function useSaveVisitNote(reservationNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) =>
      sendOrQueue<{ note: string; updated_at: string }>(visitNoteChange.of({ reservationNumber, note })),
    // Offline the call must run (and queue), not wait paused inside React Query.
    networkMode: 'always',
    onSuccess: (result) => {
      if (!result.queued)
        void queryClient.invalidateQueries({ queryKey: reservationAdminKeys.karte(reservationNumber) });
    },
  });
}

/**
 * A photo goes through the staff outbox (src/lib/outbox.ts): sent at once when online, else kept on the device with
 * its Idempotency-Key and uploaded once when the connection is back.
 */
export function useAddVisitPhoto(reservationNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      sendOrQueue<VisitPhoto>(
        visitPhotoChange.of({ reservationNumber, photo: file, fileName: file.name || 'photo.jpg' }),
      ),
    // Offline the call must run (and queue), not wait paused inside React Query.
    networkMode: 'always',
    // Not awaited: offline the refetch waits for the network, and the button must not spin until then.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: reservationAdminKeys.karte(reservationNumber) }),
  });
}

export function useDeleteVisitPhoto(reservationNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (photoId: number) => api.delete(`/api/admin/visit-photos/${photoId}/`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: reservationAdminKeys.karte(reservationNumber) }),
  });
}

export function useCustomerVisits(customerId: number) {
  return useQuery({
    queryKey: customerKeys.visits(customerId),
    queryFn: ({ signal }) => api.get<CustomerVisit[]>(`/api/admin/customers/${customerId}/visits/`, { signal }),
  });
}
