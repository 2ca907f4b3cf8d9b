import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../db/client';
import { serviceOptionLinks, serviceOptions, services } from '../../db/schema';
import type { ServiceOptionRow } from '../../scheduling/menu';

/**
 * Options (オプション) belong to the salon; the menus that allow each one are its service_option_links rows
 * (migration 0026). Every write that reads links first locks what it depends on, so that two writers never decide
 * on the same stale picture: the option row FOR UPDATE, the services it links FOR SHARE (a service deleted at the
 * same time waits for the link to commit, or wins first and is refused here).
 */

export type OptionFields = Pick<ServiceOptionRow, 'name' | 'price' | 'duration_minutes'>;
/** An option with the active services that allow it, in menu order. */
export type LinkedOptionRow = ServiceOptionRow & { service_ids: number[] };

/** The active options a service allows, in menu order (what GET /api/services/ lists under it). */
export async function listOptionsOfService(
  db: Executor,
  salonId: number,
  serviceId: number,
): Promise<ServiceOptionRow[]> {
  return db
    .select({ option: serviceOptions })
    .from(serviceOptionLinks)
    .innerJoin(serviceOptions, eq(serviceOptions.id, serviceOptionLinks.option_id))
    .where(
      and(
        eq(serviceOptionLinks.service_id, serviceId),
        eq(serviceOptions.salon_id, salonId),
        eq(serviceOptions.is_active, true),
      ),
    )
    .orderBy(asc(serviceOptions.sort_order), asc(serviceOptions.id))
    .then((rows) => rows.map((row) => row.option));
}

/** The salon's active options in menu order, each with the active services that allow it. */
export async function listSalonOptions(db: Executor, salonId: number, optionId?: number): Promise<LinkedOptionRow[]> {
  const [options, links] = await Promise.all([
    db
      .select()
      .from(serviceOptions)
      .where(
        and(
          eq(serviceOptions.salon_id, salonId),
          eq(serviceOptions.is_active, true),
          optionId === undefined ? undefined : eq(serviceOptions.id, optionId),
        ),
      )
      .orderBy(asc(serviceOptions.sort_order), asc(serviceOptions.id)),
    db
      .select({ option_id: serviceOptionLinks.option_id, service_id: serviceOptionLinks.service_id })
      .from(serviceOptionLinks)
      .innerJoin(services, eq(services.id, serviceOptionLinks.service_id))
      .where(
        and(
          eq(services.salon_id, salonId),
          eq(services.is_active, true),
          optionId === undefined ? undefined : eq(serviceOptionLinks.option_id, optionId),
        ),
      )
      .orderBy(asc(services.sort_order), asc(services.id)),
  ]);
  return options.map((option) => ({
    ...option,
    service_ids: links.filter((link) => link.option_id === option.id).map((link) => link.service_id),
  }));
}

/**
 * Locks the given services FOR SHARE and answers whether every one is an active service of this salon; a delete
 * of one of them running at the same time waits until this transaction ends.
 */
async function lockActiveServices(tx: Transaction, salonId: number, serviceIds: readonly number[]): Promise<boolean> {
  if (serviceIds.length === 0) return true;
  const found = await tx
    .select({ id: services.id })
    .from(services)
    .where(and(inArray(services.id, [...serviceIds]), eq(services.salon_id, salonId), eq(services.is_active, true)))
    .for('share');
  return found.length === new Set(serviceIds).size;
}

async function linkServices(tx: Transaction, optionId: number, serviceIds: readonly number[]) {
  if (serviceIds.length === 0) return;
  await tx
    .insert(serviceOptionLinks)
    .values([...new Set(serviceIds)].map((serviceId) => ({ service_id: serviceId, option_id: optionId })))
    .onConflictDoNothing();
}

/**
 * A new option of the salon, appended to its options, allowed by `serviceIds`; undefined (and nothing written)
 * when one of them is not an active service of this salon.
 */
export async function insertOption(
  db: Database,
  values: OptionFields & { salonId: number; serviceIds: readonly number[] },
): Promise<LinkedOptionRow | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockActiveServices(tx, values.salonId, values.serviceIds))) return undefined;
    const [row] = await tx
      .insert(serviceOptions)
      .values({
        salon_id: values.salonId,
        name: values.name,
        price: values.price,
        duration_minutes: values.duration_minutes,
        sort_order: sql`(select coalesce(max(${serviceOptions.sort_order}) + 1, 0) from ${serviceOptions} where ${serviceOptions.salon_id} = ${values.salonId})`,
      })
      .returning();
    await linkServices(tx, row!.id, values.serviceIds);
    return (await listSalonOptions(tx, values.salonId, row!.id))[0]!;
  });
}

/** The active option of this salon, locked FOR UPDATE until the transaction ends; undefined when there is none. */
async function lockActiveOption(tx: Transaction, salonId: number, optionId: number) {
  const [row] = await tx
    .select({ id: serviceOptions.id })
    .from(serviceOptions)
    .where(
      and(eq(serviceOptions.id, optionId), eq(serviceOptions.salon_id, salonId), eq(serviceOptions.is_active, true)),
    )
    .for('update');
  return row;
}

