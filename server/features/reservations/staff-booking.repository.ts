/**
 * The SQL only staff bookings need (create-as-staff.ts, and a superuser's move to another staff member in
 * reschedule.ts): the staff member booked for, and the walk-in customer found or created at the front desk.
 */
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { customerScopeFor, type ScopedStaff } from '../../db/scope';
import { customers, staffUsers } from '../../db/schema';

export async function findStaff(db: Executor, salonId: number, staffId: number) {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.id, staffId), eq(staffUsers.salon_id, salonId), eq(staffUsers.is_active, true)))
    .limit(1);
  return row;
}

/**
 * The existing customer a front-desk booking (create-with-new-customer) reuses for a typed e-mail or phone, if any.
 * Only one the caller may already see (a superuser: any), so that typing someone's phone number neither shows their
 * stored name nor brings them into the caller's scope; and only one not linked to LINE. A LINE-linked customer's
 * contact details are whatever they typed into their own booking form, so anyone can plant someone else's phone
 * or e-mail there and would receive that person's walk-in bookings; staff book for a LINE customer by picking
 * them (create-for-customer). Every customer who can sign in is LINE-linked and a link is never removed, so an
 * unlinked customer's contact details were written by staff alone. Without a match the caller creates a new
 * customer (e-mail and phone are not unique).
 */
export async function findWalkInCustomerByContact(
  db: Executor,
  input: { salonId: number; staff: ScopedStaff; email: string; phone: string },
) {
  const matches: SQL[] = [];
  if (input.email) matches.push(eq(sql`lower(${customers.email})`, input.email.toLowerCase()));
  if (input.phone) matches.push(eq(customers.phone_number, input.phone));
  if (matches.length === 0) return undefined;
  const conditions = [eq(customers.salon_id, input.salonId), or(...matches)!, isNull(customers.line_user_id)];
  const scope = customerScopeFor(input.staff);
  if (scope) conditions.push(scope);
  const [row] = await db
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(asc(customers.id))
    .limit(1);
  return row;
}

/** A customer created at the front desk from what staff typed, looked after by the staff member who serves them. */
export async function insertWalkInCustomer(
  db: Executor,
  input: { salonId: number; name: string; email: string; phone: string; staffId: number },
) {
  const [row] = await db
    .insert(customers)
    .values({
      salon_id: input.salonId,
      name: input.name,
      email: input.email,
      phone_number: input.phone,
      assigned_staff_id: input.staffId,
    })
    .returning();
  return row!;
}
