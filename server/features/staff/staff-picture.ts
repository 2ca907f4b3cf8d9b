/**
 * Staff photos (社員管理, issue 32): uploaded by the owner, cropped to a centred square and resized, stored by the app
 * and served from its own origin, so that the customer's 指名 step shows them under the app's Content-Security-Policy
 * (img-src 'self'). The file goes through the same safety as カルテ photos and message images (media-store.ts: type
 * sniffed from the bytes, pixels bounded before decoding, re-encoded without metadata, one decode at a time), in
 * its own folder of UPLOAD_DIR under a random name, and is public like the staff list that names it
 * (GET /api/staff/). A replaced photo's file is removed once the row no longer names it.
 */
import path from 'node:path';
import sharp from 'sharp';
import { MESSAGES } from '#src/shared/messages';
import { STAFF_PICTURE_PATH } from '#src/shared/schemas/staff';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Database } from '../../db/client';
import { ApiHttpError, notFound } from '../../http-errors';
import { imageDecodes } from '../../integrations/storage/decode-queue';
import { MAX_IMAGE_PIXELS, MediaRejectedError, type MediaStore } from '../../integrations/storage/media-store';
import * as repo from './staff.repository';

/** A side of the stored square: sharp on a phone's 指名 list and a tablet's 社員管理, a few tens of kilobytes. */
const PICTURE_EDGE = 480;

export function staffPictureDirOf(uploadDir: string): string {
  return path.join(uploadDir, 'staff');
}

/** The upload's refusal on the `photo` field, in Japanese (413 too large, 415 not an image, 400 otherwise). */
function photoRefusal(error: MediaRejectedError): ApiHttpError {
  const code = error.status === 413 ? 'file_too_large' : error.status === 415 ? 'unsupported_media_type' : 'invalid';
  return new ApiHttpError(error.status, code, error.detail, { photo: [error.detail] });
}

/** The centre square of the (upright) image, resized; in the shared decode queue, one image at a time. */
function centreSquare(bytes: Buffer): Promise<Buffer> {
  return imageDecodes.run(async () => {
    try {
      return await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .rotate()
        .resize(PICTURE_EDGE, PICTURE_EDGE, { fit: 'cover', position: 'centre' })
        .png()
        .toBuffer();
    } catch {
      throw new MediaRejectedError(415, SERVER_MESSAGES.imageUnreadable);
    }
  });
}

export function createStaffPictures(deps: { db: Database; salonId: number; store: MediaStore }) {
  const { db, salonId, store } = deps;
  const nameOf = (url: string) => (url.startsWith(STAFF_PICTURE_PATH) ? url.slice(STAFF_PICTURE_PATH.length) : null);

  return {
    /** Stores the photo and makes it the staff member's picture_url; returns the updated row. */
    async upload(staffId: number, bytes: Buffer): Promise<repo.StaffRow> {
      if (!(await repo.findStaff(db, salonId, staffId))) throw notFound(MESSAGES.staffNotFound);
      let stored: { name: string };
      try {
        // The header first (type, size, declared pixels): a refused file costs no decode.
        await store.inspect(bytes);
        stored = await store.saveImage(await centreSquare(bytes));
      } catch (error) {
        throw error instanceof MediaRejectedError ? photoRefusal(error) : error;
      }
      let updated: { row: repo.StaffRow; replaced: string | null };
      try {
        updated = await db.transaction(async (tx) => {
          const current = await repo.lockStaff(tx, salonId, staffId);
          if (!current) throw notFound(MESSAGES.staffNotFound);
          const row = await repo.updateStaff(tx, staffId, { picture_url: `${STAFF_PICTURE_PATH}${stored.name}` });
          return { row, replaced: nameOf(current.picture_url) };
        });
      } catch (error) {
        await store.remove(stored.name).catch(() => {});
        throw error;
      }
      if (updated.replaced) await store.remove(updated.replaced).catch(() => {});
      return updated.row;
    },

    /** The stored file behind a picture path, or null. */
    locate: (name: string) => store.locate(name),
  };
}
