import fs from 'node:fs';
import type { FastifyReply } from 'fastify';

/** A stored image as the stores locate it: the type sniffed at upload, its size and where it lies. */
interface StoredImageFile {
  contentType: string;
  size: number;
  filePath: string;
}

/**
 * Sends a stored image (GET /media/… and the signed karte photo URLs): the type sniffed at upload, which the browser
 * must not second-guess, inline, and a sandbox so the file can run nothing. `cacheControl` is the route's own: public
 * and immutable for LINE media, private and short for karte photos. The file is read whole (at most 10 MB): a piped
 * file stream left the keep-alive connection busy after the last byte now and then, and the server's close() waited.
 */
export async function sendStoredImage(
  reply: FastifyReply,
  file: StoredImageFile,
  headers: { cacheControl: string; referrerPolicy?: 'no-referrer' },
) {
  reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.size))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', 'inline')
    .header('cache-control', headers.cacheControl);
  if (headers.referrerPolicy) reply.header('referrer-policy', headers.referrerPolicy);
  return reply.send(await fs.promises.readFile(file.filePath));
}
