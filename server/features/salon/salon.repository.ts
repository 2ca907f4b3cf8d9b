import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { salons } from '../../db/schema';

export type SalonRow = typeof salons.$inferSelect;

export async function findSalon(db: Executor, salonId: number): Promise<SalonRow | undefined> {
  const [row] = await db.select().from(salons).where(eq(salons.id, salonId)).limit(1);
  return row;
}

export type SettingsPatch = Partial<
  Pick<
    SalonRow,
    | 'name'
    | 'cancellation_deadline_days'
    | 'min_notice_minutes'
    | 'max_upcoming_per_customer'
    | 'business_start'
    | 'business_end'
    | 'reminders_enabled'
    | 'phone_number'
    | 'address'
    | 'map_url'
    | 'opening_hours_text'
    | 'slot_minutes'
    | 'buffer_minutes'
    | 'block_rounding_minutes'
    | 'closed_weekdays'
    | 'line_monthly_push_limit'
    | 'auto_confirm_online_bookings'
    | 'approval_after_incidents'
    | 'late_cancel_hours'
    | 'invoice_registration_number'
    | 'tax_rounding'
    | 'opening_float'
  >
>;

/**
 * Applies the patch. When it changes the business hours, only if they still run forwards (start < end),
 * comparing the new value with the stored one in the same statement: two requests that each change one end
 * cannot combine into closed hours. Undefined when that condition failed.
 */
export async function updateSettings(
  db: Executor,
  salonId: number,
  patch: SettingsPatch,
): Promise<SalonRow | undefined> {
  const changesHours = patch.business_start !== undefined || patch.business_end !== undefined;
  const start = patch.business_start === undefined ? sql`${salons.business_start}` : sql`${patch.business_start}::time`;
  const end = patch.business_end === undefined ? sql`${salons.business_end}` : sql`${patch.business_end}::time`;
  const [row] = await db
    .update(salons)
    .set({ ...patch, updated_at: sql`now()` })
    .where(and(eq(salons.id, salonId), changesHours ? sql`${start} < ${end}` : undefined))
    .returning();
  return row;
}
