import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqlState, SQLSTATE } from '#server/db/client';
import { reservations, serviceOptions } from '#server/db/schema';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Service } from '#src/shared/schemas/booking';
import type { Reservation } from '#src/shared/schemas/reservations';
import { localDateTimeToInstant } from '#src/shared/time';
import {
  at,
  startBookingApp,
  times,
  TZ,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

type OptionRow = typeof serviceOptions.$inferSelect;

const SLOT_TAKEN = { detail: MESSAGES.slotUnavailable, code: 'slot_unavailable' };
const OPTION_INVALID = { code: 'invalid', fields: { option_ids: [MESSAGES.optionNotFound] } };
const instant = (date: string, time: string) => localDateTimeToInstant(at(date, time), TZ);

/**
 * A booking's length is its service plus its options; the time it holds of its staff member is that total rounded up
 * to the salon's block rounding plus its buffer, and starts lie on the salon's grid (docs/architecture.md#booking-rules).
 * Each test has its own day and leaves the salon's settings as it found them (beforeEach resets them).
 */
describe(`booking with options, buffer, rounding and grid on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let mio: CustomerMember;
  let hand: ServiceRow;
  let oneColour: ServiceRow;
  let gelOff: OptionRow;
  let art: OptionRow;
  let otherServiceOption: OptionRow;
  let retiredOption: OptionRow;

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('options-staff', '佐藤 美咲');
    [hanako, yui, mio] = await Promise.all([
      w.customer({ name: '山田 花子', email: 'hanako@example.com' }),
      w.customer({ name: '高橋 結衣', furigana: 'タカハシ ユイ', email: 'yui@example.com' }),
      w.customer({ name: '伊藤 美緒', furigana: 'イトウ ミオ', email: 'mio@example.com' }),
    ]);
    hand = await w.service('ハンド定額ジェル', 60, 5500);
    oneColour = await w.service('ワンカラー', 30, 4400);
    gelOff = await w.option(hand.id, 'ジェルオフ', 30, 1100);
    art = await w.option(hand.id, 'アート1本', 10, 550);
    otherServiceOption = await w.option(oneColour.id, 'パラジェル', 15, 1100);
    retiredOption = await w.option(hand.id, '終了したオプション', 15, 1100, false);
  });
  afterAll(() => w?.close());

  beforeEach(async () => {
    await w.setSalon({
      slot_minutes: 30,
      buffer_minutes: 0,
      block_rounding_minutes: 5,
      max_upcoming_per_customer: 1000,
    });
  });

  async function starts(date: string, serviceId: number, optionIds: number[] = []): Promise<string[]> {
    const query = optionIds.length > 0 ? `&option_ids=${optionIds.join(',')}` : '';
    const result = await w.api(`/api/availability/?date=${date}&service_id=${serviceId}${query}`);
    expect(result.status, result.text).toBe(200);
    return result.body as unknown as string[];
  }

  async function rowOf(reservationNumber: string) {
    const [row] = await w.db.select().from(reservations).where(eq(reservations.reservation_number, reservationNumber));
    return row!;
  }

  /** A reservation row written around the API, for another customer: only the staff member's time can refuse it. */
  const insertDirect = (date: string, time: string, service: ServiceRow = oneColour) =>
    w.insertReservation({ staffId: staff.id, customer: mio, service, start: at(date, time) });

  it('the service list carries each service its active options, prices as strings', async () => {
    const menu = await w.api('/api/services/');
    expect(menu.status).toBe(200);
    expect(menu.body).toEqual([
      {
        id: hand.id,
        name: 'ハンド定額ジェル',
        price: '5500',
        duration_minutes: 60,
        salon: w.t.salonId,
        options: [
          { id: gelOff.id, name: 'ジェルオフ', price: '1100', duration_minutes: 30 },
          { id: art.id, name: 'アート1本', price: '550', duration_minutes: 10 },
        ],
        rebook_cycle_days: null,
      },
      {
        id: oneColour.id,
        name: 'ワンカラー',
        price: '4400',
        duration_minutes: 30,
        salon: w.t.salonId,
        options: [{ id: otherServiceOption.id, name: 'パラジェル', price: '1100', duration_minutes: 15 }],
        rebook_cycle_days: null,
      },
    ]);
  });

  it('a 60-minute service + 30-minute option on a 30-minute grid blocks exactly the right starts', async () => {
    const date = '2030-02-05';
    await w.openSlots(staff.id, date, times('09:00', '13:00'));
    expect(await starts(date, hand.id)).toEqual(times('09:00', '12:30'));
    expect(await starts(date, hand.id, [gelOff.id])).toEqual(times('09:00', '12:00'));

    const booked = await w.book(hanako, hand.id, at(date, '09:00'), { option_ids: [gelOff.id] });
    expect(booked.status, booked.text).toBe(201);
    const reservation = booked.body as unknown as Reservation;
    expect(reservation).toMatchObject({
      start_time: at(date, '09:00'),
      end_time: at(date, '10:30'),
      staff_id: staff.id,
      service: { id: hand.id, name: 'ハンド定額ジェル', price: '6600', duration_minutes: 90 },
      options: [{ id: gelOff.id, name: 'ジェルオフ', price: '1100', duration_minutes: 30 }],
      is_nominated: false,
      nomination_fee: '0',
    });
    const row = await rowOf(reservation.reservation_number);
    expect(row).toMatchObject({
      price: 6600,
      duration_minutes: 90,
      end_time: instant(date, '10:30'),
      occupied_until: instant(date, '10:30'),
      options: [{ id: gelOff.id, name: 'ジェルオフ', price: 1100, duration_minutes: 30 }],
    });

    // 60 minutes fit from 10:30 to 12:00; with the option (90 minutes) the last start is 11:30.
    expect(await starts(date, hand.id)).toEqual(['10:30', '11:00', '11:30', '12:00']);
    expect(await starts(date, hand.id, [gelOff.id])).toEqual(['10:30', '11:00', '11:30']);
    expect(await w.book(yui, hand.id, at(date, '10:00'))).toMatchObject({ status: 409, body: SLOT_TAKEN });

    // The reservation keeps what was booked when the menu changes later.
    await w.db.update(serviceOptions).set({ name: '改定後', price: 9999 }).where(eq(serviceOptions.id, gelOff.id));
    try {
      const detail = await w.api(`/api/reservations/${reservation.reservation_number}/`, { token: hanako.token });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        service: { price: '6600', duration_minutes: 90 },
        options: [{ id: gelOff.id, name: 'ジェルオフ', price: '1100', duration_minutes: 30 }],
      });
    } finally {
      await w.db
        .update(serviceOptions)
        .set({ name: 'ジェルオフ', price: 1100 })
        .where(eq(serviceOptions.id, gelOff.id));
      w.t.app.bookingReads.clear();
    }
  });

  it('with a 15-minute buffer the next start moves, and the database refuses a start inside the buffer', async () => {
    const date = '2030-02-06';
    await w.setSalon({ buffer_minutes: 15 });
    await w.openSlots(staff.id, date, times('09:00', '13:00'));
    const booked = await w.book(hanako, hand.id, at(date, '09:00'), { option_ids: [gelOff.id] });
    expect(booked.status, booked.text).toBe(201);
    const reservation = booked.body as unknown as Reservation;
    // The customer is served until 10:30; the staff member is held until 10:45.
    expect(reservation).toMatchObject({ end_time: at(date, '10:30'), service: { duration_minutes: 90 } });
    expect(await rowOf(reservation.reservation_number)).toMatchObject({
      end_time: instant(date, '10:30'),
      occupied_until: instant(date, '10:45'),
    });

    expect(await starts(date, hand.id)).toEqual(['11:00', '11:30', '12:00']);
    expect(await starts(date, hand.id, [gelOff.id])).toEqual(['11:00', '11:30']);

    // The exclusion constraint covers [start, occupied_until): a row starting inside the buffer is refused
    // whatever wrote it; one starting when the buffer ends goes in.
    await expect(insertDirect(date, '10:30')).rejects.toSatisfy(
      (error) => sqlState(error) === SQLSTATE.exclusionViolation,
    );
    const atBufferEnd = await insertDirect(date, '10:45');
    await w.db.delete(reservations).where(eq(reservations.id, atBufferEnd.id));

    expect(await w.book(yui, hand.id, at(date, '10:30'))).toMatchObject({ status: 409, body: SLOT_TAKEN });
    const next = await w.book(yui, hand.id, at(date, '11:00'));
    expect(next.status, next.text).toBe(201);
    expect(await rowOf((next.body as unknown as Reservation).reservation_number)).toMatchObject({
      end_time: instant(date, '12:00'),
      occupied_until: instant(date, '12:15'),
    });
    // 12:00 would now start inside 11:00's buffer.
    expect(await starts(date, hand.id)).toEqual([]);
  });

  it('block rounding of 30 minutes holds a 70-minute booking until the next half hour', async () => {
    const date = '2030-02-07';
    // A 15-minute grid, so that the rounding (and not the grid) is what keeps 10:15 from being offered.
    await w.setSalon({ block_rounding_minutes: 30, slot_minutes: 15 });
    await w.openSlots(staff.id, date, times('09:00', '13:00'));
    const booked = await w.book(hanako, hand.id, at(date, '09:00'), { option_ids: [art.id] });
    expect(booked.status, booked.text).toBe(201);
    const reservation = booked.body as unknown as Reservation;
    expect(reservation).toMatchObject({
      end_time: at(date, '10:10'),
      service: { price: '6050', duration_minutes: 70 },
      options: [{ id: art.id, name: 'アート1本', price: '550', duration_minutes: 10 }],
    });
    expect(await rowOf(reservation.reservation_number)).toMatchObject({
      end_time: instant(date, '10:10'),
      occupied_until: instant(date, '10:30'),
    });
    expect(await starts(date, hand.id)).toEqual(['10:30', '10:45', '11:00', '11:15', '11:30', '11:45', '12:00']);
    expect(await w.book(yui, hand.id, at(date, '10:15'))).toMatchObject({ status: 409, body: SLOT_TAKEN });
    await expect(insertDirect(date, '10:15')).rejects.toSatisfy(
      (error) => sqlState(error) === SQLSTATE.exclusionViolation,
    );
  });

  it('slot_minutes=15 offers quarter-hour starts and accepts a 10:15 booking', async () => {
    const date = '2030-02-08';
    await w.setSalon({ slot_minutes: 15 });
    await w.openSlots(staff.id, date, times('10:00', '12:00'));
    expect(await starts(date, oneColour.id)).toEqual(['10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30']);
    const booked = await w.book(yui, oneColour.id, at(date, '10:15'));
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body).toMatchObject({ start_time: at(date, '10:15'), end_time: at(date, '10:45') });
    expect(await starts(date, oneColour.id)).toEqual(['10:45', '11:00', '11:15', '11:30']);

    const offGrid = await w.book(hanako, oneColour.id, at(date, '11:05'));
    const message = SERVER_MESSAGES.offGridTimeFor(15);
    expect(offGrid).toMatchObject({ status: 400, body: { detail: message, fields: { start_time: [message] } } });
  });

  it('slot_minutes=60 offers whole hours only and refuses 10:30 with the 60-minute message', async () => {
    const date = '2030-02-09';
    await w.setSalon({ slot_minutes: 60 });
    await w.openSlots(staff.id, date, times('10:00', '13:00'));
    expect(await starts(date, oneColour.id)).toEqual(['10:00', '11:00', '12:00']);
    const refused = await w.book(yui, oneColour.id, at(date, '10:30'));
    const message = SERVER_MESSAGES.offGridTimeFor(60);
    expect(refused).toMatchObject({
      status: 400,
      body: { detail: message, code: 'invalid', fields: { start_time: [message] } },
    });
    expect(await w.activeRows(at(date, '00:00'), at(date, '23:30'))).toEqual([]);
    const booked = await w.book(yui, oneColour.id, at(date, '11:00'));
    expect(booked.status, booked.text).toBe(201);
  });

  it('an unknown option, another service’s option, a retired one or a repeated id is a 400 on option_ids', async () => {
    const date = '2030-02-12';
    await w.openSlots(staff.id, date, times('10:00', '13:00'));
    const wrongChoices = [[2_000_000_000], [otherServiceOption.id], [retiredOption.id], [gelOff.id, gelOff.id]];
    for (const optionIds of wrongChoices) {
      const result = await w.book(hanako, hand.id, at(date, '10:00'), { option_ids: optionIds });
      expect(result.status, `${JSON.stringify(optionIds)}: ${result.text}`).toBe(400);
      expect(result.body, JSON.stringify(optionIds)).toMatchObject(OPTION_INVALID);
    }
    // Something that is no id at all is refused by the request's schema, on the item (`option_ids.1`).
    for (const optionIds of [[gelOff.id, 0], ['abc'], 'x', [{}]]) {
      const result = await w.book(hanako, hand.id, at(date, '10:00'), { option_ids: optionIds });
      expect(result.status, `${JSON.stringify(optionIds)}: ${result.text}`).toBe(400);
      const fields = Object.keys((result.body.fields ?? {}) as Record<string, string[]>);
      expect(fields.length, result.text).toBeGreaterThan(0);
      for (const field of fields) expect(field, result.text).toMatch(/^option_ids(\.\d+)?$/);
    }
    for (const query of ['2000000000', String(otherServiceOption.id), `${gelOff.id},${gelOff.id}`]) {
      const result = await w.api(`/api/availability/?date=${date}&service_id=${hand.id}&option_ids=${query}`);
      expect(result.status, `${query}: ${result.text}`).toBe(400);
      expect(result.body, query).toMatchObject(OPTION_INVALID);
      const month = await w.api(`/api/bookable-dates/?year=2030&month=2&service_id=${hand.id}&option_ids=${query}`);
      expect(month.status, `${query}: ${month.text}`).toBe(400);
      expect(month.body, query).toMatchObject(OPTION_INVALID);
    }
    const malformed = await w.api(`/api/availability/?date=${date}&service_id=${hand.id}&option_ids=x`);
    expect(malformed.status, malformed.text).toBe(400);
    expect(Object.keys(malformed.body.fields as object)).toEqual(['option_ids.0']);
    // Staff bookings check the same choice.
    const byStaff = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: staff.token,
      json: { service_id: hand.id, customer_id: hanako.id, start_time: at(date, '10:00'), option_ids: [art.id, 999] },
    });
    expect(byStaff.status, byStaff.text).toBe(400);
    expect(byStaff.body).toMatchObject(OPTION_INVALID);
    expect(await w.activeRows(at(date, '00:00'), at(date, '23:30'))).toEqual([]);

    // Both options of the service at once are a valid choice: 60 + 30 + 10 minutes, 5500 + 1100 + 550 yen.
    const both = await w.book(hanako, hand.id, at(date, '10:00'), { option_ids: [art.id, gelOff.id] });
    expect(both.status, both.text).toBe(201);
    expect(both.body).toMatchObject({
      end_time: at(date, '11:40'),
      service: { price: '7150', duration_minutes: 100 },
      options: [
        { id: art.id, name: 'アート1本' },
        { id: gelOff.id, name: 'ジェルオフ' },
      ],
    });
  });

  it('one option allowed by two menus is listed under both, adds its time and price to either, and is refused with a menu that does not allow it', async () => {
    const date = '2030-02-13';
    const french = await w.service('フレンチジェル', 60, 6600);
    const gradation = await w.service('グラデーションジェル', 90, 7700);
    const foot = await w.service('フットケア', 30, 3300);
    const sharedOff = await w.option([french.id, gradation.id], '共通ジェルオフ', 30, 1100);
    const listed = { id: sharedOff.id, name: '共通ジェルオフ', price: '1100', duration_minutes: 30 };
    const menu = (await w.api('/api/services/')).body as unknown as Service[];
    const optionsOf = (serviceId: number) => menu.find((service) => service.id === serviceId)?.options;
    expect(optionsOf(french.id)).toEqual([listed]);
    expect(optionsOf(gradation.id)).toEqual([listed]);
    expect(optionsOf(foot.id)).toEqual([]);

    await w.openSlots(staff.id, date, times('10:00', '16:00'));
    // 60 + 30 minutes: the last start is 14:30; 90 + 30 minutes: 14:00.
    expect(await starts(date, french.id, [sharedOff.id])).toEqual(times('10:00', '15:00'));
    expect(await starts(date, gradation.id, [sharedOff.id])).toEqual(times('10:00', '14:30'));

    const withFrench = await w.book(hanako, french.id, at(date, '10:00'), { option_ids: [sharedOff.id] });
    expect(withFrench.status, withFrench.text).toBe(201);
    expect(withFrench.body).toMatchObject({
      end_time: at(date, '11:30'),
      service: { id: french.id, price: '7700', duration_minutes: 90 },
      options: [listed],
    });
    // The staff booking dialog's path resolves it the same way.
    const withGradation = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: staff.token,
      json: {
        service_id: gradation.id,
        customer_id: yui.id,
        start_time: at(date, '12:00'),
        option_ids: [sharedOff.id],
      },
    });
    expect(withGradation.status, withGradation.text).toBe(201);
    expect(withGradation.body).toMatchObject({
      end_time: at(date, '14:00'),
      service: { id: gradation.id, price: '8800', duration_minutes: 120 },
      options: [listed],
    });
    expect((await rowOf(withGradation.body.reservation_number as string)).price).toBe(8800);

    // フットケア does not allow it: refused by booking, staff booking, availability and the month's dates alike.
    const refused = await w.book(mio, foot.id, at(date, '14:00'), { option_ids: [sharedOff.id] });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject(OPTION_INVALID);
    const refusedByStaff = await w.api('/api/admin/reservations/create-for-customer/', {
      method: 'POST',
      token: staff.token,
      json: { service_id: foot.id, customer_id: hanako.id, start_time: at(date, '14:00'), option_ids: [sharedOff.id] },
    });
    expect(refusedByStaff.status, refusedByStaff.text).toBe(400);
    expect(refusedByStaff.body).toMatchObject(OPTION_INVALID);
    const slots = await w.api(`/api/availability/?date=${date}&service_id=${foot.id}&option_ids=${sharedOff.id}`);
    expect(slots.body).toMatchObject(OPTION_INVALID);
    const month = await w.api(
      `/api/bookable-dates/?year=2030&month=2&service_id=${foot.id}&option_ids=${sharedOff.id}`,
    );
    expect(month.body).toMatchObject(OPTION_INVALID);
    expect((await w.activeRows(at(date, '00:00'), at(date, '23:30'))).length).toBe(2);
  });
});
