/**
 * Where カルテ photos live and how a browser may fetch one. Unlike /media (public, because LINE fetches message
 * images without credentials), these are a customer's hands and designs: they are kept in their own folder
 * inside UPLOAD_DIR, which no public route reads (/media/:name takes no slash), and served only through a URL
 * that the API hands to staff in scope or to the reservation's own customer. `<img src>` cannot send a bearer
 * token, so the URL itself carries the proof: an HMAC over the photo id, the variant and an expiry.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';

const KARTE_PHOTO_SUBDIR = 'karte';

export function karteDirOf(uploadDir: string): string {
  return path.join(uploadDir, KARTE_PHOTO_SUBDIR);
}

/** How long a handed-out URL opens its photo. Rounded to the hour so that a screen's URLs stay cacheable. */
const URL_LIFETIME_SECONDS = 60 * 60;

export type PhotoVariant = 'full' | 'thumb';

export interface PhotoUrlSigner {
  urlFor(photoId: number, variant: PhotoVariant): string;
  /** Whether the signature is ours and not expired; false for anything else. */
  verify(photoId: number, variant: PhotoVariant, expires: string, signature: string): boolean;
}

/**
 * Keyed from the app's signing secret (as the calendar feed is): every instance sharing the database also
 * shares that secret, so a URL handed out by one opens on another.
 */
export function createPhotoUrlSigner(options: { secret: string; now: () => Date }): PhotoUrlSigner {
  const key = createHmac('sha256', options.secret).update('karte-photo-urls').digest();
  const sign = (photoId: number, variant: PhotoVariant, expires: number) =>
    createHmac('sha256', key).update(`${photoId}.${variant}.${expires}`).digest('base64url');

  function urlFor(photoId: number, variant: PhotoVariant): string {
    const nowSeconds = Math.floor(options.now().getTime() / 1000);
    // At least URL_LIFETIME_SECONDS left, and the same URL for everyone asking within one hour.
    const expires = (Math.floor(nowSeconds / URL_LIFETIME_SECONDS) + 2) * URL_LIFETIME_SECONDS;
    return `/api/visit-photos/${photoId}/${variant}/?expires=${expires}&sig=${sign(photoId, variant, expires)}`;
  }

  function verify(photoId: number, variant: PhotoVariant, expires: string, signature: string): boolean {
    if (!/^\d{1,12}$/.test(expires)) return false;
    const expiresAt = Number(expires);
    if (expiresAt * 1000 < options.now().getTime()) return false;
    const expected = Buffer.from(sign(photoId, variant, expiresAt));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  return { urlFor, verify };
}
