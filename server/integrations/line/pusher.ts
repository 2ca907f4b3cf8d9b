/**
 * The LINE transport the app sends with (server/outbox/notifications.ts composes it): LINE's Messaging API when a
 * channel access token is configured, else the emulator's inbox. Choosing here keeps the live transport
 * (messaging.ts) and the dev inbox (inbox.ts) apart: neither imports the other's code.
 */
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { createInboxPusher } from './inbox';
import { createMessagingApiPusher, type LinePusher } from './messaging';

export function createLinePusher(
  env: Pick<Env, 'LINE_MESSAGING_ACCESS_TOKEN' | 'LINE_API_BASE'>,
  db: Database,
  options: { timeoutMs?: number; appOrigin?: string } = {},
): LinePusher {
  const token = env.LINE_MESSAGING_ACCESS_TOKEN;
  if (!token) return createInboxPusher(db, options.appOrigin);
  return createMessagingApiPusher(
    { LINE_MESSAGING_ACCESS_TOKEN: token, LINE_API_BASE: env.LINE_API_BASE },
    { timeoutMs: options.timeoutMs },
  );
}
