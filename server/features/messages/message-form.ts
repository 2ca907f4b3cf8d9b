/**
 * The multipart form of send-message and bulk send (docs/screens.md#send-message and docs/screens.md#message-history): optional `text`, optional `image`.
 * @fastify/multipart is registered once in buildApp() with the limits below; parts are read here, in the
 * handler, so that every limit the stream hits becomes a Japanese 4xx instead of a 500.
 */
import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { MESSAGE_MAX_LENGTH } from '#src/shared/schemas/messages';
import { ApiHttpError, badRequest } from '../../http-errors';
import { MAX_IMAGE_BYTES } from '../../integrations/storage/media-store';

/** For `app.register(multipart, { limits: MULTIPART_LIMITS })`. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_IMAGE_BYTES,
  files: 1,
  fields: 5,
  // A 5000-character text is at most 20,000 bytes of UTF-8 (plus CRLFs): anything longer is refused whole.
  fieldSize: 32 * 1024,
  fieldNameSize: 100,
  parts: 8,
  headerPairs: 50,
};

export interface MessageForm {
  /** Trimmed; '' when absent or blank. */
  text: string;
  /** The uploaded bytes, or null when no (or an empty) image was sent. */
  image: Buffer | null;
}

/** Reads and checks the form: non-blank text of at most 5000 characters, or an image (docs/screens.md#send-message). */
export async function readMessageForm(request: FastifyRequest): Promise<MessageForm> {
  if (!request.isMultipart()) {
    throw new ApiHttpError(415, 'unsupported_media_type', SERVER_MESSAGES.unsupportedMediaType);
  }
  let text: string | null = null;
  let image: Buffer | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        // Read whatever the field is called (the stream must be consumed to reach the next part).
        const bytes = await part.toBuffer();
        if (part.fieldname !== 'image' || bytes.length === 0) continue;
        // The bytes decide the type; a name that claims something else (page.html holding a PNG) is a file made
        // to be opened as something it is not, and is refused rather than quietly stored.
        if (!hasImageName(part.filename)) {
          throw new ApiHttpError(415, 'unsupported_media_type', SERVER_MESSAGES.imageUnsupported, {
            image: [SERVER_MESSAGES.imageUnsupported],
          });
        }
        image = bytes;
      } else if (part.fieldname === 'text' && text === null) {
        if (part.valueTruncated) throw tooLong();
        text = typeof part.value === 'string' ? part.value : '';
      }
    }
  } catch (error) {
    throw formError(error);
  }
  const trimmed = (text ?? '').trim();
  if (trimmed.length > MESSAGE_MAX_LENGTH) throw tooLong();
  // PostgreSQL text cannot hold U+0000: storing it failed as a 500 (found by the hostile-input suite). JSON bodies
  // are checked by server/plugins/input-guard.ts; a multipart field is only read here.
  if (trimmed.includes('\u0000')) throw badRequest(MESSAGES.invalidInput, { text: [MESSAGES.invalidInput] });
  if (!trimmed && !image) {
    throw badRequest(MESSAGES.messageOrImageRequired, { text: [MESSAGES.messageOrImageRequired] });
  }
  return { text: trimmed, image };
}

/** No extension (a pasted or camera image) or one of the accepted image types'. */
function hasImageName(filename: string | undefined): boolean {
  const extension = /\.([^./\\]+)$/.exec(filename ?? '')?.[1]?.toLowerCase();
  return extension === undefined || ['jpg', 'jpeg', 'jpe', 'png', 'webp', 'gif'].includes(extension);
}

const tooLong = () => badRequest(SERVER_MESSAGES.messageTooLong, { text: [SERVER_MESSAGES.messageTooLong] });

/** The multipart stream's own errors (a truncated file, too many parts, a malformed body) as 4xx bodies. */
function formError(error: unknown): unknown {
  if (error instanceof ApiHttpError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiHttpError(413, 'file_too_large', SERVER_MESSAGES.imageTooLarge, {
        image: [SERVER_MESSAGES.imageTooLarge],
      });
    case 'FST_FILES_LIMIT':
      return badRequest(SERVER_MESSAGES.tooManyFiles, { image: [SERVER_MESSAGES.tooManyFiles] });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiHttpError(413, 'body_too_large', SERVER_MESSAGES.bodyTooLarge);
    default:
      // Busboy's "Malformed part header", "Unexpected end of form", a prototype field name and the like.
      return badRequest(SERVER_MESSAGES.invalidMultipart, undefined, 'invalid_multipart');
  }
}
