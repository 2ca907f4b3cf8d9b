import { z } from 'zod';
import { MESSAGES } from '../messages';

/** docs/architecture.md error body: a Japanese `detail`, a machine `code`, and per-field messages for bad input. */
// eslint-disable-next-line import/no-unused-modules -- the list its type is read from, kept as the one source
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

/** An https URL (a map, a picture), or empty; anything else carries `message`. */
export const httpsUrlOrEmpty = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(500, { error: MESSAGES.tooLong })
    .refine(
      (value) => {
        if (value === '') return true;
        try {
          const url = new URL(value);
          return url.protocol === 'https:' && Boolean(url.hostname);
        } catch {
          return false;
        }
      },
      { error: message },
    );

/** A database id in a query string or a body. */
const id = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * Option ids in a query string: repeated (`option_ids=1&option_ids=2`) or comma-separated (`option_ids=1,2`);
 * in a JSON body, an array. At most 20, each at most once.
 */
export const optionIdsSchema = z.preprocess(
  (value) => {
    const list = Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value];
    return list.flatMap((item) => (typeof item === 'string' ? item.split(',').filter((part) => part !== '') : [item]));
  },
  z
    .array(id, { error: MESSAGES.optionNotFound })
    .max(20, { error: MESSAGES.optionNotFound })
    .refine((ids) => new Set(ids).size === ids.length, { error: MESSAGES.optionNotFound }),
);

/** 指名: a staff member's id; absent (or empty) = 指名なし, the salon assigns someone free. */
export const nominatedStaffSchema = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  id.optional(),
);

// Zod's own messages (type errors, formats) in Japanese, on both sides of the wire.
z.config(z.locales.ja());
