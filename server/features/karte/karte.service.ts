/**
 * カルテ: a completed visit's note and photos (staff), and the reference designs a customer attaches to a booking.
 * Photos go through the same safety as message images (server/integrations/storage/media-store.ts: type sniffed
 * from the bytes, decoded and re-encoded, random names, atomic writes) but into a private folder, and are only
 * reachable through signed URLs handed to staff in scope and to the reservation's own customer. Storing one is
 * photo-upload.ts; this module reads and changes what is stored.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { instantToZonedIso } from '#src/shared/time';
import type { CustomerVisit, Karte, VisitPhoto } from '#src/shared/schemas/karte';
import type { Database } from '../../db/client';
import { findCustomerForStaff, ownBookingsOnly, reachesBookingOf } from '../../db/scope';
import { notFound } from '../../http-errors';
import type { PhotoUrlSigner, PhotoVariant } from '../../integrations/storage/karte-photos';
import type { MediaStore } from '../../integrations/storage/media-store';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './karte.repository';
import { checkPhotoStatus, createPhotoUploads, presentPhoto } from './photo-upload';
import type { UploadLimiter } from './upload-limits';

interface KarteServiceDeps {
  db: Database;
  salonId: number;
  timeZone: string;
  now: () => Date;
  /** The private karte folder (never the public /media one). */
  photos: MediaStore;
  urls: PhotoUrlSigner;
  uploadLimits: UploadLimiter;
}

const VISITS_SHOWN = 50;

export function createKarteService(deps: KarteServiceDeps) {
  const { db, salonId, timeZone, now, photos, urls } = deps;
  const present = (row: repo.VisitPhotoRow): VisitPhoto => presentPhoto(urls, row);
  const uploads = createPhotoUploads({ db, salonId, now, photos, urls, limits: deps.uploadLimits });

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
      return uploads.upload({ staff }, reservation, bytes, key);
    },

    uploadAsCustomer(customerId: number, reservation: repo.KarteReservation, bytes: Buffer, key?: string) {
      return uploads.upload({ customerId }, reservation, bytes, key);
    },

    /** The customer sees the reference images they attached to their own reservation. */
    async customerPhotos(customerId: number, reservationNumber: string): Promise<VisitPhoto[]> {
      const reservation = await reservationForCustomer(customerId, reservationNumber);
      return (await repo.photosOf(db, [reservation.id], 'reference')).map(present);
    },

    async saveNote(staff: StaffPrincipal, reservationNumber: string, note: string) {
      const reservation = await reservationForStaff(staff, reservationNumber);
      checkPhotoStatus(reservation.status, 'visit');
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
      if (!found || !reachesBookingOf(staff, found.staff_id)) throw notFound(SERVER_MESSAGES.photoNotFound);
      const deleted = await repo.deletePhoto(db, photoId);
      if (!deleted) throw notFound(SERVER_MESSAGES.photoNotFound);
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
