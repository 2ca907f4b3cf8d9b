/**
 * How many photos one uploader may send per window (PHOTO_UPLOAD_RATE_LIMIT per PHOTO_UPLOAD_RATE_WINDOW_SECONDS
 * for a customer, five times as many for a staff member, who photographs every visit). Counted once the image's
 * header has passed (photo-upload.ts), before the decode that costs up to seconds of CPU: an upload refused after
 * that (the booking's limit reached) still counts, while a file refused from its header, or a replay of an
 * Idempotency-Key, costs next to nothing and does not. In the database (server/plugins/rate-limit-counters.ts), so
 * that every instance shares one budget.
 */
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Database } from '../../db/client';
import { counterKey, countInWindow, pruneExpiredCounters, throttled } from '../../plugins/rate-limit-counters';
import type { Uploader } from './photo-upload';

const STAFF_UPLOAD_FACTOR = 5;

export type UploadLimiter = ReturnType<typeof createUploadLimiter>;

export function createUploadLimiter(deps: {
  db: Database;
  now: () => Date;
  limits: { customerPerWindow: number; windowSeconds: number };
}) {
  const { db, now, limits } = deps;
  return {
    /** Counts one upload by this uploader, or refuses it with a Japanese 429. */
    async count(uploader: Uploader): Promise<void> {
      const at = now();
      const staff = 'staff' in uploader;
      const retryAfter = await countInWindow(db, {
        key: staff
          ? counterKey('photo-upload-staff', String(uploader.staff.id))
          : counterKey('photo-upload-customer', String(uploader.customerId)),
        limit: staff ? limits.customerPerWindow * STAFF_UPLOAD_FACTOR : limits.customerPerWindow,
        windowMs: limits.windowSeconds * 1000,
        now: at,
      });
      await pruneExpiredCounters(db, at);
      if (retryAfter !== null) throw throttled(SERVER_MESSAGES.tooManyPhotoUploads, retryAfter);
    },
  };
}
