import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salons, serviceOptionLinks, serviceOptions, services } from '#server/db/schema';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import { startBookingApp, type BookingWorld, type StaffMember } from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

const SERVICES_INVALID = {
  detail: MESSAGES.optionServicesInvalid,
  code: 'invalid',
  fields: { service_ids: [MESSAGES.optionServicesInvalid] },
};

/**
 * The salon's options in one place (GET/POST/PATCH/DELETE /api/admin/options/, server/features/menu/menu.routes.ts):
 * one row per option, allowed by any number of menus (service_ids), which the public menu lists under each of them.
 */
describe(`the salon's options on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('salon-options-staff', '佐藤 美咲');
  });
  afterAll(() => w?.close());

  const call = (method: string, path: string, json?: unknown) => w.api(path, { method, token: staff.token, json });
  const list = async () => (await call('GET', '/api/admin/options/')).body as unknown as Array<{ id: number }>;
  const optionsUnder = async (serviceId: number) => {
    const menu = (await w.api('/api/services/')).body as unknown as Service[];
    return menu.find((service) => service.id === serviceId)?.options;
  };
  const counts = async () => ({
    options: (await w.db.select({ value: count() }).from(serviceOptions))[0]!.value,
    links: (await w.db.select({ value: count() }).from(serviceOptionLinks))[0]!.value,
  });

  it('creates one option for several menus, lists it with them, edits it for all, moves it and deletes it', async () => {
    const french = await w.service('フレンチ', 60, 6600);
    const gradation = await w.service('グラデーション', 90, 7700);
    const care = await w.service('ケア', 30, 3300);

    const created = await call('POST', '/api/admin/options/', {
      name: ' ジェルオフ ',
      price: '1100',
      duration_minutes: 30,
      service_ids: [gradation.id, french.id, french.id],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    // The menus in menu order, each once.
    const option = {
      id,
      name: 'ジェルオフ',
      price: 1100,
      duration_minutes: 30,
      service_ids: [french.id, gradation.id],
    };
    expect(created.body).toEqual({ ...option, sort_order: expect.any(Number) });
    expect(await list()).toContainEqual(created.body);
    const publicEntry = { id, name: 'ジェルオフ', price: '1100', duration_minutes: 30 };
    expect(await optionsUnder(french.id)).toEqual([publicEntry]);
    expect(await optionsUnder(gradation.id)).toEqual([publicEntry]);
    expect(await optionsUnder(care.id)).toEqual([]);

    const repriced = await call('PATCH', `/api/admin/options/${id}/`, { price: 1320 });
    expect(repriced.status, repriced.text).toBe(200);
    expect(repriced.body).toMatchObject({ ...option, price: 1320 });
    expect(await optionsUnder(french.id)).toEqual([{ ...publicEntry, price: '1320' }]);
    expect(await optionsUnder(gradation.id)).toEqual([{ ...publicEntry, price: '1320' }]);

    // service_ids replaces the set: off French, onto ケア.
    const moved = await call('PATCH', `/api/admin/options/${id}/`, { service_ids: [care.id, gradation.id] });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ service_ids: [gradation.id, care.id], price: 1320 });
    expect(await optionsUnder(french.id)).toEqual([]);
    expect(await optionsUnder(care.id)).toEqual([{ ...publicEntry, price: '1320' }]);

    // No menu at all: kept in the salon's list, offered nowhere.
    const unused = await call('PATCH', `/api/admin/options/${id}/`, { service_ids: [] });
    expect(unused.body).toMatchObject({ id, service_ids: [] });
    expect(await optionsUnder(gradation.id)).toEqual([]);
    expect(await list()).toContainEqual(unused.body);

    await call('PATCH', `/api/admin/options/${id}/`, { service_ids: [french.id] });
    const deleted = await call('DELETE', `/api/admin/options/${id}/`);
    expect(deleted.status).toBe(204);
    expect(await optionsUnder(french.id)).toEqual([]);
    expect((await list()).map((row) => row.id)).not.toContain(id);
    const [row] = await w.db.select().from(serviceOptions).where(eq(serviceOptions.id, id));
    expect(row).toMatchObject({ is_active: false, price: 1320 });
    expect((await call('DELETE', `/api/admin/options/${id}/`)).body).toEqual({
      detail: MESSAGES.optionNotFound,
      code: 'not_found',
    });
    expect((await call('PATCH', `/api/admin/options/${id}/`, { price: 1 })).status).toBe(404);
  });

  it('adding an option on a menu (POST /api/services/{id}/options/) makes one row, listed here with that menu', async () => {
    const service = await w.service('ワンカラー 追加', 60);
    const before = await counts();
    const created = await call('POST', `/api/services/${service.id}/options/`, {
      name: 'ケア',
      price: 550,
      duration_minutes: 10,
    });
    expect(created.status, created.text).toBe(201);
    expect(await counts()).toEqual({ options: before.options + 1, links: before.links + 1 });
    expect(await list()).toContainEqual(
      expect.objectContaining({ id: created.body.id, name: 'ケア', price: 550, service_ids: [service.id] }),
    );
  });

  it('a deleted menu is no longer among an option’s menus', async () => {
    const kept = await w.service('残るメニュー', 60);
    const retiring = await w.service('終わるメニュー', 60);
    const option = await w.option([kept.id, retiring.id], 'アート1本', 10, 550);
    expect((await call('DELETE', `/api/services/${retiring.id}/`)).status).toBe(204);
    expect(await list()).toContainEqual(expect.objectContaining({ id: option.id, service_ids: [kept.id] }));
  });

  it('refuses menus of another salon, deleted, unknown or malformed ones with a Japanese 400 and writes nothing', async () => {
    const mine = await w.service('自店メニュー', 60);
    const retired = await w.service('削除済みメニュー', 60, 3000, false);
    const [otherSalon] = await w.db.insert(salons).values({ name: '別のサロン' }).returning();
    const [foreign] = await w.db
      .insert(services)
      .values({ salon_id: otherSalon!.id, name: '他店メニュー', price: 5000, duration_minutes: 60 })
      .returning();
    const option = await w.option(mine.id, 'パラジェル', 15);
    const before = await counts();
    const valid = { name: 'ストーン', price: 550, duration_minutes: 15 };

    for (const serviceIds of [[foreign!.id], [mine.id, retired.id], [2_000_000_000]]) {
      const created = await call('POST', '/api/admin/options/', { ...valid, service_ids: serviceIds });
      expect(created.status, JSON.stringify(serviceIds)).toBe(400);
      expect(created.body).toEqual(SERVICES_INVALID);
      const edited = await call('PATCH', `/api/admin/options/${option.id}/`, { price: 1, service_ids: serviceIds });
      expect(edited.status, JSON.stringify(serviceIds)).toBe(400);
      expect(edited.body).toEqual(SERVICES_INVALID);
    }
    const malformed: unknown[] = [[0], [-1], [1.5], ['abc'], [null], [{}], [2_147_483_648], 'x', 5, null];
    for (const serviceIds of malformed) {
      const created = await call('POST', '/api/admin/options/', { ...valid, service_ids: serviceIds });
      expect(created.status, JSON.stringify(serviceIds)).toBe(400);
      expect(created.body, JSON.stringify(serviceIds)).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { service_ids: [MESSAGES.optionServicesInvalid] },
      });
    }
    const missing = await call('POST', '/api/admin/options/', valid);
    expect(missing.body).toMatchObject({ fields: { service_ids: [MESSAGES.fieldRequired] } });
    // The option's own fields follow the per-menu calls' rules.
    const badMinutes = await call('POST', '/api/admin/options/', { ...valid, duration_minutes: 7, service_ids: [] });
    expect(badMinutes.body).toMatchObject({ fields: { duration_minutes: [MESSAGES.optionDurationInvalid] } });
    const badPrice = await call('PATCH', `/api/admin/options/${option.id}/`, { price: -1 });
    expect(badPrice.body).toMatchObject({ fields: { price: [MESSAGES.priceInvalid] } });

    expect(await counts()).toEqual(before);
    expect(await optionsUnder(mine.id)).toEqual([
      { id: option.id, name: 'パラジェル', price: '1100', duration_minutes: 15 },
    ]);
    for (const id of ['999999', 'abc', '0', '2147483648']) {
      expect((await call('PATCH', `/api/admin/options/${id}/`, { price: 1 })).status, id).toBe(404);
      expect((await call('DELETE', `/api/admin/options/${id}/`)).status, id).toBe(404);
    }
  });

  it('another salon’s option is not found through this salon’s calls', async () => {
    const [otherSalon] = await w.db.insert(salons).values({ name: '別のサロン2' }).returning();
    const [foreign] = await w.db
      .insert(serviceOptions)
      .values({ salon_id: otherSalon!.id, name: '他店オプション', price: 100, duration_minutes: 5 })
      .returning();
    expect((await list()).map((row) => row.id)).not.toContain(foreign!.id);
    expect((await call('PATCH', `/api/admin/options/${foreign!.id}/`, { price: 1 })).status).toBe(404);
    expect((await call('DELETE', `/api/admin/options/${foreign!.id}/`)).status).toBe(404);
  });
});
