import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import {
  customerVisitSchema,
  karteSchema,
  photoFileParamsSchema,
  photoFileQuerySchema,
  photoIdParamsSchema,
  visitNoteRequestSchema,
  visitNoteSchema,
  visitPhotoSchema,
} from '#src/shared/schemas/karte';
import { customerIdParamsSchema } from '#src/shared/schemas/messages';
import { reservationNumberParamsSchema } from '#src/shared/schemas/reservations';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../http-errors';
import { createPhotoUrlSigner, karteDirOf } from '../../integrations/storage/karte-photos';
import { createMediaStore } from '../../integrations/storage/media-store';
import { sendStoredImage } from '../../integrations/storage/stored-image-reply';
import { customerOf, staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { createKarteService } from './karte.service';
import { readPhotoForm } from '../../integrations/storage/photo-form';
import { createUploadLimiter } from './upload-limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A reservation number that is not even a UUID names nothing: 404, like any unknown number. */
function checkedNumber(params: { reservationNumber: string }): string {
  if (!UUID.test(params.reservationNumber)) throw notFound(MESSAGES.reservationNotFound);
  return params.reservationNumber.toLowerCase();
}

/**
 * The caller-scoped Idempotency-Key of an upload (`staff:3 <key>`), recorded on the photo row by the service.
 * These routes opt out of the generic plugin (`idempotency: false`), which refuses keys on multipart bodies.
 */
function uploadKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw badRequest('Idempotency-Keyの形式が正しくありません。', undefined, 'invalid_idempotency_key');
  }
  const caller = request.staff ? `staff:${request.staff.id}` : `customer:${request.customer!.id}`;
  return `${caller} ${key}`;
}

/** カルテ notes and photos (staff), reference designs (customers), and the signed photo URLs. */
export function registerKarteRoutes(app: ZodApp, ctx: AppContext, options: { secret: string }) {
  const karte = createKarteService({
    db: ctx.db,
    salonId: ctx.salonId,
    timeZone: ctx.env.SALON_TZ,
    now: ctx.now,
    photos: createMediaStore({ dir: karteDirOf(ctx.env.uploadDir), publicUrl: ctx.publicUrl }),
    urls: createPhotoUrlSigner({ secret: options.secret, now: ctx.now }),
    uploadLimits: createUploadLimiter({
      db: ctx.db,
      now: ctx.now,
      limits: {
        customerPerWindow: ctx.env.PHOTO_UPLOAD_RATE_LIMIT,
        windowSeconds: ctx.env.PHOTO_UPLOAD_RATE_WINDOW_SECONDS,
      },
    }),
  });

  app.get('/api/admin/reservations/:reservationNumber/karte/', {
    config: { auth: 'staff' },
    schema: { params: reservationNumberParamsSchema, response: { 200: karteSchema } },
    handler: (request) => karte.karte(staffOf(request), checkedNumber(request.params)),
  });

  // Multipart: read in the handler (readPhotoForm), after the scope check.
  app.post('/api/admin/reservations/:reservationNumber/photos/', {
    config: { auth: 'staff', idempotency: false },
    schema: { params: reservationNumberParamsSchema, response: { 201: visitPhotoSchema } },
    handler: async (request, reply) => {
      const staff = staffOf(request);
      const key = uploadKeyOf(request);
      const reservation = await karte.reservationForStaff(staff, checkedNumber(request.params));
      const bytes = await readPhotoForm(request);
      const result = await karte.uploadAsStaff(staff, reservation, bytes, key);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(result.photo);
    },
  });

  app.delete('/api/admin/visit-photos/:id/', {
    config: { auth: 'staff' },
    schema: { params: photoIdParamsSchema },
    handler: async (request, reply) => {
      await karte.deletePhoto(staffOf(request), request.params.id);
      return reply.code(204).send();
    },
  });

  app.put('/api/admin/reservations/:reservationNumber/visit-note/', {
    config: { auth: 'staff' },
    schema: { params: reservationNumberParamsSchema, body: visitNoteRequestSchema, response: { 200: visitNoteSchema } },
    handler: (request) => karte.saveNote(staffOf(request), checkedNumber(request.params), request.body.note),
  });

  app.get('/api/admin/customers/:id/visits/', {
    config: { auth: 'staff' },
    schema: { params: customerIdParamsSchema, response: { 200: z.array(customerVisitSchema) } },
    handler: (request) => karte.customerVisits(staffOf(request), request.params.id),
  });

  app.post('/api/reservations/:reservationNumber/photos/', {
    config: { auth: 'customer', idempotency: false },
    schema: { params: reservationNumberParamsSchema, response: { 201: visitPhotoSchema } },
    handler: async (request, reply) => {
      const customerId = customerOf(request).id;
      const key = uploadKeyOf(request);
      const reservation = await karte.reservationForCustomer(customerId, checkedNumber(request.params));
      const bytes = await readPhotoForm(request);
      const result = await karte.uploadAsCustomer(customerId, reservation, bytes, key);
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(result.photo);
    },
  });

  app.get('/api/reservations/:reservationNumber/photos/', {
    config: { auth: 'customer' },
    schema: { params: reservationNumberParamsSchema, response: { 200: z.array(visitPhotoSchema) } },
    handler: (request) => karte.customerPhotos(customerOf(request).id, checkedNumber(request.params)),
  });

  // The signature in the URL is the credential (an <img> sends no bearer token); anything wrong is 404.
  app.get('/api/visit-photos/:id/:variant/', {
    config: { auth: 'public' },
    schema: { params: photoFileParamsSchema, querystring: photoFileQuerySchema },
    handler: async (request, reply) => {
      const { id, variant } = request.params;
      const found = await karte.photoFile(id, variant, request.query.expires, request.query.sig);
      if (!found) return reply.code(404).send({ detail: MESSAGES.notFound, code: 'not_found' });
      // Private to this browser, and no longer than the URL itself is valid.
      return sendStoredImage(reply, found, { cacheControl: 'private, max-age=3600', referrerPolicy: 'no-referrer' });
    },
  });
}
