import { z } from 'zod';
import { requiredText } from './common';

/** POST /api/token/ */
export const passwordLoginRequestSchema = z.object({
  username: requiredText(150),
  password: requiredText(1024),
});
export type PasswordLoginRequest = z.infer<typeof passwordLoginRequestSchema>;

/** The answer of every login and of refresh: docs/architecture.md#screens-and-texts (SimpleJWT shape). */
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
  is_superuser: z.boolean(),
  is_line_linked: z.boolean(),
});
export type AdminProfile = z.infer<typeof adminProfileSchema>;

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
});
export type CustomerProfile = z.infer<typeof customerProfileSchema>;
