import { eq } from 'drizzle-orm';
import type { ReservationStatus } from '../../src/shared/constants';
import type { Checkout, CreateCheckoutRequest } from '../../src/shared/schemas/register';
import { localDateTimeToInstant } from '../../src/shared/time';
import { customers, reservations, salons, services, staffUsers } from '../../server/db/schema';
import { startTestApp, TEST_ADMIN_USERNAME, type ApiResult, type TestAppOptions } from './app';
import { FIXED_NOW, TZ } from './booking-fixtures';
import { createCustomer, createStaff, type CustomerRow } from './factories';

const DAY_MS = 24 * 60 * 60_000;

/**
 * The register suites' world: a real app on a fresh database whose clock starts at the booking suites' fixed now
 * (2030-01-10 09:00 in Tokyo) and can be moved a day on (the next business day). Tokens are signed on the same
 * clock, so `tokenOf` issues a fresh one for the current time.
 */
export async function startRegisterWorld(options: Pick<TestAppOptions, 'notifications'> = {}) {
  let current = FIXED_NOW.getTime();
  const t = await startTestApp({ ...options, now: () => new Date(current) });
  const { db } = t.database;
  const [admin] = await db.select().from(staffUsers).where(eq(staffUsers.username, TEST_ADMIN_USERNAME));

  const world = {
    t,
    db,
    admin: admin!,
    advanceDays(days: number) {
      current += days * DAY_MS;
    },
    async tokenOf(staffId: number) {
      return (await t.auth.issueTokenPair('staff', staffId)).access;
    },
    async as(
      staffId: number,
      path: string,
      init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
    ) {
      return t.api(path, { ...init, token: await world.tokenOf(staffId) });
    },
    staff: (username: string, fullName: string) => createStaff(db, t.salonId, { username, fullName }),
    async customer(name: string, assignedStaffId?: number) {
      const row = await createCustomer(db, t.salonId, { name });
      if (assignedStaffId) {
        await db.update(customers).set({ assigned_staff_id: assignedStaffId }).where(eq(customers.id, row.id));
      }
      return row;
    },
    async setSalon(patch: Partial<typeof salons.$inferInsert>) {
      await db.update(salons).set(patch).where(eq(salons.id, t.salonId));
      t.app.bookingReads.clear();
    },
    async service(name: string, price: number) {
      const [row] = await db
        .insert(services)
        .values({ salon_id: t.salonId, name, duration_minutes: 60, price })
        .returning();
      return row!;
    },
    /** A booking written directly (past ones included), with its options and 指名料 as the booking would keep them. */
    async reservation(input: {
      staffId: number;
      customer: CustomerRow;
      service: { id: number; name: string; price: number };
      start: string;
      status?: ReservationStatus;
      options?: Array<{ id: number; name: string; price: number }>;
      nominationFee?: number;
    }) {
      const start = localDateTimeToInstant(input.start, TZ);
      const options = (input.options ?? []).map((option) => ({ ...option, duration_minutes: 0 }));
      const fee = input.nominationFee ?? 0;
      const [row] = await db
        .insert(reservations)
        .values({
          salon_id: t.salonId,
          staff_id: input.staffId,
          customer_id: input.customer.id,
          service_id: input.service.id,
          start_time: start,
          end_time: new Date(start.getTime() + 60 * 60_000),
          status: input.status ?? 'confirmed',
          service_name: input.service.name,
          price: input.service.price + options.reduce((sum, option) => sum + option.price, 0) + fee,
          duration_minutes: 60,
          options,
          is_nominated: fee > 0,
          nomination_fee: fee,
          customer_name: input.customer.name,
          created_by: 'staff',
        })
        .returning();
      t.app.bookingReads.clear();
      return row!;
    },
    async statusOf(reservationId: number) {
      const [row] = await db.select().from(reservations).where(eq(reservations.id, reservationId));
      return row!.status;
    },
    /** POST /api/admin/checkouts/ as a staff member. */
    checkout(staffId: number, body: CreateCheckoutRequest, headers?: Record<string, string>): Promise<ApiResult> {
      return world.as(staffId, '/api/admin/checkouts/', { method: 'POST', json: body, headers });
    },
    /** A checkout that must succeed. */
    async checkedOut(staffId: number, body: CreateCheckoutRequest): Promise<Checkout> {
      const result = await world.checkout(staffId, body);
      if (result.status !== 201) throw new Error(`checkout failed: ${result.status} ${result.text}`);
      return result.body as unknown as Checkout;
    },
    close: () => t.close(),
  };
  return world;
}

export type RegisterWorld = Awaited<ReturnType<typeof startRegisterWorld>>;

/** A line of the given kind at the standard rate unless told. */
export const line = (
  name: string,
  unit_price: number,
  extra: Partial<CreateCheckoutRequest['lines'][number]> = {},
) => ({
  kind: 'custom' as const,
  name,
  unit_price,
  quantity: 1,
  tax_rate: 10 as const,
  ...extra,
});
