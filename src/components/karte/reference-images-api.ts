import { useQuery } from '@tanstack/react-query';
import { api } from '#src/lib/api-client';
import { newIdempotencyKey } from '#src/lib/idempotency-key';
import { reservationKeys } from '#src/lib/query-keys';
import type { VisitPhoto } from '#src/shared/schemas/karte';

/**
 * The customer side of カルテ: reference designs attached to a booking. Apart from karte-api.ts so that the customer
 * pages never load the staff outbox.
 */

/** What became of the reference images sent after a booking (shown on the complete page). */
export interface ReferenceImagesOutcome {
  sent: number;
  failed: number;
}

/**
 * The customer's reference images, sent one by one after the booking succeeded. Never throws: the booking stands
 * whatever happens here, and the outcome is only reported.
 */
export async function sendReferenceImages(
  reservationNumber: string,
  files: readonly File[],
): Promise<ReferenceImagesOutcome> {
  const outcome = { sent: 0, failed: 0 };
  for (const file of files) {
    const form = new FormData();
    form.set('photo', file, file.name || 'reference.jpg');
    try {
      await api.post(`/api/reservations/${encodeURIComponent(reservationNumber)}/photos/`, form, {
        headers: { 'Idempotency-Key': newIdempotencyKey() },
      });
      outcome.sent += 1;
    } catch {
      outcome.failed += 1;
    }
  }
  return outcome;
}

export function useReferencePhotos(reservationNumber: string, enabled = true) {
  return useQuery({
    queryKey: reservationKeys.photos(reservationNumber),
    queryFn: ({ signal }) =>
      api.get<VisitPhoto[]>(`/api/reservations/${encodeURIComponent(reservationNumber)}/photos/`, { signal }),
    enabled,
  });
}
