import type { OutboxEntry } from '#src/lib/db';
import { defineChange } from '#src/lib/outbox-changes';
import { usePendingChange, type PendingChange } from '#src/lib/outbox-hooks';
import { paths } from '#src/lib/paths';
import { RESERVATION_STATUS_LABELS } from '#src/shared/constants';
import { MESSAGES } from '#src/shared/messages';
import type { Karte } from '#src/shared/schemas/karte';
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

/** A visit's カルテ note, queueable like a customer's memo: the last note saved is the note (PUT replaces it). */
interface VisitNoteChange {
  reservationNumber: string;
  note: string;
}

// Apart from the photos: a note waiting does not hold back a photo, nor a photo the note.
const karteNoteTarget = (reservationNumber: string) => `karte-note:${reservationNumber}`;

export const visitNoteChange = defineChange<VisitNoteChange>({
  kind: 'visit-note',
  route: { method: 'PUT', path: '/api/admin/reservations/:reservationNumber/visit-note/' },
  stateRoute: { method: 'GET', path: '/api/admin/reservations/:reservationNumber/karte/' },
  params: ({ reservationNumber }) => ({ reservationNumber }),
  target: ({ reservationNumber }) => karteNoteTarget(reservationNumber),
  body: ({ note }) => ({ note }),
  // The local effect: the カルテ shows the note as it will be.
  keep: ({ reservationNumber, note }) => ({ reservationNumber, note }),
  describe: (entry) => {
    const server = entry.serverState as Karte | null | undefined;
    return {
      title: MESSAGES.karteNoteLabel,
      reference: String(entry.reservationNumber),
      link: paths.adminReservation(String(entry.reservationNumber)),
      mineLabel: 'この端末でのメモ',
      theirsLabel: 'サーバーのメモ',
      mine: typeof entry.note === 'string' ? entry.note : '',
      theirs: server?.note ?? '',
    };
  },
});

/** The note a visit will have once the waiting edit is sent. */
export function usePendingVisitNote(reservationNumber: string): PendingChange<string> {
  return usePendingChange(karteNoteTarget(reservationNumber), (entry) => entry.note as string | undefined);
}
