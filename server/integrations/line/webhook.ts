/**
 * The LINE side of the Messaging API webhook (docs/architecture.md): the shape of a delivery, and the two calls the
 * webhook makes back to LINE (a user's profile, an image message's content). Plain fetch with a timeout for
 * the same reason as messaging.ts: the SDK's fetch cannot be cancelled.
 */
import { z } from 'zod';
import type { Env } from '../../env';

const LINE_DEFAULT_API_BASE = 'https://api.line.me';
const LINE_DEFAULT_DATA_API_BASE = 'https://api-data.line.me';
/** Bounds the slowest part of a delivery: LINE waits for our answer and recommends a quick one. */
const DEFAULT_WEBHOOK_FETCH_TIMEOUT_MS = 5_000;

const lineId = z.string().min(1).max(100);

const sourceSchema = z.looseObject({ type: z.string().min(1), userId: lineId.optional() });

const messageSchema = z.looseObject({
  id: lineId,
  type: z.string().min(1),
  text: z.string().max(20_000).optional(),
  contentProvider: z.looseObject({ type: z.string() }).optional(),
});

const eventSchema = z
  .looseObject({
    type: z.string().min(1).max(50),
    webhookEventId: lineId,
    timestamp: z.number().int().nonnegative().max(8_640_000_000_000_000),
    mode: z.string().optional(),
    source: sourceSchema.optional(),
    deliveryContext: z.looseObject({ isRedelivery: z.boolean() }).optional(),
    /** Answers the event once through the Reply API (free, unlike a push). */
    replyToken: z.string().max(200).optional(),
    message: messageSchema.optional(),
  })
  .refine((event) => event.type !== 'message' || event.message !== undefined, { path: ['message'] })
  .refine((event) => event.message?.type !== 'text' || typeof event.message.text === 'string', {
    path: ['message', 'text'],
  });

const deliverySchema = z.looseObject({
  destination: z.string().max(100).optional(),
  events: z.array(eventSchema),
});

export type LineWebhookEvent = z.infer<typeof eventSchema>;

/** The events of a delivery's raw bytes, or null when they are not a LINE delivery (invalid UTF-8 or JSON, wrong shape). */
export function parseLineWebhookBody(raw: Buffer): LineWebhookEvent[] | null {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return null;
  }
  const parsed = deliverySchema.safeParse(json);
  return parsed.success ? parsed.data.events : null;
}

export interface LineProfile {
  displayName: string;
  pictureUrl: string;
}

/** An image LINE did not hand over (error status, timeout, too large). */
class LineContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LineContentError';
  }
}

export interface LineBotApi {
  /** GET {api}/v2/bot/profile/{userId}; null when LINE does not give it (blocked, unknown, down). */
  getProfile(userId: string): Promise<LineProfile | null>;
  /** GET {data api}/v2/bot/message/{id}/content, at most `maxBytes`. Throws LineContentError. */
  getMessageContent(messageId: string, maxBytes: number): Promise<Buffer>;
}

/**
 * Message content lives on LINE's data host. Anything other than the production API base (the tests' fake,
 * a proxy) serves both from one base.
 */
function lineDataApiBase(apiBase: string): string {
  const base = apiBase.replace(/\/+$/, '');
  return base === LINE_DEFAULT_API_BASE ? LINE_DEFAULT_DATA_API_BASE : base;
}

/** Null without a Messaging API access token: nothing can be asked of LINE then. */
export function createLineBotApi(
  env: Pick<Env, 'LINE_MESSAGING_ACCESS_TOKEN' | 'LINE_API_BASE'>,
  options: { timeoutMs?: number } = {},
): LineBotApi | null {
  const token = env.LINE_MESSAGING_ACCESS_TOKEN;
  if (!token) return null;
  const apiBase = env.LINE_API_BASE.replace(/\/+$/, '');
  const dataBase = lineDataApiBase(apiBase);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_FETCH_TIMEOUT_MS;
  const headers = { authorization: `Bearer ${token}` };

  async function getProfile(userId: string): Promise<LineProfile | null> {
    try {
      const response = await fetch(`${apiBase}/v2/bot/profile/${encodeURIComponent(userId)}`, {
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return null;
      }
      const body = (await response.json()) as { displayName?: unknown; pictureUrl?: unknown };
      return {
        displayName: typeof body.displayName === 'string' ? body.displayName.slice(0, 200) : '',
        pictureUrl: typeof body.pictureUrl === 'string' && /^https?:\/\//.test(body.pictureUrl) ? body.pictureUrl : '',
      };
    } catch {
      return null;
    }
  }

  async function getMessageContent(messageId: string, maxBytes: number): Promise<Buffer> {
    try {
      const response = await fetch(`${dataBase}/v2/bot/message/${encodeURIComponent(messageId)}/content`, {
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new LineContentError(`LINE content answered ${response.status}`);
      }
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > maxBytes) {
        await response.body.cancel();
        throw new LineContentError(`LINE content too large: ${declared} bytes`);
      }
      // Counted while reading: a missing or false Content-Length must not let a huge body into memory.
      const chunks: Uint8Array[] = [];
      let total = 0;
      for await (const chunk of response.body) {
        total += chunk.byteLength;
        if (total > maxBytes) throw new LineContentError(`LINE content too large: over ${maxBytes} bytes`);
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof LineContentError) throw error;
      throw new LineContentError(`LINE content fetch failed: ${(error as Error).message}`);
    }
  }

  return { getProfile, getMessageContent };
}
