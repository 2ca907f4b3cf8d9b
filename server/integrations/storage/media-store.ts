/**
 * Uploaded and fetched images (docs/architecture.md). The type is decided by the bytes alone, never by a file name
 * or a Content-Type the sender chose; the image is decoded and re-encoded so that nothing but pixels survive
 * (no EXIF, no GPS, no trailing payload after the image data), and kept under a random name outside the web
 * root. GET /media/:name serves it back (server/features/messages/media.routes.ts).
 * A row keeps a stored image by its URL; a new table that keeps media URLs must be read by the orphan sweep
 * (orphan-uploads.ts), or the sweep would take its files for a crash's leftovers.
 *
 * What is kept is what LINE's image message takes: JPEG or PNG (WebP becomes JPEG, or PNG when it has
 * transparency; GIF becomes PNG; an animation keeps its first frame), plus a JPEG preview of at most
 * PREVIEW_EDGE pixels a side, well under LINE's 1 MB limit for previewImageUrl.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { imageDecodes } from './decode-queue';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * A stored file's name: 128 random bits in hex (plus `-preview` for a preview) and the extension of its type.
 * Anything else is 404. WebP and GIF are no longer written, but files stored before are still served.
 */
export const MEDIA_NAME_PATTERN = /^[0-9a-f]{32}(?:-preview)?\.(jpg|png|webp|gif)$/;

/** A write in progress (writeAtomically below): `.<stored name>.<12 hex>.tmp`, never served. */
export const TEMPORARY_NAME_PATTERN = /^\.[0-9a-f]{32}(?:-preview)?\.(jpg|png)\.[0-9a-f]{12}\.tmp$/;

/** The longest side of a preview: sharp on a phone's chat list, a few tens of kilobytes. */
const PREVIEW_EDGE = 480;

/**
 * The most pixels an upload may declare (4000万画素: a 24-megapixel phone photo fits with room to spare). A small
 * file can be a huge image: a 381 KB PNG of one colour decodes to 7000 × 7000 × 16 bits, 294 MB and seconds of CPU.
 * Checked from the header before anything is decoded (inspectImage), and again by libvips while decoding.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** What is accepted (by sniffed type), and how libvips names it. */
const ACCEPTED = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;

type AcceptedType = keyof typeof ACCEPTED;

const CONTENT_TYPE_BY_EXT: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

export interface StoredMedia {
  name: string;
  contentType: 'image/jpeg' | 'image/png';
  /** `${publicUrl}/media/${name}`: what LINE and the browser fetch. */
  url: string;
  /** The small JPEG beside it, for LINE's previewImageUrl. */
  previewUrl: string;
}

/** An upload that is not an acceptable image. `detail` is the Japanese message for the error body. */
export class MediaRejectedError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'MediaRejectedError';
  }
}

export interface MediaStore {
  /**
   * Checks an upload from its header alone, without decoding it: not empty, at most MAX_IMAGE_BYTES, an accepted
   * type, at most MAX_IMAGE_PIXELS. Throws MediaRejectedError. saveImage checks the same first.
   */
  inspect(bytes: Buffer): Promise<void>;
  /**
   * Validates, re-encodes and stores an image, its decoding queued behind other uploads' (decode-queue.ts). Throws
   * MediaRejectedError; nothing is written on refusal.
   */
  saveImage(bytes: Buffer): Promise<StoredMedia>;
  /** Removes a stored file and its preview (a send whose transaction failed); unknown names are ignored. */
  remove(name: string): Promise<void>;
  /** The file and its type for a valid stored name, or null (bad name or no such file). */
  locate(name: string): Promise<{ filePath: string; contentType: string; size: number } | null>;
  /** The stored name of one of our media URLs (`…/media/<name>`), or null. */
  nameFromUrl(url: string): string | null;
  dir: string;
}

