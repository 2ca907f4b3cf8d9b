import { z } from 'zod';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import { tokenPairSchema } from '#src/shared/schemas/auth';
import {
  createStaffRequestSchema,
  linkLineRequestSchema,
  loginLineRequestSchema,
  patchStaffRequestSchema,
  staffIdParamsSchema,
  staffLineLinkSchema,
  staffUserSchema,
} from '#src/shared/schemas/staff';
import type { AppContext } from '../../context';
import { ApiHttpError } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { MESSAGES } from '#src/shared/messages';
import { createMediaStore } from '../../integrations/storage/media-store';
import { readPhotoForm } from '../../integrations/storage/photo-form';
import { sendStoredImage } from '../../integrations/storage/stored-image-reply';
import { createStaffPictures, staffPictureDirOf } from './staff-picture';
import { createStaffService, presentStaff } from './staff.service';

/** docs/screens.md#staff-detail (superuser only), the staff LINE link and the staff LINE login. */
export function registerStaffRoutes(app: ZodApp, ctx: AppContext) {
  const service = createStaffService(ctx);

  app.get('/api/admin/users/', {
    config: { auth: 'superuser' },
    schema: { response: { 200: z.array(staffUserSchema) } },
    handler: () => service.list(),
  });

  app.post('/api/admin/users/', {
    config: { auth: 'superuser' },
    schema: { body: createStaffRequestSchema, response: { 201: staffUserSchema } },
    handler: async (request, reply) => reply.code(201).send(await service.create(request.body)),
  });

  app.get('/api/admin/users/:id/', {
    config: { auth: 'superuser' },
    schema: { params: staffIdParamsSchema, response: { 200: staffUserSchema } },
    handler: (request) => service.get(request.params.id),
  });

  app.patch('/api/admin/users/:id/', {
    config: { auth: 'superuser' },
    schema: { params: staffIdParamsSchema, body: patchStaffRequestSchema, response: { 200: staffUserSchema } },
    handler: (request) => service.update(staffOf(request), request.params.id, request.body),
  });

  const pictures = createStaffPictures({
    db: ctx.db,
    salonId: ctx.salonId,
    store: createMediaStore({ dir: staffPictureDirOf(ctx.env.uploadDir), publicUrl: ctx.publicUrl }),
  });

  // Multipart, read in the handler (readPhotoForm) after the owner check; the answer is the staff object.
  app.post('/api/admin/users/:id/picture/', {
    config: { auth: 'superuser', idempotency: false },
    schema: { params: staffIdParamsSchema, response: { 200: staffUserSchema } },
    handler: async (request) => {
      const bytes = await readPhotoForm(request);
      return presentStaff(await pictures.upload(request.params.id, bytes));
    },
  });

  // Public like GET /api/staff/, which names them; a name is never reused for other bytes.
  app.get('/api/staff-pictures/:name', {
    config: { auth: 'public' },
    schema: { params: z.object({ name: z.string() }) },
    handler: async (request, reply) => {
      const found = await pictures.locate(request.params.name);
      if (!found) return reply.code(404).send({ detail: MESSAGES.notFound, code: 'not_found' });
      return sendStoredImage(reply, found, { cacheControl: 'public, max-age=31536000, immutable' });
    },
  });

  app.post('/api/admin/users/:id/generate-line-link/', {
    config: { auth: 'superuser' },
    schema: { params: staffIdParamsSchema, response: { 201: staffLineLinkSchema } },
    handler: async (request, reply) =>
      reply.code(201).send(await service.generateLineLink(staffOf(request), request.params.id)),
  });

  // The registration token in the body authenticates: the staff member is not signed in yet.
  app.post('/api/admin/link-line/', {
    config: { auth: 'public', idempotency: false },
    schema: { body: linkLineRequestSchema, response: { 200: tokenPairSchema } },
    handler: (request) => service.linkLine(request.body),
  });

  app.post('/api/admin/login-line/', {
    config: {
      auth: 'public',
      // Token answers are never kept for an Idempotency-Key replay (server/plugins/idempotency.ts).
      idempotency: false,
      // Limited like the password login (POST /api/token/); there is no login ID here, so per address.
      rateLimit: {
        max: ctx.env.LOGIN_RATE_LIMIT,
        timeWindow: ctx.env.LOGIN_RATE_WINDOW_SECONDS * 1000,
        keyGenerator: (request) => `login-line|${request.ip}`,
        errorResponseBuilder: () => new ApiHttpError(429, 'throttled', SERVER_MESSAGES.tooManyLoginAttempts),
      },
    },
    schema: { body: loginLineRequestSchema, response: { 200: tokenPairSchema } },
    handler: (request) => service.loginLine(request.body),
  });
}
