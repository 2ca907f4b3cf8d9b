import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { MESSAGES } from '../messages';
import { STAFF_ROLES } from '../roles';
import { lineCallbackRequestSchema } from './auth';
import { httpsUrlOrEmpty, requiredText } from './common';
import { wholeNumber } from './menu';
import { emailSchema } from './reservations';

const staffRoleSchema = z.enum(STAFF_ROLES, { error: MESSAGES.staffRoleInvalid });

/** A staff account as the staff screens show it (docs/screens.md#staff-list "Staff user"); never the password hash. */
export const staffUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  email: z.string(),
  /** オーナー, 受付 or ネイリスト (src/shared/roles.ts). */
  role: z.enum(STAFF_ROLES),
  /** True exactly for the owner (kept for clients that read only this). */
  is_superuser: z.boolean(),
  is_active: z.boolean(),
  is_line_linked: z.boolean(),
  /** 指名: whether customers can book them, their 指名料 (yen), profile and picture (GET /api/staff/ shows these). */
  is_bookable: z.boolean(),
  nomination_fee: z.number().int(),
  profile: z.string(),
  picture_url: z.string(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/** Where the app serves an uploaded staff photo (POST /api/admin/users/{id}/picture/): `${STAFF_PICTURE_PATH}<name>`. */
export const STAFF_PICTURE_PATH = '/api/staff-pictures/';

export const staffIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Passwords are not trimmed: a space is a character like any other. */
const passwordSchema = z
  .string({ error: MESSAGES.fieldRequired })
  .min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordTooShort })
  .max(1024, { error: MESSAGES.tooLong });

/** POST /api/admin/users/ (superuser) */
export const createStaffRequestSchema = z.object({
  username: requiredText(150),
  full_name: requiredText(150),
  email: emailSchema,
  password: passwordSchema,
  /** Absent: from is_superuser (true = owner, else nailist). */
  role: staffRoleSchema.optional(),
  is_superuser: z.boolean().optional().default(false),
});
export type CreateStaffRequest = z.infer<typeof createStaffRequestSchema>;

/** PATCH /api/admin/users/{id}/ (superuser): absent fields stay as they are. */
export const patchStaffRequestSchema = z.object({
  full_name: requiredText(150).optional(),
  email: emailSchema.optional(),
  role: staffRoleSchema.optional(),
  /** The older way to set the role: true = owner, false = nailist (an owner) or unchanged. `role` wins. */
  is_superuser: z.boolean().optional(),
  is_active: z.boolean().optional(),
  password: passwordSchema.optional(),
  is_bookable: z.boolean().optional(),
  nomination_fee: wholeNumber(MESSAGES.priceInvalid, { min: 0, max: 100_000 }).optional(),
  profile: z.string().trim().max(200, { error: MESSAGES.profileTooLong }).optional(),
  picture_url: httpsUrlOrEmpty(MESSAGES.pictureUrlInvalid).optional(),
});
export type PatchStaffRequest = z.infer<typeof patchStaffRequestSchema>;

/** POST /api/admin/users/{id}/generate-line-link/ */
export const staffLineLinkSchema = z.object({
  registration_link: z.string(),
  /** Salon-local `yyyy-MM-ddTHH:mm:ss`. */
  expires_at: z.string(),
});
export type StaffLineLink = z.infer<typeof staffLineLinkSchema>;

/** POST /api/admin/link-line/: the registration token (held in the browser session) and the LINE answer. */
export const linkLineRequestSchema = lineCallbackRequestSchema.extend({
  token: requiredText(128),
});
export type LinkLineRequest = z.infer<typeof linkLineRequestSchema>;

/** POST /api/admin/login-line/ */
export const loginLineRequestSchema = lineCallbackRequestSchema;
