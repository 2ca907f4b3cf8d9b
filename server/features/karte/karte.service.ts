/**
 * カルテ: a completed visit's note and photos (staff), and the reference designs a customer attaches to a booking.
 * Photos go through the same safety as message images (server/integrations/storage/media-store.ts: type sniffed
 * from the bytes, decoded and re-encoded, random names, atomic writes) but into a private folder, and are only
 * reachable through signed URLs handed to staff in scope and to the reservation's own customer.
 *
 * An upload may come from the staff app's offline outbox, replayed with the Idempotency-Key it was queued with.
 * The generic idempotency plugin cannot hash a streamed multipart body, so the key is recorded on the photo row
 * itself (unique index): a replay finds that row and gets the same answer, and of two concurrent requests with
 * one key a single row survives.
 */
import { MESSAGES } from '#src/shared/messages';
import { instantToZonedIso } from '#src/shared/time';
import {
  REFERENCE_PHOTO_LIMIT,
  VISIT_PHOTO_LIMIT,
  type CustomerVisit,
  type Karte,
  type VisitPhoto,
} from '#src/shared/schemas/karte';
import type { Database } from '../../db/client';
import { findCustomerForStaff, ownBookingsOnly, reachesBookingOf } from '../../db/scope';
import { ApiHttpError, conflict, notFound } from '../../http-errors';
import type { PhotoUrlSigner, PhotoVariant } from '../../integrations/storage/karte-photos';
import { MediaRejectedError, type MediaStore } from '../../integrations/storage/media-store';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './karte.repository';

export interface KarteServiceDeps {
  db: Database;
  salonId: number;
  timeZone: string;
  now: () => Date;
  /** The private karte folder (never the public /media one). */
  photos: MediaStore;
  urls: PhotoUrlSigner;
}

/** Who uploads: staff add visit photos to a completed visit, a customer adds references to an open booking. */
type Uploader = { staff: StaffPrincipal } | { customerId: number };

const VISITS_SHOWN = 50;

