import { z } from 'zod';
import { MESSAGES } from '../messages';
import { lineCallbackRequestSchema } from './auth';
import { emailSchema, furiganaSchema, phoneSchema } from './reservations';

/** The list answers at most this many rows per page (X-Total-Count says how many matched). */
const CUSTOMER_PAGE_MAX = 1000;
export const CUSTOMER_PAGE_DEFAULT = 100;

// The search form sends every field, filled or not: an empty value means "no filter", never "match ''".
const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const searchText = z.preprocess(emptyAsUndefined, z.string().trim().max(100, { error: MESSAGES.tooLong }).optional());
const id = z.coerce.number().int().positive().max(2_147_483_647);

/** GET /api/admin/customers/ */
export const customerListQuerySchema = z.object({
  name: searchText,
  email: searchText,
  phone_number: searchText,
  /** Superuser only: the customers in that staff member's scope. Ignored for everyone else. */
  user_id: z.preprocess(emptyAsUndefined, id.optional()),
  /** Offline delta sync (docs/architecture.md#offline-design): only rows changed after this instant. */
  updated_since: z.preprocess(
    emptyAsUndefined,
    z.iso.datetime({ offset: true, error: MESSAGES.invalidDateTime }).optional(),
  ),
  limit: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(CUSTOMER_PAGE_MAX).default(CUSTOMER_PAGE_DEFAULT),
  ),
  offset: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10_000_000).default(0)),
});
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

/** A customer as the admin screens show it (docs/screens.md#customer-detail "Customer (admin)"). */
export const adminCustomerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  furigana: z.string(),
  email: z.string(),
  phone_number: z.string(),
  notes: z.string(),
  line_user_id: z.string().nullable(),
  line_display_name: z.string(),
  line_picture_url: z.string(),
  is_line_linked: z.boolean(),
  assigned_staff_id: z.number().int().nullable(),
  /** 再来店のご案内 by LINE (server/outbox/rebooking.ts); absent in copies cached offline before it existed. */
  rebook_prompts_enabled: z.boolean().optional(),
  /** 無断欠席 and 直前キャンセル so far (server/db/incidents.ts); absent in copies cached offline before they existed. */
  no_show_count: z.number().int().optional(),
  late_cancel_count: z.number().int().optional(),
  /** Their next online booking would wait for staff approval under the salon's rule as it is now. */
  needs_approval: z.boolean().optional(),
  /** ISO instant: the client hands the newest one back as `updated_since`. */
  updated_at: z.string(),
});
export type AdminCustomer = z.infer<typeof adminCustomerSchema>;

export const customerIdParamsSchema = z.object({ id });

/** PATCH /api/admin/customers/{id}/: the memo and the contact fields; absent fields stay as they are. */
export const customerPatchRequestSchema = z.object({
  notes: z.string({ error: MESSAGES.invalidInput }).max(5000, { error: MESSAGES.tooLong }).optional(),
  name: z
    .string({ error: MESSAGES.requiredMissing })
    .trim()
    .min(1, { error: MESSAGES.requiredMissing })
    .max(100, { error: MESSAGES.tooLong })
    .optional(),
  furigana: furiganaSchema.optional(),
  email: z.union([z.literal(''), emailSchema], { error: MESSAGES.emailInvalid }).optional(),
  phone_number: phoneSchema.optional(),
  /** False: the customer asked for no 再来店のご案内. */
  rebook_prompts_enabled: z.boolean({ error: MESSAGES.invalidInput }).optional(),
});
export type CustomerPatchRequest = z.infer<typeof customerPatchRequestSchema>;

/** POST /api/admin/customers/{id}/generate-line-link/ */
export const customerLineLinkSchema = z.object({
  link_url: z.string(),
  /** Ready to paste to the customer: the URL and how long it stays valid. */
  message: z.string(),
  /** Salon-local `yyyy-MM-ddTHH:mm:ss`. */
  expires_at: z.string(),
});
export type CustomerLineLink = z.infer<typeof customerLineLinkSchema>;

/** The link token of /link-customer/{token}: 128 random bits, base64url (22 characters). */
const linkTokenSchema = z
  .string({ error: MESSAGES.requiredMissing })
  .trim()
  .min(1, { error: MESSAGES.requiredMissing })
  .max(128);

export const linkTokenParamsSchema = z.object({ token: z.string().max(128) });

/** GET /api/link-customer/{token}/ */
export const customerLinkStatusSchema = z.object({ valid: z.literal(true), expires_at: z.string() });

/** POST /api/link-customer/: the link token plus the LINE Login answer the page received. */
export const customerLinkRequestSchema = lineCallbackRequestSchema.extend({ token: linkTokenSchema });
export type CustomerLinkRequest = z.infer<typeof customerLinkRequestSchema>;
