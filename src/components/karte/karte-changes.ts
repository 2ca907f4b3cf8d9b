import type { OutboxEntry } from '#src/lib/db';
import { defineChange } from '#src/lib/outbox-changes';
import { paths } from '#src/lib/paths';
import { RESERVATION_STATUS_LABELS } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';

/** A カルテ photo, queueable: sent as multipart; the server records its Idempotency-Key on the photo, so a replay stores one. */
interface VisitPhotoChange {
  reservationNumber: string;
  photo: Blob;
  fileName: string;
}

/** A photo as the outbox keeps it: its bytes (an ArrayBuffer clones everywhere IndexedDB runs), type and name. */
interface KeptPhoto {
  bytes: ArrayBuffer;
  type: string;
  name: string;
}

/** Blob.arrayBuffer() where it exists; FileReader elsewhere (older Safari, jsdom). */
function bytesOf(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

export const keptPhotoOf = (entry: OutboxEntry) => entry.photo as KeptPhoto | undefined;

// Photos wait apart from the reservation's status changes: neither holds the other back.
export const karteTarget = (reservationNumber: string) => `karte:${reservationNumber}`;

export const visitPhotoChange = defineChange<VisitPhotoChange>({
  kind: 'visit-photo',
  route: { method: 'POST', path: '/api/admin/reservations/:reservationNumber/photos/' },
  stateRoute: { method: 'GET', path: '/api/admin/reservations/:reservationNumber/' },
  params: ({ reservationNumber }) => ({ reservationNumber }),
  target: ({ reservationNumber }) => karteTarget(reservationNumber),
  keep: async ({ reservationNumber, photo, fileName }) => ({
    reservationNumber,
    photo: { bytes: await bytesOf(photo), type: photo.type || 'image/jpeg', name: fileName } satisfies KeptPhoto,
  }),
  // The multipart body, rebuilt on every attempt (a FormData cannot be kept in IndexedDB).
  form: (entry) => {
    const photo = keptPhotoOf(entry)!;
    const form = new FormData();
    form.set('photo', new Blob([photo.bytes], { type: photo.type }), photo.name);
    return form;
  },
  describe: (entry) => {
    const server = entry.serverState as Reservation | null | undefined;
    return {
      title: server ? `予約 ${server.customer_name} 様` : '予約',
      reference: String(entry.reservationNumber),
      link: paths.adminReservation(String(entry.reservationNumber)),
      mineLabel: 'この端末での変更',
      theirsLabel: 'サーバーの状態',
      mine: MESSAGES.karteAddPhoto,
      theirs: server ? RESERVATION_STATUS_LABELS[server.status] : '',
    };
  },
});
