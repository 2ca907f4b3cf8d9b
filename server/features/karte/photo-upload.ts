/**
 * Storing one カルテ photo (a staff member's visit photo or a customer's reference design). What costs little is
 * checked before what costs much, so that a flood of uploads is refused before any of it is decoded:
 *
 * 1. an Idempotency-Key replay is answered from the photo row it stored (the staff app's offline outbox);
 * 2. the reservation's status, then the image's header (type, bytes, declared pixels: media-store.ts `inspect`,
 *    nothing decoded), then the uploader's rate limit (upload-limits.ts: 429);
 * 3. the per-reservation limit, counting the uploads to it already under way on this instance: 16 parallel
 *    uploads to a booking that takes 3 admit 3, and the other 13 are refused here instead of after their decode;
 * 4. the decode and re-encode, one image at a time (decode-queue.ts), then the transaction that decides for real
 *    (the reservation row locked, the count checked again: other instances' uploads are counted there).
 *
 * The generic idempotency plugin cannot hash a streamed multipart body, so the key is recorded on the photo row
 * itself (unique index): a replay finds that row and gets the same answer, and of two concurrent requests with
 * one key a single row survives.
 */
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { REFERENCE_PHOTO_LIMIT, VISIT_PHOTO_LIMIT, type VisitPhoto } from '#src/shared/schemas/karte';
import type { Database } from '../../db/client';
import { ApiHttpError, conflict, notFound } from '../../http-errors';
import { createTaskQueue } from '../../integrations/storage/decode-queue';
import type { PhotoUrlSigner } from '../../integrations/storage/karte-photos';
import { MediaRejectedError, type MediaStore, type StoredMedia } from '../../integrations/storage/media-store';
import type { StaffPrincipal } from '../../plugins/auth';
import * as repo from './karte.repository';
import type { UploadLimiter } from './upload-limits';

/** Who uploads: staff add visit photos to a completed visit, a customer adds references to an open booking. */
export type Uploader = { staff: StaffPrincipal } | { customerId: number };

interface PhotoUploadDeps {
  db: Database;
  salonId: number;
  now: () => Date;
  photos: MediaStore;
  urls: PhotoUrlSigner;
  limits: UploadLimiter;
}

/** A stored photo as the API shows it. */
export function presentPhoto(urls: PhotoUrlSigner, row: repo.VisitPhotoRow): VisitPhoto {
  return {
    id: row.id,
    kind: row.kind,
    url: urls.urlFor(row.id, 'full'),
    thumbnail_url: urls.urlFor(row.id, 'thumb'),
    uploaded_by: row.uploaded_by_staff_id === null ? 'customer' : 'staff',
    created_at: row.created_at.toISOString(),
  };
}

/** Refuses (409) an upload the reservation's status does not allow; checked again under the row lock. */
export function checkPhotoStatus(status: string, kind: repo.VisitPhotoRow['kind']) {
  if (kind === 'visit' && status !== 'completed') throw conflict(SERVER_MESSAGES.visitNotCompleted, 'not_completed');
  if (kind === 'reference' && status !== 'pending' && status !== 'confirmed') {
    throw conflict(SERVER_MESSAGES.referenceNotOpen, 'reservation_closed');
  }
}

/** The photo refusal of a media-store refusal, on the `photo` field. */
function photoRefusal(error: MediaRejectedError): ApiHttpError {
  const code = error.status === 413 ? 'file_too_large' : error.status === 415 ? 'unsupported_media_type' : 'invalid';
  return new ApiHttpError(error.status, code, error.detail, { photo: [error.detail] });
}

