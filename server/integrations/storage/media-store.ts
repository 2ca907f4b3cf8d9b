/**
 * Uploaded and fetched images (DESIGN.md §5). The type is decided by the bytes alone, never by a file name
 * or a Content-Type the sender chose; the image is decoded and re-encoded so that nothing but pixels survive
 * (no EXIF, no GPS, no trailing payload after the image data), and kept under a random name outside the web
 * root. GET /media/:name serves it back (server/features/messages/media.routes.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { MESSAGES } from '../../../src/shared/messages';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** A stored file's name: 128 random bits in hex plus the extension of the sniffed type. Anything else is 404. */
export const MEDIA_NAME_PATTERN = /^[0-9a-f]{32}\.(jpg|png|webp|gif)$/;

// Beyond this the decoded bitmap alone would need hundreds of megabytes: a small file can be a huge image.
const MAX_INPUT_PIXELS = 50_000_000;

const FORMATS = {
  'image/jpeg': { ext: 'jpg', sharpFormat: 'jpeg', animated: false },
  'image/png': { ext: 'png', sharpFormat: 'png', animated: false },
  'image/webp': { ext: 'webp', sharpFormat: 'webp', animated: true },
  'image/gif': { ext: 'gif', sharpFormat: 'gif', animated: true },
} as const;

type AllowedType = keyof typeof FORMATS;

const CONTENT_TYPE_BY_EXT: Record<string, AllowedType> = Object.fromEntries(
  Object.entries(FORMATS).map(([type, format]) => [format.ext, type as AllowedType]),
);

export interface StoredMedia {
  name: string;
  contentType: string;
  /** `${publicUrl}/media/${name}`: what LINE and the browser fetch. */
  url: string;
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
  /** Validates, re-encodes and stores an image. Throws MediaRejectedError; nothing is written on refusal. */
  saveImage(bytes: Buffer): Promise<StoredMedia>;
  /** Removes a stored file (a send whose transaction failed); unknown names are ignored. */
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
    if (bytes.length === 0) throw new MediaRejectedError(400, MESSAGES.imageEmpty);
    if (bytes.length > MAX_IMAGE_BYTES) throw new MediaRejectedError(413, MESSAGES.imageTooLarge);
    const sniffed = await fileTypeFromBuffer(bytes);
    // An animated PNG is a PNG to every decoder (re-encoding keeps its first frame).
    const mime = sniffed?.mime === 'image/apng' ? 'image/png' : sniffed?.mime;
    if (!mime || !(mime in FORMATS)) throw new MediaRejectedError(415, MESSAGES.imageUnsupported);
    const contentType = mime as AllowedType;
    const output = await reencode(bytes, contentType);

    const name = `${randomBytes(16).toString('hex')}.${FORMATS[contentType].ext}`;
    await fs.mkdir(dir, { recursive: true });
    // Written beside the final name and renamed: a reader never sees half a file, and a crash leaves only a
    // dot-file that no media name can match.
    const temporary = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fs.writeFile(temporary, output, { flag: 'wx', mode: 0o640 });
      await fs.rename(temporary, path.join(dir, name));
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
    return { name, contentType, url: `${publicUrl}/media/${name}` };
  }

  async function remove(name: string): Promise<void> {
    if (!MEDIA_NAME_PATTERN.test(name)) return;
    await fs.rm(path.join(dir, name), { force: true });
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

  return { saveImage, remove, locate, nameFromUrl, dir };
}

async function reencode(bytes: Buffer, contentType: AllowedType): Promise<Buffer> {
  const format = FORMATS[contentType];
  try {
    const image = sharp(bytes, {
      animated: format.animated,
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'error',
    });
    const metadata = await image.metadata();
    // libvips picks its decoder by content too; a disagreement with the sniffed type means a crafted file.
    if (metadata.format !== format.sharpFormat) throw new MediaRejectedError(415, MESSAGES.imageUnsupported);
    // Orientation lives in EXIF, which is dropped below: apply it to the pixels first. Multi-page (animated)
    // images carry no EXIF orientation, and libvips cannot rotate them.
    const pages = metadata.pages ?? 1;
    const oriented = pages > 1 ? image : image.rotate();
    // sharp writes no metadata unless asked (withMetadata/withExif): the output has no EXIF, GPS, XMP or ICC.
    return await oriented.toFormat(format.sharpFormat).toBuffer();
  } catch (error) {
    if (error instanceof MediaRejectedError) throw error;
    throw new MediaRejectedError(415, MESSAGES.imageUnreadable);
  }
}
