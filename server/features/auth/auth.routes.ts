import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../../src/shared/messages';
import {
  adminProfileSchema,
  passwordLoginRequestSchema,
  refreshRequestSchema,
  tokenPairSchema,
} from '../../../src/shared/schemas/auth';
import type { AppContext } from '../../context';
import { ApiHttpError, notFound } from '../../http-errors';
import { staffOf } from '../../plugins/auth';
import type { ZodApp } from '../../zod-app';
import { findStaffById } from './auth.repository';

export function registerAuthRoutes(app: ZodApp, ctx: AppContext) {
  app.post('/api/token/', {
    config: {
      auth: 'public',
      rateLimit: {
        max: ctx.env.LOGIN_RATE_LIMIT,
        timeWindow: ctx.env.LOGIN_RATE_WINDOW_SECONDS * 1000,
        // After validation, so the login ID is known: guessing one account's password from one address is
        // slowed down without locking the account for everyone else.
        hook: 'preHandler',
        keyGenerator: (request) => `${request.ip}|${String((request.body as { username?: unknown })?.username ?? '').toLowerCase()}`,
        errorResponseBuilder: () => new ApiHttpError(429, 'throttled', MESSAGES.tooManyLoginAttempts),
      },
    },
    schema: { body: passwordLoginRequestSchema, response: { 200: tokenPairSchema } },
    handler: (request) => ctx.auth.loginWithPassword(request.body.username, request.body.password),
  });

  app.post('/api/token/refresh/', {
    config: { auth: 'public' },
    schema: { body: refreshRequestSchema, response: { 200: tokenPairSchema } },
    handler: (request) => ctx.auth.refresh(request.body.refresh),
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
        is_superuser: staff.is_superuser,
        is_line_linked: Boolean(staff.line_user_id),
      };
    },
  });
}

export type { FastifyInstance };
