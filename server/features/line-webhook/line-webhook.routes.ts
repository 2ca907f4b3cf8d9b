import { z } from 'zod';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AppContext } from '../../context';
import { ApiHttpError, badRequest } from '../../http-errors';
import { createLineBotApi, parseLineWebhookBody } from '../../integrations/line/webhook';
import { isValidLineSignature } from '../../integrations/line/webhook-signature';
import type { ZodApp } from '../../zod-app';
import { renderLatestReservationLine } from '../../outbox/reservation-notifications';
import { findSalonName } from './line-webhook.repository';
import { createLineWebhookService, type ReservationCheckReplier } from './line-webhook.service';

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/line/webhook/ (docs/architecture.md). The signature covers the raw bytes, so this route lives in its own
 * plugin scope whose only content-type parser hands the body over untouched: nothing is parsed before the
 * signature is checked, and a re-serialised body can never pass.
 */
export function registerLineWebhookRoutes(app: ZodApp, ctx: AppContext, options: { channelSecret: string | null }) {
  const { line, publicUrl, timeZone } = ctx.notifications;
  // A reply, not a push: free, so it is not counted in the LINE plan's monthly pushes (server/outbox/line-budget.ts).
  const replyReservationCheck: ReservationCheckReplier | undefined = line.reply
    ? async ({ customerId, lineUserId, replyToken }) => {
        const [next, salonName] = await Promise.all([
          ctx.reservations.nextForCustomer(customerId),
          findSalonName(ctx.db, ctx.salonId),
        ]);
        const context = { salonName, publicUrl, timeZone };
        await line.reply!({ replyToken, to: lineUserId, messages: renderLatestReservationLine(next ?? null, context) });
      }
    : undefined;
  const service = createLineWebhookService({
    replyReservationCheck,
    db: ctx.db,
    salonId: ctx.salonId,
    lineApi: createLineBotApi(ctx.env),
    devProfiles: ctx.env.lineDevMode,
    media: ctx.media,
    now: ctx.now,
    logger: app.log,
  });

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );

    scope.post('/api/line/webhook/', {
      config: { auth: 'public' },
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { response: { 200: z.object({}) } },
      handler: async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        // Live mode without a channel secret: the secret is null and nothing is ever accepted.
        if (!isValidLineSignature(raw, options.channelSecret, request.headers['x-line-signature'])) {
          throw new ApiHttpError(401, 'invalid_signature', SERVER_MESSAGES.lineSignatureInvalid);
        }
        const events = parseLineWebhookBody(raw);
        if (!events) throw badRequest();
        await service.handleDelivery(events);
        return {};
      },
    });
  });
}
