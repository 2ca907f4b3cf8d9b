import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { registerLineInboxRoutes } from '../integrations/line/inbox';
import { registerDevMailboxRoutes } from '../integrations/mail/dev-mailbox';

/**
 * GET /dev/mail and GET /dev/line/inbox (docs/architecture.md#operating-contract), HTML or `?format=json`. They show every message
 * sent, to anyone: the caller registers them only in dev mode.
 */
export function registerDevNotificationRoutes(app: FastifyInstance, options: { db: Database }): void {
  registerDevMailboxRoutes(app, options.db);
  registerLineInboxRoutes(app, options.db);
}
