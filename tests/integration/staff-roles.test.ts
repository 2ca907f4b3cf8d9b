import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffUsers } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import {
  at,
  startBookingApp,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/**
 * Issue 32: the 受付 role. The front desk reaches every booking and customer and books for any nailist, like the
 * owner; it is refused the owner's routes (authorization-matrix.test.ts walks every route) and cannot change roles.
 */
describe(`staff roles on ${testEngine}`, () => {
  let w: BookingWorld;
  let nailistA: StaffMember;
  let nailistB: StaffMember;
  let desk: StaffMember;
  let customerOfA: CustomerMember;
  let service: ServiceRow;
  let hour = 0;
  const nextStart = () => {
    hour += 1;
    return at(`2030-03-${String(4 + Math.floor(hour / 8)).padStart(2, '0')}`, `${10 + (hour % 8)}:00`);
  };
  const patch = (token: string, id: number, json: Record<string, unknown>) =>
    w.api(`/api/admin/users/${id}/`, { method: 'PATCH', token, json });
  const roleOf = async (id: number) => {
    const [row] = await w.db
      .select({ role: staffUsers.role, is_superuser: staffUsers.is_superuser })
      .from(staffUsers)
      .where(eq(staffUsers.id, id));
    return row;
  };

  beforeAll(async () => {
    w = await startBookingApp();
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    nailistA = await w.staff('roles-a', '佐藤 A');
    nailistB = await w.staff('roles-b', '鈴木 B');
    desk = await w.staff('roles-desk', '受付 花子', 'front_desk');
    customerOfA = await w.customer({ name: '山田 花子', furigana: 'ヤマダ ハナコ', assignedStaffId: nailistA.id });
    service = await w.service('ジェルネイル', 60, 6000);
  });
  afterAll(() => w?.close());

  it('staff objects carry the role, and is_superuser is true exactly for the owner', async () => {
    const list = await w.api('/api/admin/users/', { token: w.admin.token });
    expect(list.status).toBe(200);
    const users = list.body as unknown as Array<{ id: number; role: string; is_superuser: boolean }>;
    const byId = new Map(users.map((user) => [user.id, user]));
    expect(byId.get(w.admin.id)).toMatchObject({ role: 'owner', is_superuser: true });
    expect(byId.get(desk.id)).toMatchObject({ role: 'front_desk', is_superuser: false });
    expect(byId.get(nailistA.id)).toMatchObject({ role: 'nailist', is_superuser: false });
    const me = await w.api('/api/admin/me/', { token: desk.token });
    expect(me.body).toMatchObject({ role: 'front_desk', is_superuser: false });
  });

  it('the front desk lists every booking and customer, and may filter by staff member', async () => {
    const ofA = await w.insertReservation({ staffId: nailistA.id, customer: customerOfA, service, start: nextStart() });
    const ofB = await w.insertReservation({ staffId: nailistB.id, customer: customerOfA, service, start: nextStart() });
    const all = await w.api('/api/admin/reservations/?page_size=100', { token: desk.token });
    const numbers = (all.body as unknown as Array<{ reservation_number: string }>).map((r) => r.reservation_number);
    expect(numbers).toEqual(expect.arrayContaining([ofA.reservation_number, ofB.reservation_number]));
    const onlyB = await w.api(`/api/admin/reservations/?user_id=${nailistB.id}`, { token: desk.token });
    const staffIds = (onlyB.body as unknown as Array<{ staff_id: number }>).map((r) => r.staff_id);
    expect(staffIds.length).toBeGreaterThan(0);
    expect(new Set(staffIds)).toEqual(new Set([nailistB.id]));
    const customer = await w.api(`/api/admin/customers/${customerOfA.id}/`, { token: desk.token });
    expect(customer.status).toBe(200);
    // A nailist still sees only their own.
    const asB = await w.api(`/api/admin/reservations/${ofA.reservation_number}/`, { token: nailistB.token });
    expect(asB.status).toBe(404);
  });

  it('the front desk books for any nailist; a nailist naming another is booked for themselves', async () => {
    const forB = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: desk.token,
      json: { service_id: service.id, customer_id: customerOfA.id, start_time: nextStart(), staff_id: nailistB.id },
    });
    expect(forB.status).toBe(201);
    expect(forB.body.staff_id).toBe(nailistB.id);
    const byA = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: nailistA.token,
      json: { service_id: service.id, customer_id: customerOfA.id, start_time: nextStart(), staff_id: nailistB.id },
    });
    expect(byA.status).toBe(201);
    expect(byA.body.staff_id).toBe(nailistA.id);
  });

  it('the owner sets the role; the front desk may not; nobody changes their own', async () => {
    const staff = await w.staff('roles-new', '新人 C');
    const promoted = await patch(w.admin.token, staff.id, { role: 'front_desk' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ role: 'front_desk', is_superuser: false });
    expect(await roleOf(staff.id)).toEqual({ role: 'front_desk', is_superuser: false });

    const byDesk = await patch(desk.token, staff.id, { role: 'owner' });
    expect(byDesk.status).toBe(403);
    expect(await roleOf(staff.id)).toEqual({ role: 'front_desk', is_superuser: false });

    const own = await patch(w.admin.token, w.admin.id, { role: 'front_desk' });
    expect(own.status).toBe(403);
    expect(own.body.detail).toBe(SERVER_MESSAGES.cannotChangeOwnRole);
    expect(await roleOf(w.admin.id)).toEqual({ role: 'owner', is_superuser: true });

    const bad = await patch(w.admin.token, staff.id, { role: 'superuser' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ role: [MESSAGES.staffRoleInvalid] });

    // The older flag still works: true makes an owner, false makes an owner a nailist.
    expect((await patch(w.admin.token, staff.id, { is_superuser: true })).body).toMatchObject({ role: 'owner' });
    expect((await patch(w.admin.token, staff.id, { is_superuser: false })).body).toMatchObject({ role: 'nailist' });
  });

  it('a new account takes its role, or is_superuser as before', async () => {
    const create = (username: string, extra: Record<string, unknown>) =>
      w.api('/api/admin/users/', {
        method: 'POST',
        token: w.admin.token,
        json: { username, full_name: '新人', email: `${username}@example.com`, password: 'long-enough-pw', ...extra },
      });
    expect((await create('role-desk', { role: 'front_desk' })).body).toMatchObject({ role: 'front_desk' });
    expect((await create('role-owner', { is_superuser: true })).body).toMatchObject({
      role: 'owner',
      is_superuser: true,
    });
    expect((await create('role-plain', {})).body).toMatchObject({ role: 'nailist', is_superuser: false });
  });

  it('the database keeps role and is_superuser together, whichever a writer names', async () => {
    const staff = await w.staff('roles-db', 'DB 確認');
    await w.db.update(staffUsers).set({ is_superuser: true }).where(eq(staffUsers.id, staff.id));
    expect(await roleOf(staff.id)).toEqual({ role: 'owner', is_superuser: true });
    await w.db.update(staffUsers).set({ role: 'front_desk' }).where(eq(staffUsers.id, staff.id));
    expect(await roleOf(staff.id)).toEqual({ role: 'front_desk', is_superuser: false });
    await expect(w.db.execute(sql`update staff_users set role = 'manager' where id = ${staff.id}`)).rejects.toThrow();
    // Both named and disagreeing: the role wins.
    await w.db.execute(sql`update staff_users set role = 'nailist', is_superuser = true where id = ${staff.id}`);
    expect(await roleOf(staff.id)).toEqual({ role: 'nailist', is_superuser: false });
  });
});
