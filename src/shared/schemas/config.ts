import { z } from 'zod';
import { publicSalonSettingsSchema } from './settings';

/** GET /api/config/: what the browser needs at run time, so that one build serves every deployment. */
export const publicConfigSchema = z.object({
  salon_name: z.string(),
  line: z.object({
    mode: z.enum(['dev', 'live']),
    login_channel_id: z.string(),
    authorize_url: z.string(),
  }),
  /** The salon's booking rules, for text such as the cancellation deadline (docs/screens.md#settings). */
  settings: publicSalonSettingsSchema,
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/salons/ */
export const salonSchema = z.object({ id: z.number().int(), name: z.string() });
export type Salon = z.infer<typeof salonSchema>;
