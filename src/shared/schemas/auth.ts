import { z } from 'zod';
import { requiredText } from './common';
import { STAFF_ROLES } from '../roles';

/** POST /api/token/ */
export const passwordLoginRequestSchema = z.object({
  username: requiredText(150),
  password: requiredText(1024),
});

/** The answer of every login and of refresh: docs/screens.md#customer-session (SimpleJWT shape). */
export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** POST /api/token/refresh/ */
export const refreshRequestSchema = z.object({ refresh: requiredText(4096) });

/** GET /api/admin/me/ */
export const adminProfileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  email: z.string(),
  /** オーナー, 受付 or ネイリスト (src/shared/roles.ts); is_superuser is true exactly for the owner. */
  role: z.enum(STAFF_ROLES),
  is_superuser: z.boolean(),
  is_line_linked: z.boolean(),
  /**
   * The staff member's secret iCalendar URL (made on first ask, and again after a password reset or a deactivation;
   * POST /api/admin/me/calendar-feed/ replaces it).
   */
  calendar_feed_url: z.string(),
  /** Whether that URL's feed shows customers' phone numbers (chosen with a new URL). */
  calendar_feed_includes_phone: z.boolean(),
});
export type AdminProfile = z.infer<typeof adminProfileSchema>;

/**
 * POST /api/admin/me/calendar-feed/: a new URL, with or without customers' phone numbers (absent: as the URL it
 * replaces).
 */
// No body at all (the client of before this choice) arrives as null.
export const calendarFeedRequestSchema = z.object({ include_phone: z.boolean().optional() }).nullish();

/** POST /api/admin/me/calendar-feed/: the new URL (the old one no longer works). */
export const calendarFeedSchema = z.object({
  calendar_feed_url: z.string(),
  calendar_feed_includes_phone: z.boolean(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** POST /api/line/callback/: the browser sends the code and the PKCE verifier and nonce it made. */
export const lineCallbackRequestSchema = z.object({
  code: requiredText(512),
  code_verifier: z.string().min(43).max(128).optional(),
  nonce: z.string().max(256).optional(),
  redirect_uri: z.string().max(2048).optional(),
});
export type LineCallbackRequest = z.infer<typeof lineCallbackRequestSchema>;

/** GET /api/me/ */
export const customerProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  furigana: z.string(),
  email: z.string(),
  phone_number: z.string(),
  line_display_name: z.string(),
  line_picture_url: z.string(),
  /** Whether they get 再来店のご案内 by LINE (server/outbox/rebooking.ts); absent in answers cached before it existed. */
  rebook_prompts_enabled: z.boolean().optional(),
});
export type CustomerProfile = z.infer<typeof customerProfileSchema>;

/** PUT /api/me/rebook-prompts/: the customer switches their 再来店のご案内 on or off (the link in one leads here). */
export const rebookPromptsSettingSchema = z.object({ enabled: z.boolean() });
export type RebookPromptsSetting = z.infer<typeof rebookPromptsSettingSchema>;
