import { z } from 'zod';
import { MESSAGES } from '../messages';

/** カルテ (visit notes and photos) and customers' reference designs: server/features/karte. */

/** Photos a staff member may keep of one completed visit. */
export const VISIT_PHOTO_LIMIT = 10;
/** Reference designs a customer may attach to one booking. */
export const REFERENCE_PHOTO_LIMIT = 3;
export const VISIT_NOTE_MAX_LENGTH = 2000;

const id = z.coerce.number({ error: MESSAGES.invalidInput }).int().positive().max(2_147_483_647);

/**
 * One photo. `url` and `thumbnail_url` are signed, short-lived and same-origin (no bearer token is needed, so they
 * work in `<img src>`); they are handed only to whoever may see the photo.
 */
export const visitPhotoSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['visit', 'reference']),
  url: z.string(),
  thumbnail_url: z.string(),
  uploaded_by: z.enum(['staff', 'customer']),
  /** ISO 8601 instant. */
  created_at: z.string(),
});
export type VisitPhoto = z.infer<typeof visitPhotoSchema>;

/** GET /api/admin/reservations/{number}/karte/: the note and every photo of the reservation (references too). */
export const karteSchema = z.object({
  reservation_number: z.string(),
  status: z.string(),
  note: z.string(),
  note_updated_at: z.string().nullable(),
  photos: z.array(visitPhotoSchema),
});
export type Karte = z.infer<typeof karteSchema>;

export const visitNoteRequestSchema = z.object({
  note: z.string().max(VISIT_NOTE_MAX_LENGTH, MESSAGES.visitNoteTooLong(VISIT_NOTE_MAX_LENGTH)),
});
export const visitNoteSchema = z.object({ note: z.string(), updated_at: z.string() });

/** One completed visit of GET /api/admin/customers/{id}/visits/ (newest first). */
export const customerVisitSchema = z.object({
  reservation_number: z.string(),
  /** ISO 8601 with the salon's offset. */
  start_time: z.string(),
  service_name: z.string(),
  staff_name: z.string(),
  note: z.string(),
  photos: z.array(visitPhotoSchema),
});
export type CustomerVisit = z.infer<typeof customerVisitSchema>;

export const photoIdParamsSchema = z.object({ id });
export const photoFileParamsSchema = z.object({ id, variant: z.enum(['full', 'thumb']) });
// Missing or wrong, the answer is the same 404: nothing tells a caller which part failed.
export const photoFileQuerySchema = z.object({
  expires: z.string().max(20).default(''),
  sig: z.string().max(100).default(''),
});
