/**
 * What a nailist may reach (docs/architecture.md#roles-and-scope), as SQL every feature shares: customers they look
 * after or who have a reservation with them; those customers' messages; reservations assigned to them.
 * The owner and the front desk reach every booking and customer (`canSeeAllBookings`, src/shared/roles.ts).
 * Anything out of scope is answered as if it did not exist (404).
 */
import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from './client';
import { canSeeAllBookings, type StaffRole } from '../../src/shared/roles';
import { customers, reservations } from './schema';

export interface ScopedStaff {
  id: number;
  role: StaffRole;
}

/**
 * The staff member whose reservations a caller is limited to, or undefined for one who sees all bookings. Every
 * feature that branches on "all, or only mine" asks this.
 */
export function ownBookingsOnly(staff: ScopedStaff): number | undefined {
  return canSeeAllBookings(staff.role) ? undefined : staff.id;
}

/** Whether the caller reaches a reservation assigned to `staffId`. */
export function reachesBookingOf(staff: ScopedStaff, staffId: number): boolean {
  return canSeeAllBookings(staff.role) || staffId === staff.id;
}

/** Staff reach a customer they look after or who has a reservation with them. */
export function customerInStaffScope(staffId: number): SQL {
  return or(
    eq(customers.assigned_staff_id, staffId),
    sql`exists (select 1 from ${reservations} r where r.customer_id = ${customers.id} and r.staff_id = ${staffId})`,
  )!;
}

/** The scope condition on `customers` for this caller; undefined for the owner and the front desk (no restriction). */
export function customerScopeFor(staff: ScopedStaff): SQL | undefined {
  const onlyOf = ownBookingsOnly(staff);
  return onlyOf === undefined ? undefined : customerInStaffScope(onlyOf);
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
