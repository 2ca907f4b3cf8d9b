import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations, serviceOptions } from '#server/db/schema';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Service } from '#src/shared/schemas/booking';
import type { Reservation } from '#src/shared/schemas/reservations';
import {
  at,
  availability,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

/**
 * Options (オプション) of a service, managed by staff (server/features/menu/menu.routes.ts): validated, listed under
 * their service by the public menu, soft deleted so that reservations keep the option they were booked with, and
 * counted in the length availability looks for.
 */
describe(`menu options on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let hanako: CustomerMember;

  const DAY = '2030-01-15';

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('options-staff', '佐藤 美咲');
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    // Only 10:00–12:00 is open: a 60-minute booking fits at 11:00, a 90-minute one does not.
    await w.openSlots(staff.id, DAY, times('10:00', '12:00'));
    await w.setSalon({ max_upcoming_per_customer: 1000 });
  });
  afterAll(() => w?.close());

  const optionsPath = (serviceId: number | string) => `/api/services/${serviceId}/options/`;
  const create = (serviceId: number | string, body: unknown, token: string = staff.token) =>
    w.api(optionsPath(serviceId), { method: 'POST', token, json: body });
  const patch = (serviceId: number | string, optionId: number | string, body: unknown, token = staff.token) =>
    w.api(`${optionsPath(serviceId)}${optionId}/`, { method: 'PATCH', token, json: body });
  const remove = (serviceId: number | string, optionId: number | string, token = staff.token) =>
    w.api(`${optionsPath(serviceId)}${optionId}/`, { method: 'DELETE', token });
  const menuEntry = async (serviceId: number) => {
    const menu = (await w.api('/api/services/')).body as unknown as Service[];
    return menu.find((service) => service.id === serviceId);
  };
  const optionCount = async () => (await w.db.select({ value: count() }).from(serviceOptions))[0]!.value;
  const optionRow = async (id: number) =>
    (await w.db.select().from(serviceOptions).where(eq(serviceOptions.id, id)))[0];
  const startsWith = async (serviceId: number, optionIds: number[]) => {
    const result = await w.api(
      `/api/availability/?date=${DAY}&service_id=${serviceId}&option_ids=${optionIds.join(',')}`,
    );
    expect(result.status, result.text).toBe(200);
    return result.body as unknown as string[];
  };

  it('creates, edits and deletes an option; the public menu lists it under its service', async () => {
    const service = await w.service('ジェルネイル', 60, 6000);
    const created = await create(service.id, { name: '  ストーン ', price: '550', duration_minutes: 15 });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toEqual({ id, name: 'ストーン', price: '550', duration_minutes: 15 });
    // A second one is appended after it; the superuser may manage options too; 0 minutes is allowed.
    const art = await create(service.id, { name: 'アート', price: 0, duration_minutes: 0 }, w.admin.token);
    expect(art.status).toBe(201);
    expect((await menuEntry(service.id))?.options).toEqual([created.body, art.body]);

    const edited = await patch(service.id, id, { price: 770 });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ id, name: 'ストーン', price: '770', duration_minutes: 15 });
    const renamed = await patch(service.id, id, { name: 'ラインストーン', duration_minutes: '30' });
    expect(renamed.body).toEqual({ id, name: 'ラインストーン', price: '770', duration_minutes: 30 });
    // An empty patch changes nothing and answers the option.
    expect((await patch(service.id, id, {})).body).toEqual(renamed.body);
    expect((await menuEntry(service.id))?.options).toEqual([renamed.body, art.body]);

    // A service's own PATCH answers its options as the menu does.
    const serviceEdit = await w.api(`/api/services/${service.id}/`, {
      method: 'PATCH',
      token: staff.token,
      json: { price: 6600 },
    });
    expect(serviceEdit.body).toMatchObject({ price: '6600', options: [renamed.body, art.body] });

    const deleted = await remove(service.id, id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await menuEntry(service.id))?.options).toEqual([art.body]);
    expect(await optionRow(id)).toMatchObject({ is_active: false, name: 'ラインストーン', price: 770 });
    // A deleted option is gone for these calls too.
    expect((await remove(service.id, id)).body).toEqual({ detail: MESSAGES.optionNotFound, code: 'not_found' });
    expect((await patch(service.id, id, { price: 1 })).status).toBe(404);
    expect((await optionRow(id))?.price).toBe(770);
  });

  it('answers 404 with a Japanese message for unknown, other-service, deleted-service or malformed ids', async () => {
    const service = await w.service('ワンカラー', 30);
    const other = await w.service('フットジェル', 60);
    const option = await w.option(service.id, 'ケア', 10);
    const retired = await w.service('終了したメニュー', 60, 3000, false);
    const retiredOption = await w.option(retired.id, '古いオプション', 10);
    const valid = { name: 'ストーン', price: 550, duration_minutes: 15 };
    const before = await optionCount();

    for (const serviceId of ['999999', String(retired.id), 'abc', '0', '-1', '1.5', '2147483648', '%20', '1e3']) {
      const result = await create(serviceId, valid);
      expect(result.status, `POST ${serviceId}`).toBe(404);
      expect(result.body, `POST ${serviceId}`).toEqual({ detail: SERVER_MESSAGES.serviceNotFound, code: 'not_found' });
    }
    const wrongPairs: Array<[number | string, number | string]> = [
      [other.id, option.id], // another service's option
      [service.id, 999999],
      [retired.id, retiredOption.id], // the service was deleted
      [service.id, 'abc'],
      [service.id, '0'],
      [service.id, '99999999999'],
      ['abc', option.id],
    ];
    for (const [serviceId, optionId] of wrongPairs) {
      const label = `${serviceId}/${optionId}`;
      const edited = await patch(serviceId, optionId, { price: 1 });
      expect(edited.status, `PATCH ${label}`).toBe(404);
      expect(edited.body.detail, `PATCH ${label}`).toMatch(/見つかりません/);
      expect((await remove(serviceId, optionId)).status, `DELETE ${label}`).toBe(404);
    }
    expect(await optionCount()).toBe(before);
    expect(await optionRow(option.id)).toMatchObject({ price: 1100, is_active: true });
    expect(await optionRow(retiredOption.id)).toMatchObject({ price: 1100, is_active: true });
  });

  it('is for staff: anonymous and customer tokens get 401 and nothing changes', async () => {
    const service = await w.service('ハンドケア', 30);
    const option = await w.option(service.id, 'パラフィン', 15);
    const before = await optionCount();
    for (const token of [undefined, hanako.token]) {
      const json = { name: '不正', price: 1, duration_minutes: 5 };
      expect((await w.api(optionsPath(service.id), { method: 'POST', token, json })).status).toBe(401);
      const path = `${optionsPath(service.id)}${option.id}/`;
      expect((await w.api(path, { method: 'PATCH', token, json: { price: 1 } })).status).toBe(401);
      expect((await w.api(path, { method: 'DELETE', token })).status).toBe(401);
    }
    expect(await optionCount()).toBe(before);
    expect(await optionRow(option.id)).toMatchObject({ price: 1100, is_active: true });
  });

  it('refuses each bad field with its Japanese message (400, never a 500) and writes nothing', async () => {
    const service = await w.service('ネイルオフ', 30);
    const valid = { name: 'ストーン', price: 550, duration_minutes: 15 };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: undefined }, 'name', MESSAGES.fieldRequired],
      [{ name: '  ' }, 'name', MESSAGES.fieldRequired],
      [{ name: 'あ'.repeat(101) }, 'name', MESSAGES.tooLong],
      [{ price: undefined }, 'price', MESSAGES.fieldRequired],
      [{ price: -1 }, 'price', MESSAGES.priceInvalid],
      [{ price: 1.5 }, 'price', MESSAGES.priceInvalid],
      [{ price: 'abc' }, 'price', MESSAGES.priceInvalid],
      [{ price: 10_000_001 }, 'price', MESSAGES.priceTooHigh],
      [{ duration_minutes: undefined }, 'duration_minutes', MESSAGES.fieldRequired],
      [{ duration_minutes: 7 }, 'duration_minutes', MESSAGES.optionDurationInvalid],
      [{ duration_minutes: 181 }, 'duration_minutes', MESSAGES.optionDurationInvalid],
      [{ duration_minutes: 185 }, 'duration_minutes', MESSAGES.optionDurationInvalid],
      [{ duration_minutes: -5 }, 'duration_minutes', MESSAGES.optionDurationInvalid],
      [{ duration_minutes: 12.5 }, 'duration_minutes', MESSAGES.optionDurationInvalid],
      [{ duration_minutes: '十五' }, 'duration_minutes', MESSAGES.optionDurationInvalid],
    ];
    const before = await optionCount();
    for (const [override, field, message] of cases) {
      const result = await create(service.id, { ...valid, ...override });
      expect(result.status, JSON.stringify(override)).toBe(400);
      expect(result.body, JSON.stringify(override)).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { [field]: [message] },
      });
    }
    expect(await optionCount()).toBe(before);
    // The limits themselves are fine.
    const edge = await create(service.id, { name: 'あ'.repeat(100), price: 10_000_000, duration_minutes: 180 });
    expect(edge.status).toBe(201);

    // PATCH: the same rules; a bad field next to a good one changes nothing at all.
    const id = edge.body.id as number;
    for (const [override, field, message] of cases.filter(([o]) => Object.values(o)[0] !== undefined)) {
      const result = await patch(service.id, id, { name: '変更後', ...override });
      expect(result.status, JSON.stringify(override)).toBe(400);
      expect(result.body.fields, JSON.stringify(override)).toEqual({ [field]: [message] });
    }
    expect(await optionRow(id)).toMatchObject({
      name: 'あ'.repeat(100),
      price: 10_000_000,
      duration_minutes: 180,
      is_active: true,
    });
    expect(await optionCount()).toBe(before + 1);
  });

  it('a booking keeps its option snapshot after the option is edited and deleted; booking stops offering it', async () => {
    const service = await w.service('ジェルネイル ワンカラー', 60, 6000);
    const created = await create(service.id, { name: 'ストーン', price: 1100, duration_minutes: 30 });
    const option = created.body as { id: number };

    const booked = await w.book(hanako, service.id, at(DAY, '10:00'), { option_ids: [option.id] });
    expect(booked.status, booked.text).toBe(201);
    const reservation = booked.body as unknown as Reservation;
    const snapshot = [{ id: option.id, name: 'ストーン', price: '1100', duration_minutes: 30 }];
    expect(reservation.options).toEqual(snapshot);
    expect(reservation.service).toMatchObject({ price: '7100', duration_minutes: 90 });

    expect(
      (await patch(service.id, option.id, { name: 'ストーン（改定）', price: 2200, duration_minutes: 45 })).status,
    ).toBe(200);
    expect((await remove(service.id, option.id)).status).toBe(204);

    const detail = await w.api(`/api/reservations/${reservation.reservation_number}/`, { token: hanako.token });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      options: snapshot,
      service: { price: '7100', duration_minutes: 90 },
      start_time: `${DAY}T10:00:00`,
      end_time: `${DAY}T11:30:00`,
    });
    const staffView = await w.api(`/api/admin/reservations/${reservation.reservation_number}/`, { token: staff.token });
    expect(staffView.body).toMatchObject({ options: snapshot });
    const [row] = await w.db
      .select()
      .from(reservations)
      .where(eq(reservations.reservation_number, reservation.reservation_number));
    expect(row).toMatchObject({ price: 7100, duration_minutes: 90, status: 'pending' });

    // The deleted option is offered nowhere any more.
    expect((await menuEntry(service.id))?.options).toEqual([]);
    const slots = await w.api(`/api/availability/?date=${DAY}&service_id=${service.id}&option_ids=${option.id}`);
    expect(slots.status).toBe(400);
    expect(slots.body).toMatchObject({ fields: { option_ids: [MESSAGES.optionNotFound] } });
    const again = await w.book(hanako, service.id, at(DAY, '11:00'), { option_ids: [option.id] });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ fields: { option_ids: [MESSAGES.optionNotFound] } });

    // Cancel it, so the next test has the day to itself.
    const cancelled = await w.api(`/api/reservations/${reservation.reservation_number}/cancel/`, {
      method: 'POST',
      token: hanako.token,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
  });

  it('an option’s time counts: 60 minutes + a 30-minute option is not offered where only 60 minutes are open', async () => {
    const service = await w.service('ジェルネイル 60分', 60);
    const created = await create(service.id, { name: 'ハンドマッサージ', price: 1000, duration_minutes: 30 });
    const option = created.body as { id: number };

    expect(await availability(w, DAY, service.id)).toEqual(['10:00', '10:30', '11:00']);
    expect(await startsWith(service.id, [option.id])).toEqual(['10:00', '10:30']);
    // Booking at 11:00 with the option is refused: 11:00–12:30 runs past the open time.
    const refused = await w.book(hanako, service.id, at(DAY, '11:00'), { option_ids: [option.id] });
    expect(refused.status).toBe(409);
    expect(await w.activeRows(at(DAY, '00:00'), at('2030-01-16', '00:00'), [staff.id])).toEqual([]);

    // Editing the option's time changes what is offered right away.
    expect((await patch(service.id, option.id, { duration_minutes: 0 })).status).toBe(200);
    expect(await startsWith(service.id, [option.id])).toEqual(['10:00', '10:30', '11:00']);
    expect((await patch(service.id, option.id, { duration_minutes: 60 })).status).toBe(200);
    expect(await startsWith(service.id, [option.id])).toEqual(['10:00']);
  });

  it('an option allowed by two menus: an edit through one menu changes it for both; a delete takes it off one menu only', async () => {
    const french = await w.service('フレンチ', 60, 6600);
    const gradation = await w.service('グラデーション', 90, 7700);
    const sharedOff = await w.option([french.id, gradation.id], 'ジェルオフ', 30, 1100);

    const edited = await patch(french.id, sharedOff.id, { price: 1320, duration_minutes: 45 });
    expect(edited.status, edited.text).toBe(200);
    const listed = { id: sharedOff.id, name: 'ジェルオフ', price: '1320', duration_minutes: 45 };
    expect(edited.body).toEqual(listed);
    expect((await menuEntry(french.id))?.options).toEqual([listed]);
    expect((await menuEntry(gradation.id))?.options).toEqual([listed]);
    // Through the other menu's path too, and the empty patch answers the option as it is.
    expect((await patch(gradation.id, sharedOff.id, {})).body).toEqual(listed);

    expect((await remove(french.id, sharedOff.id)).status).toBe(204);
    expect((await menuEntry(french.id))?.options).toEqual([]);
    expect((await menuEntry(gradation.id))?.options).toEqual([listed]);
    expect(await optionRow(sharedOff.id)).toMatchObject({ is_active: true, price: 1320 });
    // French no longer allows it: its path finds nothing (booking-options.test.ts books with such options).
    expect((await patch(french.id, sharedOff.id, { price: 1 })).status).toBe(404);
    expect((await remove(french.id, sharedOff.id)).status).toBe(404);
    expect(await startsWith(gradation.id, [sharedOff.id])).toEqual([]);

    // Off its last menu, it is deleted (softly): nothing offers it any more.
    expect((await remove(gradation.id, sharedOff.id)).status).toBe(204);
    expect(await optionRow(sharedOff.id)).toMatchObject({ is_active: false, price: 1320 });
    expect((await menuEntry(gradation.id))?.options).toEqual([]);
  });
});