/**
 * Edits an active option of the salon: the fields in `patch` (for every menu that allows it) and, when given, the
 * set of services that allow it (replaced whole). 'not_found' for no such option, 'services_invalid' when a service
 * is not an active one of this salon (nothing written).
 */
export async function updateOption(
  db: Database,
  ids: { salonId: number; optionId: number },
  patch: Partial<OptionFields>,
  serviceIds?: readonly number[],
): Promise<LinkedOptionRow | 'not_found' | 'services_invalid'> {
  return db.transaction(async (tx) => {
    if (!(await lockActiveOption(tx, ids.salonId, ids.optionId))) return 'not_found';
    if (serviceIds !== undefined) {
      if (!(await lockActiveServices(tx, ids.salonId, serviceIds))) return 'services_invalid';
      await tx.delete(serviceOptionLinks).where(eq(serviceOptionLinks.option_id, ids.optionId));
      await linkServices(tx, ids.optionId, serviceIds);
    }
    if (Object.keys(patch).length > 0 || serviceIds !== undefined) {
      await tx
        .update(serviceOptions)
        .set({ ...patch, updated_at: sql`now()` })
        .where(eq(serviceOptions.id, ids.optionId));
    }
    return (await listSalonOptions(tx, ids.salonId, ids.optionId))[0]!;
  });
}

/**
 * Soft delete: reservations keep their snapshot of the option (reservations.options), booking stops offering it
 * with every menu. A second delete, or the loser of a race of two, finds nothing.
 */
export async function deactivateOption(db: Executor, salonId: number, optionId: number): Promise<boolean> {
  const rows = await db
    .update(serviceOptions)
    .set({ is_active: false, updated_at: sql`now()` })
    .where(
      and(eq(serviceOptions.id, optionId), eq(serviceOptions.salon_id, salonId), eq(serviceOptions.is_active, true)),
    )
    .returning({ id: serviceOptions.id });
  return rows.length > 0;
}

/** Whether an active service of this salon allows this active option (the condition of every per-menu call). */
export async function serviceAllowsOption(
  db: Executor,
  ids: { salonId: number; serviceId: number; optionId: number },
): Promise<boolean> {
  const rows = await db
    .select({ id: serviceOptions.id })
    .from(serviceOptionLinks)
    .innerJoin(serviceOptions, eq(serviceOptions.id, serviceOptionLinks.option_id))
    .innerJoin(services, eq(services.id, serviceOptionLinks.service_id))
    .where(
      and(
        eq(serviceOptionLinks.service_id, ids.serviceId),
        eq(serviceOptionLinks.option_id, ids.optionId),
        eq(serviceOptions.salon_id, ids.salonId),
        eq(serviceOptions.is_active, true),
        eq(services.is_active, true),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Takes the option off one menu. Once no active menu allows it any more it is deactivated too, as deleting it
 * from its only menu always did. False when that menu did not allow it (nothing written).
 */
export async function unlinkOption(
  db: Database,
  ids: { salonId: number; serviceId: number; optionId: number },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await lockActiveOption(tx, ids.salonId, ids.optionId))) return false;
    if (!(await serviceAllowsOption(tx, ids))) return false;
    await tx
      .delete(serviceOptionLinks)
      .where(and(eq(serviceOptionLinks.service_id, ids.serviceId), eq(serviceOptionLinks.option_id, ids.optionId)));
    const [remaining] = await listSalonOptions(tx, ids.salonId, ids.optionId);
    if (remaining!.service_ids.length === 0) await deactivateOption(tx, ids.salonId, ids.optionId);
    return true;
  });
}

/** An active option this active service of the salon allows: the condition of the per-menu edit. */
function optionOfService(ids: { salonId: number; serviceId: number; optionId: number }) {
  return and(
    eq(serviceOptions.id, ids.optionId),
    eq(serviceOptions.salon_id, ids.salonId),
    eq(serviceOptions.is_active, true),
    sql`exists (select 1 from ${serviceOptionLinks} join ${services} on ${services.id} = ${serviceOptionLinks.service_id} where ${serviceOptionLinks.option_id} = ${ids.optionId} and ${serviceOptionLinks.service_id} = ${ids.serviceId} and ${services.is_active})`,
  );
}

/**
 * One statement: edits the option for every menu that allows it, when this menu allows it; undefined otherwise
 * (a deleted option, another menu's option, a deleted menu). An empty patch answers the option as it is.
 */
export async function updateOptionOfService(
  db: Executor,
  ids: { salonId: number; serviceId: number; optionId: number },
  patch: Partial<OptionFields>,
): Promise<ServiceOptionRow | undefined> {
  if (Object.keys(patch).length === 0) {
    const [row] = await db.select().from(serviceOptions).where(optionOfService(ids)).limit(1);
    return row;
  }
  const [row] = await db
    .update(serviceOptions)
    .set({ ...patch, updated_at: sql`now()` })
    .where(optionOfService(ids))
    .returning();
  return row;
}
