import { z } from 'zod';
import { MESSAGES } from '../messages';

/** docs/architecture.md error body: a Japanese `detail`, a machine `code`, and per-field messages for bad input. */
export const apiErrorSchema = z.object({
  detail: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** A required, trimmed, bounded text field. Bounded so that huge strings are a 400, never a 500. */
export const requiredText = (max = 200) =>
  z
    .string({ error: MESSAGES.fieldRequired })
    .trim()
    .min(1, { error: MESSAGES.fieldRequired })
    .max(max, { error: MESSAGES.tooLong });

export const optionalText = (max = 200) => z.string().trim().max(max, { error: MESSAGES.tooLong });

// Zod's own messages (type errors, formats) in Japanese, on both sides of the wire.
z.config(z.locales.ja());
