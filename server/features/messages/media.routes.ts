import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import type { MediaStore } from '../../integrations/storage/media-store';
import { sendStoredImage } from '../../integrations/storage/stored-image-reply';
import type { ZodApp } from '../../zod-app';

/**
 * GET /media/:name: stored images, public (LINE fetches them without credentials; the names are 128 random
 * bits). Only names of the store's own shape exist, so no path can leave the upload directory. The type is
 * the one sniffed at upload, the browser must not guess another, and the file can run nothing (CSP).
 */
export function registerMediaRoutes(app: ZodApp, media: MediaStore) {
  app.get('/media/:name', {
    config: { auth: 'public' },
    schema: { params: z.object({ name: z.string() }) },
    handler: async (request, reply) => {
      const found = await media.locate(request.params.name);
      if (!found) return reply.code(404).send({ detail: MESSAGES.notFound, code: 'not_found' });
      // A name is never reused for other bytes.
      return sendStoredImage(reply, found, { cacheControl: 'public, max-age=31536000, immutable' });
    },
  });
}
