import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salons, services } from '#server/db/schema';
import { at, startBookingApp, times, twoStaffCast, type BookingWorld } from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

const priceOf = async (w: BookingWorld, serviceId: number) => {
  const menu = await w.api('/api/services/');
  return (menu.body as unknown as Array<{ id: number; price: string }>).find((row) => row.id === serviceId)?.price;
};

/**
 * What a write drops from the booking read cache (server/app.ts, docs/decisions/0004-booking-read-cache.md): a write
 * of reservations keeps the settings (the menu here), so bookings do not read them again; any other write drops all.
 * The services row is changed behind the app's back to see which of the two happened. The staff reservation list
 * is cached there too, under the scope it was read with (docs/decisions/0017-staff-list-cache.md).
 */
describe(`the booking read cache after writes on ${testEngine}`, () => {
  let w: BookingWorld;
  beforeAll(async () => {
    w = await startBookingApp();
  });
  afterAll(() => w?.close());

  it('a booking keeps the menu and drops the day’s starts; a menu change through the API drops both', async () => {
    const staff = await w.staff('cache-staff');
    const customer = await w.customer();
    const service = await w.service('キャッシュ確認', 60, 5000);
    await w.openSlots(staff.id, '2030-02-05', times('10:00', '12:00'));
    const starts = async () =>
      (await w.api(`/api/availability/?date=2030-02-05&service_id=${service.id}`)).body as unknown as string[];
    expect(await priceOf(w, service.id)).toBe('5000');
    expect(await starts()).toEqual(times('10:00', '11:30'));

    await w.db.update(services).set({ price: 6000 }).where(eq(services.id, service.id));
    expect((await w.book(customer, service.id, at('2030-02-05', '10:00'))).status).toBe(201);
    expect(await starts()).toEqual(['11:00']);
    expect(await priceOf(w, service.id)).toBe('5000');

    const patched = await w.api(`/api/services/${service.id}/`, {
      method: 'PATCH',
      token: w.admin.token,
      json: { price: 7000 },
    });
    expect(patched.status).toBe(200);
    expect(await priceOf(w, service.id)).toBe('7000');
  });

  it('/api/config/ is answered from the cached salons row, and a settings change through the API is seen at once', async () => {
    const nameOf = async () => ((await w.api('/api/config/')).body as unknown as { salon_name: string }).salon_name;
    const before = await nameOf();
    await w.db.update(salons).set({ name: '裏で変えた名前' }).where(eq(salons.id, w.t.salonId));
    expect(await nameOf()).toBe(before);

    const patched = await w.api('/api/admin/settings/', {
      method: 'PATCH',
      token: w.admin.token,
      json: { salon_name: 'サロン新名' },
    });
    expect(patched.status).toBe(200);
    expect(await nameOf()).toBe('サロン新名');
    const settings = await w.api('/api/admin/settings/', { token: w.admin.token });
    expect(settings.body).toMatchObject({ salon_name: 'サロン新名' });
  });

  it('the staff day list: cached per scope, never another scope’s answer, and fresh after a write', async () => {
    const { staffA, staffB, hanako, yui, short } = await twoStaffCast(w, 'list-cache');
    const day = '2030-02-06';
    await w.openSlots(staffA.id, day, times('10:00', '11:00'));
    await w.openSlots(staffB.id, day, times('10:00', '11:00'));
    const a = await w.book(hanako, short.id, at(day, '10:00'), { staff_id: staffA.id });
    const b = await w.book(yui, short.id, at(day, '10:00'), { staff_id: staffB.id });
    expect([a.status, b.status]).toEqual([201, 201]);
    const list = async (token: string, extra = '') => {
      const result = await w.api(`/api/admin/reservations/?start_date=${day}&end_date=${day}${extra}`, { token });
      expect(result.status).toBe(200);
      // The cached answer is sent as it was encoded once (server/zod-app.ts encodeJson): still JSON.
      expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const rows = result.body as unknown as Array<{ staff_id: number; status: string }>;
      return { total: result.headers.get('x-total-count'), rows: rows.map((row) => `${row.staff_id}:${row.status}`) };
    };

    const everyone = { total: '2', rows: [`${staffA.id}:pending`, `${staffB.id}:pending`].sort() };
    const sorted = (answer: { total: string | null; rows: string[] }) => ({ ...answer, rows: answer.rows.sort() });
    expect(sorted(await list(w.admin.token))).toEqual(everyone);
    // A row of the cached, encoded-once list is what the route serializing on each request answers.
    const number = (a.body as { reservation_number: string }).reservation_number;
    const [listed, detail] = await Promise.all([
      w.api(`/api/admin/reservations/?start_date=${day}&end_date=${day}`, { token: staffA.token }),
      w.api(`/api/admin/reservations/${number}/`, { token: staffA.token }),
    ]);
    expect(listed.body).toEqual([detail.body]);
    // Asked again in each scope, after the superuser's answer was cached: each sees exactly its own.
    expect(await list(staffA.token)).toEqual({ total: '1', rows: [`${staffA.id}:pending`] });
    expect(await list(staffB.token, `&user_id=${staffA.id}`)).toEqual({ total: '1', rows: [`${staffB.id}:pending`] });
    expect(await list(w.admin.token, `&user_id=${staffB.id}`)).toEqual({ total: '1', rows: [`${staffB.id}:pending`] });
    expect(sorted(await list(w.admin.token))).toEqual(everyone);

    const confirmed = await w.api(
      `/api/admin/reservations/${(a.body as { reservation_number: string }).reservation_number}/confirm/`,
      {
        method: 'POST',
        token: staffA.token,
      },
    );
    expect(confirmed.status).toBe(200);
    expect(await list(staffA.token)).toEqual({ total: '1', rows: [`${staffA.id}:confirmed`] });
    expect(sorted(await list(w.admin.token))).toEqual({
      total: '2',
      rows: [`${staffA.id}:confirmed`, `${staffB.id}:pending`].sort(),
    });
  });
});
