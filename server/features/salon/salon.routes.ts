import { asc } from 'drizzle-orm';
import { z } from 'zod';
import { MESSAGES } from '#src/shared/messages';
import { publicConfigSchema, salonSchema } from '#src/shared/schemas/config';
import {
  lineUsageSchema,
  salonSettingsSchema,
  updateSalonSettingsRequestSchema,
  type PublicSalonSettings,
  type SalonSettings,
} from '#src/shared/schemas/settings';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/client';
import { salons } from '../../db/schema';
import { ApiHttpError, badRequest } from '../../http-errors';
import { lineUsage, salonMonth } from '../../outbox/line-budget';
import type { ZodApp } from '../../zod-app';
import * as repo from './salon.repository';

/** `HH:mm` of a stored `time` (PostgreSQL answers `HH:mm:ss`; 24:00:00 is a valid end of day). */
const hhmm = (time: string) => time.slice(0, 5);

function publicSettings(salon: repo.SalonRow): PublicSalonSettings {
  return {
    cancellation_deadline_days: salon.cancellation_deadline_days,
    min_notice_minutes: salon.min_notice_minutes,
    max_upcoming_per_customer: salon.max_upcoming_per_customer,
    business_start: hhmm(salon.business_start),
    business_end: hhmm(salon.business_end),
    phone_number: salon.phone_number,
    address: salon.address,
    map_url: salon.map_url,
    opening_hours_text: salon.opening_hours_text,
  };
}

function presentSettings(salon: repo.SalonRow): SalonSettings {
  return {
    salon_name: salon.name,
    ...publicSettings(salon),
    reminders_enabled: salon.reminders_enabled,
    slot_minutes: salon.slot_minutes,
    buffer_minutes: salon.buffer_minutes,
    block_rounding_minutes: salon.block_rounding_minutes,
    closed_weekdays: salon.closed_weekdays,
    line_monthly_push_limit: salon.line_monthly_push_limit,
    auto_confirm_online_bookings: salon.auto_confirm_online_bookings,
    approval_after_incidents: salon.approval_after_incidents,
    late_cancel_hours: salon.late_cancel_hours,
    invoice_registration_number: salon.invoice_registration_number,
    tax_rounding: salon.tax_rounding,
    opening_float: salon.opening_float,
  };
}

/**
 * The salon and its settings (docs/architecture.md). Reads take the salons row from the read cache the booking reads
 * share (server/features/booking/read-cache.ts, decision 0004): every page of both apps asks for /api/config/, and
 * a settings change through the API clears the cache before its answer leaves, so it applies from the next request.
 */
export function registerSalonRoutes(app: ZodApp, ctx: AppContext) {
  async function currentSalon() {
    const salon = await ctx.availability.salon();
    if (!salon) throw new ApiHttpError(500, 'server_error', MESSAGES.salonNotFound);
    return salon;
  }

  app.get('/api/config/', {
    config: { auth: 'public' },
    schema: { response: { 200: publicConfigSchema } },
    handler: async () => {
      const salon = await currentSalon();
      return {
        salon_name: salon.name,
        line: { mode: ctx.line.mode, login_channel_id: ctx.line.channelId, authorize_url: ctx.line.authorizeUrl },
        settings: publicSettings(salon),
      };
    },
  });

  app.get('/api/salons/', {
    config: { auth: 'public' },
    schema: { response: { 200: z.array(salonSchema) } },
    handler: () => ctx.db.select({ id: salons.id, name: salons.name }).from(salons).orderBy(asc(salons.id)),
  });

  app.get('/api/admin/settings/', {
    config: { auth: 'staff' },
    schema: { response: { 200: salonSettingsSchema } },
    handler: async () => presentSettings(await currentSalon()),
  });

  // The LINE plan's budget this month (server/outbox/line-budget.ts): staff see it and its warnings in 設定.
  app.get('/api/admin/line-usage/', {
    config: { auth: 'staff' },
    schema: { response: { 200: lineUsageSchema } },
    handler: () => lineUsage(ctx.db, ctx.salonId, salonMonth(ctx.now(), ctx.notifications.timeZone)),
  });

  app.patch('/api/admin/settings/', {
    config: { auth: 'superuser' },
    schema: { body: updateSalonSettingsRequestSchema, response: { 200: salonSettingsSchema } },
    handler: async (request) => {
      const { salon_name: name, ...rest } = request.body;
      const patch: repo.SettingsPatch = { name, ...rest };
      for (const key of Object.keys(patch) as Array<keyof repo.SettingsPatch>) {
        if (patch[key] === undefined) delete patch[key];
      }
      if (Object.keys(patch).length === 0) return presentSettings(await currentSalon());
      const apply = async (executor: Executor) => {
        const updated = await repo.updateSettings(executor, ctx.salonId, patch);
        if (updated) return updated;
        // The only condition of the update besides the id: the hours would not run forwards. Blame what was sent.
        const sent = (['business_start', 'business_end'] as const).filter((field) => request.body[field] !== undefined);
        throw badRequest(
          MESSAGES.businessHoursOrder,
          Object.fromEntries(sent.map((field) => [field, [MESSAGES.businessHoursOrder]])),
        );
      };
      // 定休日 are working time: changing them must not strand a booking (server/features/schedule/schedule-change.ts).
      const updated =
        patch.closed_weekdays === undefined
          ? await apply(ctx.db)
          : await ctx.changeSchedule({ staffIds: 'salon' }, apply);
      return presentSettings(updated);
    },
  });
}
