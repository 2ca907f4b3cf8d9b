import { canSeeAllBookings } from '#src/shared/roles';
import { and, asc, eq, gte, inArray, lte, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { checkoutCorrections, checkouts, registerClosings, reservations, salons, staffUsers } from '../../db/schema';
import type { ScopedStaff } from '../../db/scope';

export type CheckoutRow = typeof checkouts.$inferSelect;
export type CorrectionRow = typeof checkoutCorrections.$inferSelect;
export type ClosingRow = typeof registerClosings.$inferSelect;
export type SalonRow = typeof salons.$inferSelect;
/** A checkout with what its answer names: the 担当's name and the reservation's number. */
export type CheckoutWithNames = CheckoutRow & { staff_name: string; reservation_number: string | null };

/**
 * Locks the salon row for the register: a checkout or a correction takes it shared (many at once), a closing
 * exclusively (FOR NO KEY UPDATE: bookings' foreign-key checks still pass), so a closing counts every checkout
 * committed before it and no checkout of the closed day commits after it. Returns the salon's current settings.
 */
export async function lockSalonForRegister(db: Executor, salonId: number, mode: 'share' | 'close'): Promise<SalonRow> {
  const query = db.select().from(salons).where(eq(salons.id, salonId));
  const [row] = await (mode === 'share' ? query.for('share') : query.for('no key update'));
  return row!;
}

export async function findSalon(db: Executor, salonId: number): Promise<SalonRow> {
  const [row] = await db.select().from(salons).where(eq(salons.id, salonId));
  return row!;
}

export async function findClosing(db: Executor, salonId: number, date: string): Promise<ClosingRow | undefined> {
  const [row] = await db
    .select()
    .from(registerClosings)
    .where(and(eq(registerClosings.salon_id, salonId), eq(registerClosings.business_date, date)))
    .limit(1);
  return row;
}

export async function insertCheckout(db: Executor, row: typeof checkouts.$inferInsert): Promise<CheckoutRow> {
  const [inserted] = await db.insert(checkouts).values(row).returning();
  return inserted!;
}

export async function receiptNumberTaken(db: Executor, salonId: number, receiptNumber: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkouts.id })
    .from(checkouts)
    .where(and(eq(checkouts.salon_id, salonId), eq(checkouts.receipt_number, receiptNumber)))
    .limit(1);
  return row !== undefined;
}

/** The next number of the server's receipt sequence (gaps are harmless: numbers are unique, not gapless). */
export async function nextReceiptSequence(db: Executor): Promise<number> {
  const result = (await db.execute(sql`select nextval('checkout_receipt_seq')::int as n`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return Number(result.rows[0]!.n);
}

/** A nailist reads the checkouts they are 担当 of or rang up. */
function checkoutScope(staff: ScopedStaff): SQL | undefined {
  return canSeeAllBookings(staff.role)
    ? undefined
    : or(eq(checkouts.staff_id, staff.id), eq(checkouts.created_by_staff_id, staff.id));
}

function selectWithNames(db: Executor) {
  return db
    .select({
      checkout: checkouts,
      staff_name: staffUsers.full_name,
      reservation_number: reservations.reservation_number,
    })
    .from(checkouts)
    .innerJoin(staffUsers, eq(staffUsers.id, checkouts.staff_id))
    .leftJoin(reservations, eq(reservations.id, checkouts.reservation_id));
}

const flatten = (row: { checkout: CheckoutRow; staff_name: string; reservation_number: string | null }) => ({
  ...row.checkout,
  staff_name: row.staff_name,
  reservation_number: row.reservation_number,
});

export async function findCheckout(
  db: Executor,
  input: { salonId: number; id: number; staff?: ScopedStaff },
): Promise<CheckoutWithNames | undefined> {
  const scope = input.staff ? checkoutScope(input.staff) : undefined;
  const [row] = await selectWithNames(db)
    .where(and(eq(checkouts.salon_id, input.salonId), eq(checkouts.id, input.id), scope))
    .limit(1);
  return row && flatten(row);
}

export async function findCheckoutByReceiptNumber(db: Executor, salonId: number, receiptNumber: string) {
  const [row] = await selectWithNames(db)
    .where(and(eq(checkouts.salon_id, salonId), eq(checkouts.receipt_number, receiptNumber)))
    .limit(1);
  return row && flatten(row);
}

export async function findCheckoutByIdempotencyKey(db: Executor, salonId: number, key: string) {
  const [row] = await selectWithNames(db)
    .where(and(eq(checkouts.salon_id, salonId), eq(checkouts.idempotency_key, key)))
    .limit(1);
  return row && flatten(row);
}

/** Checkouts of salon-local days [from, to], in the caller's scope, oldest first. */
export async function listCheckouts(
  db: Executor,
  input: { salonId: number; from: string; to: string; staff?: ScopedStaff },
): Promise<CheckoutWithNames[]> {
  const scope = input.staff ? checkoutScope(input.staff) : undefined;
  const rows = await selectWithNames(db)
    .where(
      and(
        eq(checkouts.salon_id, input.salonId),
        gte(checkouts.business_date, input.from),
        lte(checkouts.business_date, input.to),
        scope,
      ),
    )
    .orderBy(asc(checkouts.checked_out_at), asc(checkouts.id));
  return rows.map(flatten);
}

/** The checkout row locked against concurrent corrections (a void and a refund, two refunds). */
export async function lockCheckout(db: Executor, salonId: number, id: number): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.salon_id, salonId), eq(checkouts.id, id)))
    .for('update');
  return row;
}

