import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { serviceOptions, services } from '../../db/schema';
import type { ServiceOptionRow, ServiceRow } from '../../scheduling/menu';

// The row types are written once, with the menu as booking sees it (server/scheduling/menu.ts).
export type { ServiceOptionRow, ServiceRow };

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

/** The active options of a service, in menu order (what GET /api/services/ lists under it). */
export async function listActiveOptions(db: Executor, salonId: number, serviceId: number): Promise<ServiceOptionRow[]> {
  return db
    .select()
    .from(serviceOptions)
    .where(
      and(
        eq(serviceOptions.service_id, serviceId),
        eq(serviceOptions.salon_id, salonId),
        eq(serviceOptions.is_active, true),
      ),
    )
    .orderBy(asc(serviceOptions.sort_order), asc(serviceOptions.id));
}

/**
 * A new option, appended to its service's options, or undefined when the service is not an active one of this
 * salon. The service row is held FOR SHARE until the insert commits, so a delete of the service running at the
 * same time waits for it (or wins first and this finds nothing): no option is ever added to a deleted service.
 */
export async function insertOption(
  db: Database,
  values: { salonId: number; serviceId: number; name: string; price: number; durationMinutes: number },
): Promise<ServiceOptionRow | undefined> {
  return db.transaction(async (tx) => {
    const [service] = await tx
      .select({ id: services.id })
      .from(services)
      .where(
        and(eq(services.id, values.serviceId), eq(services.salon_id, values.salonId), eq(services.is_active, true)),
      )
      .for('share');
    if (!service) return undefined;
    const [row] = await tx
      .insert(serviceOptions)
      .values({
        salon_id: values.salonId,
        service_id: values.serviceId,
        name: values.name,
        price: values.price,
        duration_minutes: values.durationMinutes,
        sort_order: sql`(select coalesce(max(${serviceOptions.sort_order}) + 1, 0) from ${serviceOptions} where ${serviceOptions.service_id} = ${values.serviceId})`,
      })
      .returning();
    return row!;
  });
}

/** An active option of an active service of this salon: the one condition every option write and read shares. */
function activeOptionOf(salonId: number, serviceId: number, optionId: number) {
  return and(
    eq(serviceOptions.id, optionId),
    eq(serviceOptions.service_id, serviceId),
    eq(serviceOptions.salon_id, salonId),
    eq(serviceOptions.is_active, true),
    sql`exists (select 1 from ${services} where ${services.id} = ${serviceId} and ${services.is_active})`,
  );
}

/** One statement; a deleted option, or one of a deleted or another service, is left as it is (undefined). */
export async function updateActiveOption(
  db: Executor,
  ids: { salonId: number; serviceId: number; optionId: number },
  patch: Partial<Pick<ServiceOptionRow, 'name' | 'price' | 'duration_minutes'>>,
): Promise<ServiceOptionRow | undefined> {
  const [row] = await db
    .update(serviceOptions)
    .set({ ...patch, updated_at: sql`now()` })
    .where(activeOptionOf(ids.salonId, ids.serviceId, ids.optionId))
    .returning();
  return row;
}

export async function findActiveOption(
  db: Executor,
  ids: { salonId: number; serviceId: number; optionId: number },
): Promise<ServiceOptionRow | undefined> {
  const [row] = await db
    .select()
    .from(serviceOptions)
    .where(activeOptionOf(ids.salonId, ids.serviceId, ids.optionId))
    .limit(1);
  return row;
}

/**
 * Soft delete, like a service's: reservations keep their snapshot of the option (reservations.options), booking
 * stops offering it. A second delete, or the loser of a race of two, finds nothing.
 */
export async function deactivateOption(
  db: Executor,
  ids: { salonId: number; serviceId: number; optionId: number },
): Promise<boolean> {
  const rows = await db
    .update(serviceOptions)
    .set({ is_active: false, updated_at: sql`now()` })
    .where(activeOptionOf(ids.salonId, ids.serviceId, ids.optionId))
    .returning({ id: serviceOptions.id });
  return rows.length > 0;
}
