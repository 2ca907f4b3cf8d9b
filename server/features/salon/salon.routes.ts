import { z } from 'zod';
import { publicConfigSchema, salonSchema } from '../../../src/shared/schemas/config';
import type { AppContext } from '../../context';
import { salons } from '../../db/schema';
import type { ZodApp } from '../../zod-app';
import { asc, eq } from 'drizzle-orm';

export function registerSalonRoutes(app: ZodApp, ctx: AppContext) {
  app.get('/api/config/', {
    config: { auth: 'public' },
    schema: { response: { 200: publicConfigSchema } },
    handler: async () => {
      const [salon] = await ctx.db.select({ name: salons.name }).from(salons).where(eq(salons.id, ctx.salonId));
      return {
        salon_name: salon?.name ?? '',
        line: { mode: ctx.line.mode, login_channel_id: ctx.line.channelId, authorize_url: ctx.line.authorizeUrl },
      };
    },
  });

  app.get('/api/salons/', {
    config: { auth: 'public' },
    schema: { response: { 200: z.array(salonSchema) } },
    handler: () => ctx.db.select({ id: salons.id, name: salons.name }).from(salons).orderBy(asc(salons.id)),
  });
}
