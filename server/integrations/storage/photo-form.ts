/**
 * The multipart form of a photo upload: one file in the field `photo`. Read here, in the handler, like the
 * message form (server/features/messages/message-form.ts) and within the same limits (MULTIPART_LIMITS,
 * registered in buildApp), so that every limit the stream hits becomes a Japanese 4xx instead of a 500.
 */
import type { FastifyRequest } from 'fastify';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { ApiHttpError, badRequest } from '../../http-errors';

const photoError = (status: number, code: string, detail: string) =>
  new ApiHttpError(status, code, detail, { photo: [detail] });

/** The uploaded bytes of `photo`; refuses a missing, empty or wrongly named file. */
export async function readPhotoForm(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new ApiHttpError(415, 'unsupported_media_type', SERVER_MESSAGES.unsupportedMediaType);
  }
  let photo: Buffer | null = null;
  // A refusal is thrown only after the last part: leaving the loop early leaves the rest of the body unread, and the
  // connection busy (a server's close() then waits for it).
  let refusal: ApiHttpError | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      // Every file part is read to the end: the stream must be consumed to reach the next part.
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'photo' || bytes.length === 0) continue;
      // The bytes decide the type; a name claiming something else (page.html holding a JPEG) is a file made to be
      // opened as what it is not, and is refused rather than quietly stored.
      if (!hasImageName(part.filename)) {
        refusal ??= photoError(415, 'unsupported_media_type', SERVER_MESSAGES.imageUnsupported);
        continue;
      }
      photo = bytes;
    }
  } catch (error) {
    throw formError(error);
  }
  if (refusal) throw refusal;
  if (!photo) throw badRequest(SERVER_MESSAGES.photoRequired, { photo: [SERVER_MESSAGES.photoRequired] });
  return photo;
}

/** No extension (a camera capture) or one of the accepted image types'. */
function hasImageName(filename: string | undefined): boolean {
  const extension = /\.([^./\\]+)$/.exec(filename ?? '')?.[1]?.toLowerCase();
  return extension === undefined || ['jpg', 'jpeg', 'jpe', 'png', 'webp', 'gif', 'heic', 'heif'].includes(extension);
}

function formError(error: unknown): unknown {
  if (error instanceof ApiHttpError) return error;
  switch ((error as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return photoError(413, 'file_too_large', SERVER_MESSAGES.imageTooLarge);
    case 'FST_FILES_LIMIT':
      return badRequest(SERVER_MESSAGES.tooManyFiles, { photo: [SERVER_MESSAGES.tooManyFiles] });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiHttpError(413, 'body_too_large', SERVER_MESSAGES.bodyTooLarge);
    default:
      return badRequest(SERVER_MESSAGES.invalidMultipart, undefined, 'invalid_multipart');
  }
}
