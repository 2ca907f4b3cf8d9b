import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLSTATE, sqlState } from '../../server/db/client';
import { customers, reservations, salons, services, staffUsers } from '../../server/db/schema';
import { createTestDatabase, testEngine } from '../helpers/database';

describe(`schema and migrations on ${testEngine}`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let ids: { salon: number; staffA: number; staffB: number; customer: number; service: number };

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const [salon] = await db.insert(salons).values({ name: 'テストサロン' }).returning();
    const [a, b] = await db
      .insert(staffUsers)
      .values([
        { salon_id: salon!.id, username: 'a' },
        { salon_id: salon!.id, username: 'b' },
      ])
      .returning();
    const [customer] = await db.insert(customers).values({ salon_id: salon!.id, name: '花子' }).returning();
    const [service] = await db
      .insert(services)
      .values({ salon_id: salon!.id, name: 'ジェル', price: 6000, duration_minutes: 90 })
      .returning();
    ids = { salon: salon!.id, staffA: a!.id, staffB: b!.id, customer: customer!.id, service: service!.id };
  });
  afterAll(() => database?.drop());

  const booking = (staffId: number, start: string, end: string, status: 'pending' | 'confirmed' | 'cancelled') => ({
    salon_id: ids.salon,
    staff_id: staffId,
    customer_id: ids.customer,
    service_id: ids.service,
    start_time: new Date(start),
    end_time: new Date(end),
    status,
    service_name: 'ジェル',
    price: 6000,
    duration_minutes: 90,
    customer_name: '花子',
    created_by: 'customer' as const,
  });

  it('applies every migration to an empty database', async () => {
    const result = await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const tables = (result as unknown as { rows: Array<{ table_name: string }> }).rows.map((row) => row.table_name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'broadcasts',
        'customers',
        'idempotency_keys',
        'line_messages',
        'link_tokens',
        'notifications_outbox',
        'opening_slots',
        'refresh_tokens',
        'reservations',
        'salons',
        'services',
        'staff_users',
        'webhook_events',
      ]),
    );
  });

  it('checks a drawn reservation code through an index of its own, not by reading every reservation', async () => {
    // new_reservation_code() asks `where reservation_code = $1` without the salon (migration 0008); the unique
    // index leads with salon_id, so before migration 0018 every booking scanned the whole table.
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(
        sql`explain select 1 from reservations where reservation_code = 'ABCD2345'`,
      )) as unknown as { rows: Array<Record<string, string>> };
      return result.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('reservations_code_idx');
  });

  it('refuses overlapping active reservations for one staff member with SQLSTATE 23P01', async () => {
    await database.db
      .insert(reservations)
      .values(booking(ids.staffA, '2030-01-10T01:00Z', '2030-01-10T02:30Z', 'pending'));
    const overlapping = database.db
      .insert(reservations)
      .values(booking(ids.staffA, '2030-01-10T02:00Z', '2030-01-10T03:00Z', 'confirmed'));
    await expect(overlapping).rejects.toSatisfy((error) => sqlState(error) === SQLSTATE.exclusionViolation);
  });

  it('lets back-to-back bookings, other staff and cancelled rows through', async () => {
    const { db } = database;
    // Ends exactly when the first begins: half-open ranges do not overlap.
    await db.insert(reservations).values(booking(ids.staffA, '2030-01-10T00:00Z', '2030-01-10T01:00Z', 'confirmed'));
    // Another staff member at the same time, for another customer (one customer's own bookings may not overlap).
    const [other] = await db.insert(customers).values({ salon_id: ids.salon, name: '結衣' }).returning();
    await db
      .insert(reservations)
      .values({ ...booking(ids.staffB, '2030-01-10T01:00Z', '2030-01-10T02:30Z', 'pending'), customer_id: other!.id });
    await db.insert(reservations).values(booking(ids.staffA, '2030-01-10T01:30Z', '2030-01-10T02:00Z', 'cancelled'));
    const count = await db.$count(reservations);
    expect(count).toBe(4);
  });

  it('refuses overlapping active bookings a customer made themselves, with any staff member (23P01)', async () => {
    const { db } = database;
    await db.insert(reservations).values(booking(ids.staffA, '2030-02-10T01:00Z', '2030-02-10T02:30Z', 'pending'));
    const sameCustomer = db
      .insert(reservations)
      .values(booking(ids.staffB, '2030-02-10T02:00Z', '2030-02-10T03:00Z', 'pending'));
    await expect(sameCustomer).rejects.toSatisfy(
      (error) =>
        sqlState(error) === SQLSTATE.exclusionViolation &&
        String((error as Error).cause ?? error).includes('reservations_customer_no_overlap'),
    );
    // A booking staff made for the same customer at the same time is theirs to decide.
    await db
      .insert(reservations)
      .values({ ...booking(ids.staffB, '2030-02-10T02:00Z', '2030-02-10T03:00Z', 'pending'), created_by: 'staff' });
  });

  it('checks service durations and prices in the database too', async () => {
    const bad = database.db
      .insert(services)
      .values({ salon_id: ids.salon, name: 'x', price: 100, duration_minutes: 47 });
    await expect(bad).rejects.toSatisfy((error) => sqlState(error) === SQLSTATE.checkViolation);
  });
});
