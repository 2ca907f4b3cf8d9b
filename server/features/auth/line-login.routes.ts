import {
  customerProfileSchema,
  lineCallbackRequestSchema,
  rebookPromptsSettingSchema,
  tokenPairSchema,
} from '#src/shared/schemas/auth';
import type { AppContext } from '../../context';
import { notFound } from '../../http-errors';
import { customerOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { findCustomerProfile, setRebookPrompts } from './line-login.service';

export function registerLineLoginRoutes(app: ZodApp, ctx: AppContext) {
  app.post('/api/line/callback/', {
    // A token answer is never kept for an Idempotency-Key replay (server/plugins/idempotency.ts).
    config: { auth: 'public', idempotency: false },
    schema: { body: lineCallbackRequestSchema, response: { 200: tokenPairSchema } },
    // Refused codes are limited per address before LINE is asked (server/plugins/login-limits.ts).
    handler: (request) => ctx.loginLimits.attemptLineLogin(request, () => ctx.lineLogin.login(request.body)),
  });

  app.get('/api/me/', {
    config: { auth: 'customer' },
    schema: { response: { 200: customerProfileSchema } },
    handler: async (request) => {
      const customer = await findCustomerProfile(ctx.db, customerOf(request).id);
      if (!customer) throw notFound();
      return {
        id: customer.id,
        name: customer.name,
        furigana: customer.furigana,
        email: customer.email,
        phone_number: customer.phone_number,
        line_display_name: customer.line_display_name,
        line_picture_url: customer.line_picture_url,
        rebook_prompts_enabled: customer.rebook_prompts_enabled,
      };
    },
  });

  app.put('/api/me/rebook-prompts/', {
    config: { auth: 'customer' },
    schema: { body: rebookPromptsSettingSchema, response: { 200: rebookPromptsSettingSchema } },
    handler: async (request) => {
      if (!(await setRebookPrompts(ctx.db, customerOf(request).id, request.body.enabled))) throw notFound();
      return { enabled: request.body.enabled };
    },
  });
}
