import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { services } from '../../db/schema';
import type { ServiceRow } from '../../scheduling/menu';

// The row types are written once, with the menu as booking sees it (server/scheduling/menu.ts).
export type { ServiceRow };

export async function insertService(
  db: Executor,
  values: { salonId: number; name: string; price: number; durationMinutes: number; rebookCycleDays?: number | null },
): Promise<ServiceRow> {
  const [row] = await db
    .insert(services)
    .values({
      salon_id: values.salonId,
      name: values.name,
      price: values.price,
      duration_minutes: values.durationMinutes,
      rebook_cycle_days: values.rebookCycleDays ?? null,
      // Appended: a new item follows the ones already on the menu (which are listed by sort_order, then id),
      // rather than slipping in after the first item of a menu numbered from 0.
      sort_order: sql`(select coalesce(max(${services.sort_order}) + 1, 0) from ${services} where ${services.salon_id} = ${values.salonId})`,
    })
    .returning();
  return row!;
}

/** One statement that only touches an active service of this salon: a deleted one is left as it is (undefined). */
export async function updateActiveService(
  db: Executor,
  salonId: number,
  serviceId: number,
  patch: Partial<Pick<ServiceRow, 'name' | 'price' | 'duration_minutes' | 'rebook_cycle_days'>>,
): Promise<ServiceRow | undefined> {
  const [row] = await db
    .update(services)
    .set({ ...patch, updated_at: sql`now()` })
    .where(and(eq(services.id, serviceId), eq(services.salon_id, salonId), eq(services.is_active, true)))
    .returning();
  return row;
}

/**
 * Soft delete: reservations keep pointing at the row (and keep their snapshot), booking stops offering it.
 * The `is_active = true` condition makes a second delete, or a race of two, find nothing.
 */
export async function deactivateService(db: Executor, salonId: number, serviceId: number): Promise<boolean> {
  const rows = await db
    .update(services)
    .set({ is_active: false, updated_at: sql`now()` })
    .where(and(eq(services.id, serviceId), eq(services.salon_id, salonId), eq(services.is_active, true)))
    .returning({ id: services.id });
  return rows.length > 0;
}

export async function findActiveService(
  db: Executor,
  salonId: number,
  serviceId: number,
): Promise<ServiceRow | undefined> {
  const [row] = await db
    .select()
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.salon_id, salonId), eq(services.is_active, true)))
    .limit(1);
  return row;
}