export function createMediaStore(options: { dir: string; publicUrl: string }): MediaStore {
  const dir = path.resolve(options.dir);
  const publicUrl = options.publicUrl.replace(/\/+$/, '');

  async function saveImage(bytes: Buffer): Promise<StoredMedia> {
    const { type, hasAlpha } = await inspectImage(bytes);
    const { output, preview, contentType } = await imageDecodes.run(() => reencode(bytes, type, hasAlpha));

    const base = randomBytes(16).toString('hex');
    const name = `${base}.${contentType === 'image/png' ? 'png' : 'jpg'}`;
    const previewName = previewOf(name);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await writeAtomically(name, output);
    try {
      await writeAtomically(previewName, preview);
    } catch (error) {
      await fs.rm(path.join(dir, name), { force: true });
      throw error;
    }
    return { name, contentType, url: `${publicUrl}/media/${name}`, previewUrl: `${publicUrl}/media/${previewName}` };
  }

  /**
   * Written beside the final name and renamed: a reader never sees half a file, and a crash leaves only a
   * dot-file that no media name can match (swept at the next start: orphan-uploads.ts).
   */
  async function writeAtomically(name: string, bytes: Buffer) {
    const temporary = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fs.writeFile(temporary, bytes, { flag: 'wx', mode: 0o600 });
      await fs.rename(temporary, path.join(dir, name));
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async function remove(name: string): Promise<void> {
    if (!MEDIA_NAME_PATTERN.test(name)) return;
    await fs.rm(path.join(dir, name), { force: true });
    await fs.rm(path.join(dir, previewOf(name)), { force: true });
  }

  async function locate(name: string) {
    const match = MEDIA_NAME_PATTERN.exec(name);
    if (!match) return null;
    const filePath = path.join(dir, name);
    try {
      const stat = await fs.stat(filePath);
      if (!stat.isFile()) return null;
      return { filePath, contentType: CONTENT_TYPE_BY_EXT[match[1]!]!, size: stat.size };
    } catch {
      return null;
    }
  }

  function nameFromUrl(url: string): string | null {
    const prefix = `${publicUrl}/media/`;
    if (!url.startsWith(prefix)) return null;
    const name = url.slice(prefix.length);
    return MEDIA_NAME_PATTERN.test(name) ? name : null;
  }

  return { inspect: async (bytes) => void (await inspectImage(bytes)), saveImage, remove, locate, nameFromUrl, dir };
}

/** `<base>-preview.jpg` for `<base>.<ext>`. */
function previewOf(name: string): string {
  return name.replace(/(?:-preview)?\.[a-z]+$/, '-preview.jpg');
}

/**
 * What an upload's header says, read without decoding a pixel (file-type sniffs the first bytes; sharp's
 * metadata() parses only the header). Refuses what can be refused from there.
 */
async function inspectImage(bytes: Buffer): Promise<{ type: AcceptedType; hasAlpha: boolean }> {
  if (bytes.length === 0) throw new MediaRejectedError(400, SERVER_MESSAGES.imageEmpty);
  if (bytes.length > MAX_IMAGE_BYTES) throw new MediaRejectedError(413, SERVER_MESSAGES.imageTooLarge);
  const sniffed = await fileTypeFromBuffer(bytes);
  // An animated PNG is a PNG to every decoder (re-encoding keeps its first frame).
  const mime = sniffed?.mime === 'image/apng' ? 'image/png' : sniffed?.mime;
  if (!mime || !(mime in ACCEPTED)) throw new MediaRejectedError(415, SERVER_MESSAGES.imageUnsupported);
  const type = mime as AcceptedType;
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new MediaRejectedError(415, SERVER_MESSAGES.imageUnreadable);
  }
  // libvips picks its decoder by content too; a disagreement with the sniffed type means a crafted file.
  if (metadata.format !== ACCEPTED[type]) throw new MediaRejectedError(415, SERVER_MESSAGES.imageUnsupported);
  // The first frame's size (pageHeight for an animation): that is all that is decoded.
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (width * height > MAX_IMAGE_PIXELS) throw new MediaRejectedError(400, SERVER_MESSAGES.imageTooManyPixels);
  return { type, hasAlpha: metadata.hasAlpha === true };
}

async function reencode(
  bytes: Buffer,
  type: AcceptedType,
  hasAlpha: boolean,
): Promise<{ output: Buffer; preview: Buffer; contentType: StoredMedia['contentType'] }> {
  try {
    // Only the first frame of an animation is read: LINE shows image messages as still pictures.
    const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
    // Orientation lives in EXIF, which is dropped below: apply it to the pixels first.
    const oriented = image.rotate();
    // JPEG keeps JPEG; anything that may be transparent becomes PNG, other WebP becomes JPEG. sharp writes no
    // metadata unless asked (withMetadata/withExif): the output has no EXIF, GPS, XMP or ICC.
    const png = type === 'image/png' || type === 'image/gif' || (type === 'image/webp' && hasAlpha);
    const output = png ? await oriented.png().toBuffer() : await oriented.jpeg({ quality: 90 }).toBuffer();
    const preview = await sharp(output)
      .resize(PREVIEW_EDGE, PREVIEW_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { output, preview, contentType: png ? 'image/png' : 'image/jpeg' };
  } catch (error) {
    if (error instanceof MediaRejectedError) throw error;
    throw new MediaRejectedError(415, SERVER_MESSAGES.imageUnreadable);
  }
}
