import {
  adminProfileSchema,
  passwordLoginRequestSchema,
  refreshRequestSchema,
  tokenPairSchema,
} from '#src/shared/schemas/auth';
import type { AppContext } from '../../context';
import { notFound } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { findStaffById } from './auth.repository';

export function registerAuthRoutes(app: ZodApp, ctx: AppContext) {
  app.post('/api/token/', {
    config: {
      auth: 'public',
      // Token answers are never kept for an Idempotency-Key replay (server/plugins/idempotency.ts).
      idempotency: false,
    },
    schema: { body: passwordLoginRequestSchema, response: { 200: tokenPairSchema } },
    // Counted in the handler, after validation, so the login ID is known; only failures count
    // (server/plugins/login-limits.ts).
    handler: (request, reply) =>
      ctx.loginLimits.attempt(request, reply, request.body.username, () =>
        ctx.auth.loginWithPassword(request.body.username, request.body.password),
      ),
  });

  app.post('/api/token/refresh/', {
    config: { auth: 'public', idempotency: false },
    schema: { body: refreshRequestSchema, response: { 200: tokenPairSchema } },
    handler: (request) => ctx.auth.refresh(request.body.refresh),
  });

  // Public: the refresh token in the body is the credential, so a logout works even after the access token expired.
  app.post('/api/admin/logout/', {
    config: { auth: 'public' },
    schema: { body: refreshRequestSchema },
    handler: async (request, reply) => {
      await ctx.auth.logout(request.body.refresh);
      return reply.code(204).send();
    },
  });

  app.get('/api/admin/me/', {
    config: { auth: 'staff' },
    schema: { response: { 200: adminProfileSchema } },
    handler: async (request) => {
      const staff = await findStaffById(ctx.db, staffOf(request).id);
      if (!staff) throw notFound();
      return {
        id: staff.id,
        username: staff.username,
        full_name: staff.full_name,
        email: staff.email,
        role: staff.role,
        is_superuser: staff.is_superuser,
        is_line_linked: Boolean(staff.line_user_id),
        ...(await ctx.calendarFeed.feedFor(staff.id)),
      };
    },
  });
}