export function createKarteService(deps: KarteServiceDeps) {
  const { db, salonId, timeZone, now, photos, urls } = deps;

  const present = (row: repo.VisitPhotoRow): VisitPhoto => ({
    id: row.id,
    kind: row.kind,
    url: urls.urlFor(row.id, 'full'),
    thumbnail_url: urls.urlFor(row.id, 'thumb'),
    uploaded_by: row.uploaded_by_staff_id === null ? 'customer' : 'staff',
    created_at: row.created_at.toISOString(),
  });

  /** Assigned to this staff member (or any, for the owner and the front desk); anything else is 404, as if it did not exist. */
  async function reservationForStaff(staff: StaffPrincipal, reservationNumber: string) {
    const row = await repo.findReservation(db, salonId, reservationNumber);
    if (!row || !reachesBookingOf(staff, row.staff_id)) throw notFound(MESSAGES.reservationNotFound);
    return row;
  }

  async function reservationForCustomer(customerId: number, reservationNumber: string) {
    const row = await repo.findReservation(db, salonId, reservationNumber);
    if (!row || row.customer_id !== customerId) throw notFound(MESSAGES.reservationNotFound);
    return row;
  }

  /** Refuses (409) an upload the reservation's status does not allow; checked again under the row lock. */
  function checkStatus(status: string, kind: repo.VisitPhotoRow['kind']) {
    if (kind === 'visit' && status !== 'completed') throw conflict(MESSAGES.visitNotCompleted, 'not_completed');
    if (kind === 'reference' && status !== 'pending' && status !== 'confirmed') {
      throw conflict(MESSAGES.referenceNotOpen, 'reservation_closed');
    }
  }

  /** The photo an earlier request with this key stored; 422 when that key was used for another reservation. */
  async function replayed(key: string | undefined, reservationId: number): Promise<VisitPhoto | null> {
    if (!key) return null;
    const row = await repo.findPhotoByKey(db, key);
    if (!row) return null;
    if (row.reservation_id !== reservationId) {
      throw new ApiHttpError(422, 'idempotency_key_reused', MESSAGES.idempotencyKeyReused);
    }
    return present(row);
  }

  async function store(
    uploader: Uploader,
    reservation: repo.KarteReservation,
    bytes: Buffer,
    idempotencyKey: string | undefined,
  ): Promise<{ photo: VisitPhoto; replayed: boolean }> {
    const kind = 'staff' in uploader ? 'visit' : 'reference';
    const earlier = await replayed(idempotencyKey, reservation.id);
    if (earlier) return { photo: earlier, replayed: true };
    checkStatus(reservation.status, kind);
    const limit = kind === 'visit' ? VISIT_PHOTO_LIMIT : REFERENCE_PHOTO_LIMIT;
    const limitMessage = kind === 'visit' ? MESSAGES.visitPhotoLimit(limit) : MESSAGES.referencePhotoLimit(limit);
    // Cheap refusal before decoding anything; the transaction below decides for real.
    if ((await repo.countPhotos(db, reservation.id, kind)) >= limit) throw conflict(limitMessage, 'photo_limit');

    let stored;
    try {
      stored = await photos.saveImage(bytes);
    } catch (error) {
      if (!(error instanceof MediaRejectedError)) throw error;
      const code =
        error.status === 413 ? 'file_too_large' : error.status === 415 ? 'unsupported_media_type' : 'invalid';
      throw new ApiHttpError(error.status, code, error.detail, { photo: [error.detail] });
    }
    try {
      const row = await db.transaction(async (tx) => {
        const locked = await repo.lockReservation(tx, reservation.id);
        if (!locked) throw notFound(MESSAGES.reservationNotFound);
        checkStatus(locked.status, kind);
        if ((await repo.countPhotos(tx, reservation.id, kind)) >= limit) throw conflict(limitMessage, 'photo_limit');
        return repo.insertPhoto(tx, {
          salon_id: salonId,
          reservation_id: reservation.id,
          customer_id: reservation.customer_id,
          kind,
          file_name: stored.name,
          uploaded_by_staff_id: 'staff' in uploader ? uploader.staff.id : null,
          idempotency_key: idempotencyKey ?? null,
          created_at: now(),
        });
      });
      if (row) return { photo: present(row), replayed: false };
    } catch (error) {
      await photos.remove(stored.name).catch(() => {});
      throw error;
    }
    // A concurrent request with the same key stored first: keep its photo, drop ours.
    await photos.remove(stored.name).catch(() => {});
    const winner = await replayed(idempotencyKey, reservation.id);
    if (!winner) throw new ApiHttpError(409, 'idempotency_in_flight', MESSAGES.idempotencyInFlight);
    return { photo: winner, replayed: true };
  }

  return {
    reservationForStaff,
    reservationForCustomer,

    async karte(staff: StaffPrincipal, reservationNumber: string): Promise<Karte> {
      const reservation = await reservationForStaff(staff, reservationNumber);
      const [note, rows] = await Promise.all([repo.findNote(db, reservation.id), repo.photosOf(db, [reservation.id])]);
      return {
        reservation_number: reservation.reservation_number,
        status: reservation.status,
        note: note?.note ?? '',
        note_updated_at: note ? note.updated_at.toISOString() : null,
        photos: rows.map(present),
      };
    },

    uploadAsStaff(staff: StaffPrincipal, reservation: repo.KarteReservation, bytes: Buffer, key?: string) {
      return store({ staff }, reservation, bytes, key);
    },

    uploadAsCustomer(customerId: number, reservation: repo.KarteReservation, bytes: Buffer, key?: string) {
      return store({ customerId }, reservation, bytes, key);
    },

    /** The customer sees the reference images they attached to their own reservation. */
    async customerPhotos(customerId: number, reservationNumber: string): Promise<VisitPhoto[]> {
      const reservation = await reservationForCustomer(customerId, reservationNumber);
      return (await repo.photosOf(db, [reservation.id], 'reference')).map(present);
    },

    async saveNote(staff: StaffPrincipal, reservationNumber: string, note: string) {
      const reservation = await reservationForStaff(staff, reservationNumber);
      checkStatus(reservation.status, 'visit');
      const saved = await repo.saveNote(db, {
        reservation_id: reservation.id,
        salon_id: salonId,
        note: note.trim(),
        updated_at: now(),
        updated_by_staff_id: staff.id,
      });
      return { note: saved.note, updated_at: saved.updated_at.toISOString() };
    },

    /** Deleted from the database first; the files go after the commit (a crash in between leaves an orphan the sweep removes). */
    async deletePhoto(staff: StaffPrincipal, photoId: number) {
      const found = await repo.findPhoto(db, salonId, photoId);
      if (!found || !reachesBookingOf(staff, found.staff_id)) throw notFound(MESSAGES.photoNotFound);
      const deleted = await repo.deletePhoto(db, photoId);
      if (!deleted) throw notFound(MESSAGES.photoNotFound);
      await photos.remove(deleted.file_name).catch(() => {});
    },

    /** Completed visits newest first; ordinary staff see their own visits of a customer in their scope. */
    async customerVisits(staff: StaffPrincipal, customerId: number): Promise<CustomerVisit[]> {
      if (!(await findCustomerForStaff(db, salonId, customerId, staff))) throw notFound(MESSAGES.customerNotFound);
      const visits = await repo.completedVisits(db, salonId, customerId, ownBookingsOnly(staff), VISITS_SHOWN);
      const rows = await repo.photosOf(
        db,
        visits.map((visit) => visit.id),
      );
      return visits.map((visit) => ({
        reservation_number: visit.reservation_number,
        start_time: instantToZonedIso(visit.start_time, timeZone),
        service_name: visit.service_name,
        staff_name: visit.staff_name,
        note: visit.note ?? '',
        photos: rows.filter((row) => row.reservation_id === visit.id).map(present),
      }));
    },

    /** The file behind a signed URL, or null (unknown photo, wrong or expired signature). */
    async photoFile(photoId: number, variant: PhotoVariant, expires: string, signature: string) {
      if (!urls.verify(photoId, variant, expires, signature)) return null;
      const found = await repo.findPhoto(db, salonId, photoId);
      if (!found) return null;
      const name =
        variant === 'thumb' ? found.photo.file_name.replace(/\.[a-z]+$/, '-preview.jpg') : found.photo.file_name;
      return photos.locate(name);
    },
  };
}

export type KarteService = ReturnType<typeof createKarteService>;
