/**
 * LINE Messaging API pushes (DESIGN.md §5). Live: POST {LINE_API_BASE}/v2/bot/message/push with the outbox
 * row's retry key, so that LINE accepts a message once however often the worker retries it. Without a
 * Messaging API token the push lands in the emulator's inbox (inbox.ts) instead.
 *
 * Plain fetch rather than @line/bot-sdk's MessagingApiClient: the SDK (v10) takes a baseURL, but its fetch
 * carries no AbortSignal, so a LINE endpoint that never answers could only be raced, never cancelled, and
 * every timed-out attempt would leave a request hanging. The SDK still supplies the message types.
 */
import type { messagingApi } from '@line/bot-sdk';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { storeInboxPush } from './inbox';

export type LineMessage = messagingApi.Message;

export interface LinePush {
  /** A LINE user id. */
  to: string;
  messages: LineMessage[];
  /** A UUID, the same on every attempt of one message. */
  retryKey: string;
}

export interface LinePusher {
  mode: 'live' | 'dev';
  push(input: LinePush): Promise<void>;
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

export const DEFAULT_LINE_TIMEOUT_MS = 10_000;

export function createLinePusher(
  env: Pick<Env, 'LINE_MESSAGING_ACCESS_TOKEN' | 'LINE_API_BASE'>,
  db: Database,
  options: { timeoutMs?: number } = {},
): LinePusher {
  const token = env.LINE_MESSAGING_ACCESS_TOKEN;
  if (!token) return { mode: 'dev', push: (input) => storeInboxPush(db, input) };
  const endpoint = `${env.LINE_API_BASE.replace(/\/+$/, '')}/v2/bot/message/push`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LINE_TIMEOUT_MS;

  async function push(input: LinePush): Promise<void> {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-line-retry-key': input.retryKey,
        },
        body: JSON.stringify({ to: input.to, messages: input.messages }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      throw new LinePushError(
        timedOut ? `LINE push timed out after ${timeoutMs} ms` : `LINE push failed: ${(error as Error).message}`,
        null,
        false,
      );
    }
    const body = await response.text().catch(() => '');
    // 409: a request with this retry key was already accepted, i.e. an earlier attempt got through.
    if (response.ok || response.status === 409) return;
    throw new LinePushError(
      `LINE push answered ${response.status}: ${body.slice(0, 300)}`,
      response.status,
      // The message or the recipient is wrong: the same request will never succeed. 401 (a token being
      // replaced), 429 and 5xx are worth retrying.
      [400, 403, 404, 413, 422].includes(response.status),
    );
  }

  return { mode: 'live', push };
}
