import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
  twoStaffCast,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/** Acceptance item 6: reservations created by staff, for a known customer or a walk-in. */
describe(`staff-created reservations on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let gel: ServiceRow;
  let short: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    ({ staffA, staffB, hanako, yui, gel, short } = await twoStaffCast(w, 'create'));
    // Staff A's only opening slots: 2030-02-04. Everything else staff book here is outside opening slots.
    await w.openSlots(staffA.id, '2030-02-04', times('09:00', '18:00'));
  });
  afterAll(() => w?.close());

  const createFor = (token: string, body: Record<string, unknown>) =>
    w.api('/api/admin/reservations/create-for-customer/', { method: 'POST', token, json: body });
  const createNew = (token: string, body: Record<string, unknown>) =>
    w.api('/api/admin/reservations/create-with-new-customer/', { method: 'POST', token, json: body });
  const customerCount = async () => (await w.db.select({ value: count() }).from(customers))[0]!.value;

  it('create-for-customer: confirmed, assigned to the caller, also outside opening slots; an overlap is 409', async () => {
    const regular = await w.customer({ name: '中村 奈々', email: 'nana@example.com', assignedStaffId: staffA.id });
    // Staff A has no slots on 2030-02-10 at all: staff may still book.
    const created = await createFor(staffA.token, {
      service_id: gel.id,
      customer_id: regular.id,
      start_time: '2030-02-10T19:00',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'confirmed',
      staff_id: staffA.id,
      customer_id: regular.id,
      customer_name: '中村 奈々',
      start_time: '2030-02-10T19:00:00',
      end_time: '2030-02-10T20:30:00',
    });
    const overlap = await createFor(staffA.token, {
      service_id: short.id,
      customer_id: regular.id,
      start_time: '2030-02-10T20:00',
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body).toEqual({ detail: SERVER_MESSAGES.staffTimeTaken, code: 'slot_unavailable' });
    // Touching is not overlapping.
    expect(
      (
        await createFor(staffA.token, {
          service_id: short.id,
          customer_id: regular.id,
          start_time: '2030-02-10T20:30',
        })
      ).status,
    ).toBe(201);
    // An overlap with a customer's pending booking of the same staff member is refused too.
    const pending = await w.booked(yui, short.id, at('2030-02-04', '15:00'));
    expect(pending.staff_id).toBe(staffA.id);
    const onPending = await createFor(staffA.token, {
      service_id: gel.id,
      customer_id: regular.id,
      start_time: '2030-02-04T14:00',
    });
    expect(onPending.status).toBe(409);
    // An ordinary staff member's staff_id is ignored; a superuser's is honoured.
    const ignored = await createFor(staffA.token, {
      service_id: short.id,
      customer_id: regular.id,
      start_time: '2030-02-11T10:00',
      staff_id: staffB.id,
    });
    expect(ignored.body).toMatchObject({ status: 'confirmed', staff_id: staffA.id });
    const chosen = await createFor(w.admin.token, {
      service_id: short.id,
      customer_id: regular.id,
      start_time: '2030-02-11T10:00',
      staff_id: staffB.id,
    });
    expect(chosen.status).toBe(201);
    expect(chosen.body).toMatchObject({ status: 'confirmed', staff_id: staffB.id });
    // A customer outside staff B's scope is not found for staff B.
    const stranger = await createFor(staffB.token, {
      service_id: short.id,
      customer_id: hanako.id,
      start_time: '2030-02-12T10:00',
    });
    expect(stranger.status).toBe(404);
  });

  it('create-with-new-customer reuses a customer with the same e-mail or phone without renaming them', async () => {
    const known = await w.customer({
      name: '森 千尋',
      email: 'Chihiro@Example.com',
      phoneNumber: '09011112222',
      assignedStaffId: staffA.id,
    });
    const before = await customerCount();
    const byEmail = await createNew(staffA.token, {
      name: '別人 名前',
      email: 'chihiro@example.com',
      service_id: short.id,
      start_time: '2030-02-13T10:00',
    });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body).toMatchObject({
      customer_id: known.id,
      customer_name: '森 千尋',
      status: 'confirmed',
      staff_id: staffA.id,
    });
    const byPhone = await createNew(staffA.token, {
      name: 'もう一人',
      phone_number: '09011112222',
      service_id: short.id,
      start_time: '2030-02-13T11:00',
    });
    expect(byPhone.status).toBe(201);
    expect(byPhone.body).toMatchObject({ customer_id: known.id, customer_name: '森 千尋' });
    expect(await customerCount()).toBe(before);
    const [stored] = await w.db.select().from(customers).where(eq(customers.id, known.id));
    expect(stored).toMatchObject({ name: '森 千尋', email: 'Chihiro@Example.com', phone_number: '09011112222' });
  });

  it('create-with-new-customer creates a customer when nothing matches, and nothing when the booking is refused', async () => {
    const before = await customerCount();
    const created = await createNew(staffA.token, {
      name: '新規 陽子',
      email: 'yoko@example.com',
      phone_number: '08033334444',
      service_id: gel.id,
      start_time: '2030-02-14T10:00',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      customer_name: '新規 陽子',
      customer_email: 'yoko@example.com',
      status: 'confirmed',
      staff_id: staffA.id,
    });
    expect(await customerCount()).toBe(before + 1);
    const [stored] = await w.db
      .select()
      .from(customers)
      .where(eq(customers.id, created.body.customer_id as number));
    expect(stored).toMatchObject({ name: '新規 陽子', email: 'yoko@example.com', phone_number: '08033334444' });

    // The same staff member's time is taken: 409, and no customer row is left behind.
    const overlap = await createNew(staffA.token, {
      name: '重複 さん',
      email: 'overlap@example.com',
      service_id: short.id,
      start_time: '2030-02-14T10:30',
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe('slot_unavailable');
    const walkIn = await createNew(staffA.token, {
      name: '飛び込み',
      service_id: short.id,
      start_time: '2030-02-14T11:00',
    });
    expect(walkIn.status).toBe(409);
    // A superuser naming a staff member who does not exist: 400, and no customer either.
    const noSuchStaff = await createNew(w.admin.token, {
      name: '飛び込み',
      service_id: short.id,
      start_time: '2030-02-15T11:00',
      staff_id: 999_999,
    });
    expect(noSuchStaff.status).toBe(400);
    expect(noSuchStaff.body).toMatchObject({ fields: { staff_id: [MESSAGES.staffNotFound] } });
    expect(await customerCount()).toBe(before + 1);
  });
});