export async function correctionsOf(db: Executor, checkoutIds: readonly number[]): Promise<CorrectionRow[]> {
  if (checkoutIds.length === 0) return [];
  return db
    .select()
    .from(checkoutCorrections)
    .where(inArray(checkoutCorrections.checkout_id, [...checkoutIds]))
    .orderBy(asc(checkoutCorrections.id));
}

/** A correction with what the takings need of its checkout (whose they were, how they were paid). */
export type CorrectionWithCheckout = CorrectionRow & {
  checkout_staff_id: number;
  checkout_payments: CheckoutRow['payments'];
  checkout_receipt_number: string;
};

/** Corrections recorded on salon-local days [from, to] (a refund counts on the day it was given). */
export async function correctionsOnDays(
  db: Executor,
  input: { salonId: number; from: string; to: string },
): Promise<CorrectionWithCheckout[]> {
  const rows = await db
    .select({
      correction: checkoutCorrections,
      checkout_staff_id: checkouts.staff_id,
      checkout_payments: checkouts.payments,
      checkout_receipt_number: checkouts.receipt_number,
    })
    .from(checkoutCorrections)
    .innerJoin(checkouts, eq(checkouts.id, checkoutCorrections.checkout_id))
    .where(
      and(
        eq(checkoutCorrections.salon_id, input.salonId),
        gte(checkoutCorrections.business_date, input.from),
        lte(checkoutCorrections.business_date, input.to),
      ),
    )
    .orderBy(asc(checkoutCorrections.id));
  return rows.map(({ correction, ...rest }) => ({ ...correction, ...rest }));
}

export async function insertCorrection(db: Executor, row: typeof checkoutCorrections.$inferInsert) {
  const [inserted] = await db.insert(checkoutCorrections).values(row).returning();
  return inserted!;
}

export async function insertClosing(db: Executor, row: typeof registerClosings.$inferInsert) {
  const [inserted] = await db.insert(registerClosings).values(row).returning();
  return inserted!;
}

export async function listClosings(db: Executor, input: { salonId: number; from: string; to: string }) {
  return db
    .select()
    .from(registerClosings)
    .where(
      and(
        eq(registerClosings.salon_id, input.salonId),
        gte(registerClosings.business_date, input.from),
        lte(registerClosings.business_date, input.to),
      ),
    )
    .orderBy(asc(registerClosings.business_date));
}

/** Names of staff members by id (the sales by staff label them). */
export async function staffNames(db: Executor, salonId: number): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: staffUsers.id, name: staffUsers.full_name, username: staffUsers.username })
    .from(staffUsers)
    .where(eq(staffUsers.salon_id, salonId));
  return new Map(rows.map((row) => [row.id, row.name || row.username]));
}

/** One visit that counts (a checkout not voided) of a customer: their whole history, for 新規/再来 and returns. */
export interface CustomerVisit {
  id: number;
  customer_id: number;
  business_date: string;
}

/** Every checkout of these customers that was not voided, oldest first (all time: a first visit may be older). */
export async function customerVisits(
  db: Executor,
  salonId: number,
  customerIds: readonly number[],
): Promise<CustomerVisit[]> {
  if (customerIds.length === 0) return [];
  const voided = db
    .select({ id: checkoutCorrections.checkout_id })
    .from(checkoutCorrections)
    .where(and(eq(checkoutCorrections.checkout_id, checkouts.id), eq(checkoutCorrections.kind, 'void')));
  const rows = await db
    .select({ id: checkouts.id, customer_id: checkouts.customer_id, business_date: checkouts.business_date })
    .from(checkouts)
    .where(and(eq(checkouts.salon_id, salonId), inArray(checkouts.customer_id, [...customerIds]), notExists(voided)))
    .orderBy(asc(checkouts.business_date), asc(checkouts.id));
  return rows.map((row) => ({ ...row, customer_id: row.customer_id! }));
}