export function createPhotoUploads(deps: PhotoUploadDeps) {
  const { db, salonId, now, photos, urls } = deps;
  /** Uploads admitted and not yet recorded, by reservation and kind (this instance only). */
  const underWay = new Map<string, number>();
  /**
   * Admitting an upload (count, then add) and recording one (commit, then give its place back) take turns: an
   * admission then sees a photo either as under way or as stored, never as both (a false refusal) or neither.
   */
  const bookkeeping = createTaskQueue(1);

  /** The photo an earlier request with this key stored; 422 when that key was used for another reservation. */
  async function replayed(key: string | undefined, reservationId: number): Promise<VisitPhoto | null> {
    if (!key) return null;
    const row = await repo.findPhotoByKey(db, key);
    if (!row) return null;
    if (row.reservation_id !== reservationId) {
      throw new ApiHttpError(422, 'idempotency_key_reused', SERVER_MESSAGES.idempotencyKeyReused);
    }
    return presentPhoto(urls, row);
  }

  /**
   * Takes a place among the reservation's photos for an upload about to be decoded, or refuses it (409): the photos
   * stored and the uploads under way together may not exceed the limit. Returns the function that gives the place
   * back.
   */
  async function admit(reservationId: number, kind: repo.VisitPhotoRow['kind'], limit: number, message: string) {
    const slot = `${reservationId}:${kind}`;
    await bookkeeping.run(async () => {
      const stored = await repo.countPhotos(db, reservationId, kind);
      const pending = underWay.get(slot) ?? 0;
      if (stored + pending >= limit) throw conflict(message, 'photo_limit');
      underWay.set(slot, pending + 1);
    });
    return () => {
      const left = (underWay.get(slot) ?? 1) - 1;
      if (left > 0) underWay.set(slot, left);
      else underWay.delete(slot);
    };
  }

  async function decodeAndSave(bytes: Buffer): Promise<StoredMedia> {
    try {
      return await photos.saveImage(bytes);
    } catch (error) {
      throw error instanceof MediaRejectedError ? photoRefusal(error) : error;
    }
  }

  async function upload(
    uploader: Uploader,
    reservation: repo.KarteReservation,
    bytes: Buffer,
    idempotencyKey: string | undefined,
  ): Promise<{ photo: VisitPhoto; replayed: boolean }> {
    const kind = 'staff' in uploader ? 'visit' : 'reference';
    const earlier = await replayed(idempotencyKey, reservation.id);
    if (earlier) return { photo: earlier, replayed: true };
    checkPhotoStatus(reservation.status, kind);
    // The header costs less than the rate-limit counter's write: a file refused from it is refused first.
    await photos.inspect(bytes).catch((error: unknown) => {
      throw error instanceof MediaRejectedError ? photoRefusal(error) : error;
    });
    await deps.limits.count(uploader);
    const limit = kind === 'visit' ? VISIT_PHOTO_LIMIT : REFERENCE_PHOTO_LIMIT;
    const limitMessage =
      kind === 'visit' ? SERVER_MESSAGES.visitPhotoLimit(limit) : SERVER_MESSAGES.referencePhotoLimit(limit);
    const release = await admit(reservation.id, kind, limit, limitMessage);
    let stored: StoredMedia;
    try {
      stored = await decodeAndSave(bytes);
    } catch (error) {
      release();
      throw error;
    }
    const row = await bookkeeping.run(async () => {
      try {
        return await recordPhoto(uploader, reservation, kind, stored, idempotencyKey, { limit, limitMessage });
      } finally {
        release();
      }
    });
    if (row) return { photo: presentPhoto(urls, row), replayed: false };
    // A concurrent request with the same key stored first: keep its photo (ours was removed).
    const winner = await replayed(idempotencyKey, reservation.id);
    if (!winner) throw new ApiHttpError(409, 'idempotency_in_flight', SERVER_MESSAGES.idempotencyInFlight);
    return { photo: winner, replayed: true };
  }

  /**
   * The photo row, written with the reservation locked and the status and limit checked again; null when another
   * request with the same key wrote first. The stored file goes whenever no row of ours names it.
   */
  async function recordPhoto(
    uploader: Uploader,
    reservation: repo.KarteReservation,
    kind: repo.VisitPhotoRow['kind'],
    stored: StoredMedia,
    idempotencyKey: string | undefined,
    limits: { limit: number; limitMessage: string },
  ): Promise<repo.VisitPhotoRow | null> {
    let row: repo.VisitPhotoRow | null = null;
    try {
      row = await db.transaction(async (tx) => {
        const locked = await repo.lockReservation(tx, reservation.id);
        if (!locked) throw notFound(MESSAGES.reservationNotFound);
        checkPhotoStatus(locked.status, kind);
        if ((await repo.countPhotos(tx, reservation.id, kind)) >= limits.limit) {
          throw conflict(limits.limitMessage, 'photo_limit');
        }
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
      return row;
    } finally {
      if (!row) await photos.remove(stored.name).catch(() => {});
    }
  }

  return { upload };
}
