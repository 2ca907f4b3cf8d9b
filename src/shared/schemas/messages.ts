import { z } from 'zod';
import { MESSAGES } from '../messages';
import { localDateSchema } from './reservations';

/** LINE's limit for one text message; the send forms share it. */
export const MESSAGE_MAX_LENGTH = 5000;

const id = z.coerce.number({ error: MESSAGES.invalidInput }).int().positive().max(2_147_483_647);

export const customerIdParamsSchema = z.object({ id });

/**
 * One entry of the message history (docs/screens.md#message-history Message). Ids are strings that cannot collide between the two
 * sources: `m<id>` for a direct message (line_messages), `b<id>` for a bulk send (stored once, shown once).
 */
export const lineMessageSchema = z.object({
  id: z.string(),
  /** ISO 8601 with the salon's offset, e.g. 2025-06-01T10:00:00+09:00. */
  sent_at: z.string(),
  sender_type: z.enum(['admin', 'customer']),
  /** Null for a bulk send. */
  customer_id: z.number().int().nullable(),
  /** A bulk send reads 一斉送信（N名）. */
  customer_name: z.string(),
  customer_line_picture_url: z.string(),
  message: z.string(),
  image_url: z.string(),
  /** Set for a bulk send, null for a direct message. */
  broadcast_id: z.number().int().nullable(),
  /** How many customers a bulk send went to; null for a direct message. */
  recipient_count: z.number().int().nullable(),
});
export type LineMessageItem = z.infer<typeof lineMessageSchema>;

const HISTORY_DEFAULT_LIMIT = 200;
const HISTORY_MAX_LIMIT = 1000;

/** GET /api/admin/line-history/; empty values are left out by the browser (docs/screens.md#message-history). */
export const lineHistoryQuerySchema = z.object({
  customer_id: id.optional(),
  start_date: localDateSchema.optional(),
  end_date: localDateSchema.optional(),
  query: z.string().trim().max(200, { error: MESSAGES.tooLong }).optional(),
  /** Superuser only: whose view; ignored for anyone else. */
  user_id: id.optional(),
  limit: z.coerce.number().int().min(1).max(HISTORY_MAX_LIMIT).default(HISTORY_DEFAULT_LIMIT),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type LineHistoryQuery = z.infer<typeof lineHistoryQuerySchema>;

/** POST /api/admin/send-bulk-message/. No recipients: 200 with broadcast_id null and nothing stored. */
export const bulkSendResponseSchema = z.object({
  broadcast_id: z.number().int().nullable(),
  /** Customers the message was queued for. */
  queued: z.number().int(),
  /** Multicast requests (at most 500 customers each). */
  batches: z.number().int(),
});
export type BulkSendResponse = z.infer<typeof bulkSendResponseSchema>;
