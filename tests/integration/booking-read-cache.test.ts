import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '#server/db/schema';
import { at, startBookingApp, times, type BookingWorld } from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

const priceOf = async (w: BookingWorld, serviceId: number) => {
  const menu = await w.api('/api/services/');
  return (menu.body as unknown as Array<{ id: number; price: string }>).find((row) => row.id === serviceId)?.price;
};

/**
 * What a write drops from the booking read cache (server/app.ts, docs/decisions/0004-booking-read-cache.md): a write
 * of reservations keeps the settings (the menu here), so bookings do not read them again; any other write drops all.
 * The services row is changed behind the app's back to see which of the two happened.
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
});
