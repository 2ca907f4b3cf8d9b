/**
 * LINE Messaging API pushes and multicasts (docs/architecture.md). Live: POST {LINE_API_BASE}/v2/bot/message/push
 * (one user) or /multicast (up to 500 users, bulk sends) with the outbox row's retry key, so that LINE accepts
 * a message once however often the worker retries it; /reply answers a customer's message with its event's reply
 * token (free: not counted in the plan's monthly pushes). Without a Messaging API token the app sends to the
 * emulator's inbox (inbox.ts) instead: pusher.ts chooses, so that this module and the inbox know only each
 * other's types.
 *
 * Plain fetch rather than @line/bot-sdk's MessagingApiClient: the SDK (v10) takes a baseURL, but its fetch
 * carries no AbortSignal, so a LINE endpoint that never answers could only be raced, never cancelled, and
 * every timed-out attempt would leave a request hanging. The SDK still supplies the message types.
 */
import type { messagingApi } from '@line/bot-sdk';
import type { Env } from '../../env';

export type LineMessage = messagingApi.Message;

export interface LinePush {
  /** A LINE user id. */
  to: string;
  messages: LineMessage[];
  /** A UUID, the same on every attempt of one message. */
  retryKey: string;
}

/** LINE accepts at most this many user ids in one multicast request. */
export const MULTICAST_MAX_RECIPIENTS = 500;

export interface LineMulticast {
  /** LINE user ids, at most MULTICAST_MAX_RECIPIENTS. */
  to: string[];
  messages: LineMessage[];
  /** A UUID, the same on every attempt of one request. */
  retryKey: string;
}

/** An answer to one webhook event (LINE's Reply API): one use per token, within a minute of the event. */
export interface LineReply {
  replyToken: string;
  messages: LineMessage[];
  /** The user who sent the event. LINE does not take it (the token says who); the emulator's inbox shows it. */
  to: string;
}

export interface LinePusher {
  mode: 'live' | 'dev';
  push(input: LinePush): Promise<void>;
  /** Same errors as push. Optional so that a stand-in transport may leave it out; the real ones have it. */
  multicast?(input: LineMulticast): Promise<void>;
  /** Same errors as push. Optional for the same reason as multicast. */
  reply?(input: LineReply): Promise<void>;
}

/** A push LINE did not accept. `permanent`: retrying the same request cannot succeed. */
export class LinePushError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'LinePushError';
  }
}

const DEFAULT_LINE_TIMEOUT_MS = 10_000;

/** The Messaging API transport: pushes, multicasts and replies sent to LINE with the channel's access token. */
export function createMessagingApiPusher(
  env: { LINE_MESSAGING_ACCESS_TOKEN: string; LINE_API_BASE: Env['LINE_API_BASE'] },
  options: { timeoutMs?: number } = {},
): LinePusher {
  const token = env.LINE_MESSAGING_ACCESS_TOKEN;
  const base = env.LINE_API_BASE.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_LINE_TIMEOUT_MS;

  const push = (input: LinePush) => send('push', input.retryKey, { to: input.to, messages: input.messages });
  const multicast = (input: LineMulticast) =>
    send('multicast', input.retryKey, { to: input.to, messages: input.messages });
  // A reply token is single-use: LINE takes no retry key for replies.
  const reply = (input: LineReply) => send('reply', null, { replyToken: input.replyToken, messages: input.messages });

  async function send(kind: 'push' | 'multicast' | 'reply', retryKey: string | null, body: object): Promise<void> {
    const endpoint = `${base}/v2/bot/message/${kind}`;
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(retryKey ? { 'x-line-retry-key': retryKey } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      throw new LinePushError(
        timedOut ? `LINE ${kind} timed out after ${timeoutMs} ms` : `LINE ${kind} failed: ${(error as Error).message}`,
        null,
        false,
      );
    }
    const text = await response.text().catch(() => '');
    // 409: a request with this retry key was already accepted, i.e. an earlier attempt got through.
    if (response.ok || response.status === 409) return;
    throw new LinePushError(
      `LINE ${kind} answered ${response.status}: ${text.slice(0, 300)}`,
      response.status,
      // The message or the recipient is wrong: the same request will never succeed. 401 (a token being
      // replaced), 429 and 5xx are worth retrying.
      [400, 403, 404, 413, 422].includes(response.status),
    );
  }

  return { mode: 'live', push, multicast, reply };
}
