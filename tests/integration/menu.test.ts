import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations, services } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { Reservation } from '../../src/shared/schemas/reservations';
import {
  at,
  availability,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/** Menu management (docs/screens.md#menu-management POST/PATCH/DELETE /api/services/): staff only, validated, soft delete. */
describe(`menu management on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let hanako: CustomerMember;

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('menu-staff', '佐藤 美咲');
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    await w.openSlots(staff.id, '2030-01-15', times('10:00', '16:00'));
  });
  afterAll(() => w?.close());

  const create = (body: unknown, token: string = staff.token) =>
    w.api('/api/services/', { method: 'POST', token, json: body });
  const patch = (id: number | string, body: unknown, token: string = staff.token) =>
    w.api(`/api/services/${id}/`, { method: 'PATCH', token, json: body });
  const remove = (id: number | string, token: string = staff.token) =>
    w.api(`/api/services/${id}/`, { method: 'DELETE', token });
  const publicMenu = async () => (await w.api('/api/services/')).body as unknown as Array<Record<string, unknown>>;
  const serviceCount = async () => (await w.db.select({ value: count() }).from(services))[0]!.value;
  const serviceRow = async (id: number) => (await w.db.select().from(services).where(eq(services.id, id)))[0];

  it('creates, edits and deletes a service; the public menu follows', async () => {
    const created = await create({
      name: '  ジェルネイル ワンカラー ',
      price: '5000',
      duration_minutes: 90,
      salon: w.t.salonId,
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toEqual({
      id,
      name: 'ジェルネイル ワンカラー',
      price: '5000',
      duration_minutes: 90,
      salon: w.t.salonId,
      // No 再来店のご案内 unless staff give it a cycle.
      rebook_cycle_days: null,
      // A new service has no options yet; the answer has the menu's shape all the same.
      options: [],
    });
    expect(await publicMenu()).toContainEqual(created.body);

    // Without `salon`, and with the price as a number; the superuser may manage the menu too.
    const care = await create({ name: 'ハンドケア', price: 0, duration_minutes: 30 }, w.admin.token);
    expect(care.status).toBe(201);
    expect(care.body).toMatchObject({ name: 'ハンドケア', price: '0', duration_minutes: 30 });

    const edited = await patch(id, { price: 6500 });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({
      id,
      name: 'ジェルネイル ワンカラー',
      price: '6500',
      duration_minutes: 90,
      salon: w.t.salonId,
      rebook_cycle_days: null,
      options: [],
    });
    const renamed = await patch(id, { name: 'ジェルネイル', duration_minutes: '120', salon: w.t.salonId });
    expect(renamed.body).toMatchObject({ name: 'ジェルネイル', price: '6500', duration_minutes: 120 });
    expect(await publicMenu()).toContainEqual(renamed.body);
    // An empty patch changes nothing and answers the service.
    expect((await patch(id, {})).body).toEqual(renamed.body);

    const deleted = await remove(id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await publicMenu()).map((service) => service.id)).not.toContain(id);
    expect(await serviceRow(id)).toMatchObject({ is_active: false, name: 'ジェルネイル', price: 6500 });
    // A deleted service is gone for the menu API too.
    expect((await remove(id)).status).toBe(404);
    expect((await patch(id, { price: 1 })).status).toBe(404);
    expect((await patch(id, { price: 1 })).body).toEqual({
      detail: SERVER_MESSAGES.serviceNotFound,
      code: 'not_found',
    });
    expect((await serviceRow(id))?.price).toBe(6500);
  });

  it('takes durations from 15 to 240 minutes in steps of 5, and the database holds the same rule', async () => {
    for (const minutes of [15, 45, 75, 235, 240]) {
      const created = await create({ name: `${minutes}分メニュー`, price: 1000, duration_minutes: minutes });
      expect(created.status, String(minutes)).toBe(201);
      expect(created.body.duration_minutes).toBe(minutes);
      const patched = await patch(created.body.id as number, { duration_minutes: minutes === 240 ? 20 : minutes + 5 });
      expect(patched.status, String(minutes)).toBe(200);
    }
    const id = (await create({ name: '直接', price: 1000, duration_minutes: 60 })).body.id as number;
    await expect(w.db.update(services).set({ duration_minutes: 62 }).where(eq(services.id, id))).rejects.toThrow();
    await expect(w.db.update(services).set({ duration_minutes: 10 }).where(eq(services.id, id))).rejects.toThrow();
  });

  it('answers 404 for unknown or malformed ids, never a 500', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999', '2147483648', '%20', '1e3']) {
      expect((await patch(id, { price: 100 })).status, `PATCH ${id}`).toBe(404);
      expect((await remove(id)).status, `DELETE ${id}`).toBe(404);
    }
  });

  it('is for staff: anonymous and customer tokens get 401 and nothing changes', async () => {
    const before = await serviceCount();
    const target = (await create({ name: 'フットケア', price: 4000, duration_minutes: 60 })).body.id as number;
    // No token at all (the helpers' default is the staff token), then a customer's.
    for (const token of [undefined, hanako.token]) {
      const json = { name: '不正', price: 1, duration_minutes: 30 };
      expect((await w.api('/api/services/', { method: 'POST', token, json })).status).toBe(401);
      expect((await w.api(`/api/services/${target}/`, { method: 'PATCH', token, json: { price: 1 } })).status).toBe(
        401,
      );
      expect((await w.api(`/api/services/${target}/`, { method: 'DELETE', token })).status).toBe(401);
    }
    expect(await serviceCount()).toBe(before + 1);
    expect(await serviceRow(target)).toMatchObject({ price: 4000, is_active: true });
  });

  it('refuses each bad field with its Japanese message and writes nothing', async () => {
    const valid = { name: 'ネイルオフ', price: 3000, duration_minutes: 60 };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: undefined }, 'name', MESSAGES.fieldRequired],
      [{ name: '   ' }, 'name', MESSAGES.fieldRequired],
      [{ name: 'あ'.repeat(101) }, 'name', MESSAGES.tooLong],
      [{ name: 12 }, 'name', MESSAGES.fieldRequired],
      [{ price: undefined }, 'price', MESSAGES.fieldRequired],
      [{ price: '' }, 'price', MESSAGES.fieldRequired],
      [{ price: -1 }, 'price', MESSAGES.priceInvalid],
      [{ price: '-500' }, 'price', MESSAGES.priceInvalid],
      [{ price: 1.5 }, 'price', MESSAGES.priceInvalid],
      [{ price: '12.5' }, 'price', MESSAGES.priceInvalid],
      [{ price: '５０００' }, 'price', MESSAGES.priceInvalid],
      [{ price: 'abc' }, 'price', MESSAGES.priceInvalid],
      [{ price: true }, 'price', MESSAGES.priceInvalid],
      [{ price: 10_000_001 }, 'price', MESSAGES.priceTooHigh],
      [{ duration_minutes: undefined }, 'duration_minutes', MESSAGES.fieldRequired],
      [{ duration_minutes: 0 }, 'duration_minutes', MESSAGES.durationInvalid],
      [{ duration_minutes: 10 }, 'duration_minutes', MESSAGES.durationInvalid],
      [{ duration_minutes: 47 }, 'duration_minutes', MESSAGES.durationInvalid],
      [{ duration_minutes: 270 }, 'duration_minutes', MESSAGES.durationInvalid],
      [{ duration_minutes: 90.5 }, 'duration_minutes', MESSAGES.durationInvalid],
      [{ duration_minutes: '九十' }, 'duration_minutes', MESSAGES.durationInvalid],
    ];
    const before = await serviceCount();
    for (const [override, field, message] of cases) {
      const result = await create({ ...valid, ...override });
      expect(result.status, JSON.stringify(override)).toBe(400);
      expect(result.body, JSON.stringify(override)).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { [field]: [message] },
      });
    }
    // The limits themselves are fine.
    const edge = await create({ name: 'あ'.repeat(100), price: 10_000_000, duration_minutes: 240 });
    expect(edge.status).toBe(201);
    expect(await serviceCount()).toBe(before + 1);

    // Another salon's id is refused, not silently replaced.
    const otherSalon = await create({ ...valid, salon: w.t.salonId + 1 });
    expect(otherSalon.status).toBe(400);
    expect(otherSalon.body).toEqual({
      detail: MESSAGES.salonNotFound,
      code: 'invalid',
      fields: { salon: [MESSAGES.salonNotFound] },
    });
    expect(await serviceCount()).toBe(before + 1);

    // PATCH: the same rules; a bad field next to a good one changes nothing at all.
    const id = edge.body.id as number;
    for (const [override, field, message] of cases.filter(([o]) => Object.values(o)[0] !== undefined)) {
      const result = await patch(id, { name: '変更後', ...override });
      expect(result.status, JSON.stringify(override)).toBe(400);
      expect(result.body.fields, JSON.stringify(override)).toEqual({ [field]: [message] });
    }
    expect((await patch(id, { price: 1, salon: w.t.salonId + 1 })).status).toBe(400);
    expect(await serviceRow(id)).toMatchObject({
      name: 'あ'.repeat(100),
      price: 10_000_000,
      duration_minutes: 240,
      is_active: true,
    });
    // Malformed JSON is a 400 too.
    const broken = await w.api('/api/services/', {
      method: 'POST',
      token: staff.token,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(await serviceCount()).toBe(before + 1);
  });

  it('a price change after booking leaves the reservation; deleting hides the service from booking only', async () => {
    const created = await create({ name: 'ラメグラデーション', price: 7000, duration_minutes: 60 });
    const service = created.body as { id: number; name: string };
    expect(await availability(w, '2030-01-15', service.id)).toContain('10:00');
    const booked = await w.booked(hanako, service.id, at('2030-01-15', '10:00'));
    expect(booked.service).toEqual({ id: service.id, name: 'ラメグラデーション', price: '7000', duration_minutes: 60 });

    // Edit the service after the booking: the reservation keeps its snapshot.
    expect(
      (await patch(service.id, { name: 'ラメグラデーション（改定）', price: 9000, duration_minutes: 90 })).status,
    ).toBe(200);
    const detail = async () => {
      const result = await w.api(`/api/reservations/${booked.reservation_number}/`, { token: hanako.token });
      expect(result.status).toBe(200);
      return result.body as unknown as Reservation;
    };
    const afterEdit = await detail();
    expect(afterEdit.service).toEqual({
      id: service.id,
      name: 'ラメグラデーション',
      price: '7000',
      duration_minutes: 60,
    });
    expect(afterEdit).toMatchObject({
      service_name: 'ラメグラデーション',
      start_time: '2030-01-15T10:00:00',
      end_time: '2030-01-15T11:00:00',
    });
    const [row] = await w.db
      .select()
      .from(reservations)
      .where(eq(reservations.reservation_number, booked.reservation_number));
    expect(row).toMatchObject({
      price: 7000,
      service_name: 'ラメグラデーション',
      duration_minutes: 60,
      service_id: service.id,
    });

    // Delete it: the reservation is untouched, its detail still reads the same.
    expect((await remove(service.id)).status).toBe(204);
    expect(await detail()).toEqual(afterEdit);
    const staffView = await w.api(`/api/admin/reservations/${booked.reservation_number}/`, { token: staff.token });
    expect(staffView.status).toBe(200);
    expect(staffView.body).toMatchObject({ status: 'pending', service: afterEdit.service });
    // Its lifecycle goes on: staff can still confirm it.
    expect(
      (
        await w.api(`/api/admin/reservations/${booked.reservation_number}/confirm/`, {
          method: 'POST',
          token: staff.token,
        })
      ).status,
    ).toBe(200);

    // Booking no longer offers the service, in any of its calls.
    expect((await publicMenu()).map((s) => s.id)).not.toContain(service.id);
    const slots = await w.api(`/api/availability/?date=2030-01-15&service_id=${service.id}`);
    expect(slots.status).toBe(400);
    expect(slots.body).toMatchObject({ fields: { service_id: [SERVER_MESSAGES.serviceNotFound] } });
    expect((await w.api(`/api/bookable-dates/?year=2030&month=1&service_id=${service.id}`)).status).toBe(400);
    const book = await w.book(hanako, service.id, at('2030-01-15', '13:00'));
    expect(book.status).toBe(400);
    expect(book.body).toMatchObject({ fields: { service: [SERVER_MESSAGES.serviceNotFound] } });
    const byStaff = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: w.admin.token,
      json: { service_id: service.id, customer_id: hanako.id, start_time: '2030-01-16T10:00' },
    });
    expect(byStaff.status).toBe(400);
    expect(
      (await w.db.select({ value: count() }).from(reservations).where(eq(reservations.service_id, service.id)))[0]!
        .value,
    ).toBe(1);
  });
});
