/**
 * What an ordinary staff member may reach (docs/architecture.md), as SQL every feature shares: customers they look
 * after or who have a reservation with them; those customers' messages; reservations assigned to them.
 * A superuser reaches everything. Anything out of scope is answered as if it did not exist (404).
 */
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from './client';
import { customers, reservations } from './schema';

export interface ScopedStaff {
  id: number;
  isSuperuser: boolean;
}

/** Staff reach a customer they look after or who has a reservation with them. */
export function customerInStaffScope(staffId: number): SQL {
  return or(
    eq(customers.assigned_staff_id, staffId),
    sql`exists (select 1 from ${reservations} r where r.customer_id = ${customers.id} and r.staff_id = ${staffId})`,
  )!;
}

/** The scope condition on `customers` for this caller; undefined for a superuser (no restriction). */
export function customerScopeFor(staff: ScopedStaff): SQL | undefined {
  return staff.isSuperuser ? undefined : customerInStaffScope(staff.id);
}

export async function findCustomerForStaff(db: Executor, salonId: number, customerId: number, staff: ScopedStaff) {
  const conditions = [eq(customers.id, customerId), eq(customers.salon_id, salonId)];
  const scope = customerScopeFor(staff);
  if (scope) conditions.push(scope);
  const [row] = await db
    .select()
    .from(customers)
    .where(and(...conditions))
    .limit(1);
  return row;
}
