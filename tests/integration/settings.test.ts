import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { salons } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { SalonSettings } from '../../src/shared/schemas/settings';
import {
  at,
  availability,
  detailedSlots,
  startBookingApp,
  TODAY,
  times,
  type BookingWorld,
  type CustomerMember,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';
import { salonSettingsFixture } from '../setup/fixtures';

// A new salon's settings (tests/setup/fixtures.ts, also the settings screen's test data) under this suite's name.
const DEFAULTS: SalonSettings = { ...salonSettingsFixture, salon_name: 'ネイルサロン Lumière' };

/**
 * Salon settings (docs/architecture.md#booking-rules, docs/screens.md#settings): staff read them, the superuser changes them, GET /api/config/ shows
 * the booking rules, and every rule follows a change from the next request on. Fixed clock: 2030-01-10 09:00.
 */
describe(`salon settings on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let hanako: CustomerMember;

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('settings-staff', '佐藤 美咲');
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com', assignedStaffId: staff.id });
  });
  // Every test starts from the defaults, whatever the previous one left.
  beforeEach(async () => {
    await w.setSalon({
      name: DEFAULTS.salon_name,
      cancellation_deadline_days: 1,
      min_notice_minutes: 60,
      max_upcoming_per_customer: 3,
      business_start: '09:00',
      business_end: '21:00',
      reminders_enabled: true,
      slot_minutes: 30,
      buffer_minutes: 0,
      block_rounding_minutes: 5,
      closed_weekdays: [],
    });
  });
  afterAll(() => w?.close());

  const read = async (token = staff.token) => {
    const result = await w.api('/api/admin/settings/', { token });
    expect(result.status).toBe(200);
    return result.body as unknown as SalonSettings;
  };
  const update = (json: unknown, token: string = w.admin.token) =>
    w.api('/api/admin/settings/', { method: 'PATCH', token, json });
  const stored = async () => (await w.db.select().from(salons).where(eq(salons.id, w.t.salonId)))[0]!;

  it('staff read the settings; the superuser changes them; GET /api/config/ and /api/salons/ follow', async () => {
    expect(await read()).toEqual(DEFAULTS);
    expect(await read(w.admin.token)).toEqual(DEFAULTS);
    const config = await w.api('/api/config/');
    expect(config.body.settings).toEqual({
      cancellation_deadline_days: 1,
      min_notice_minutes: 60,
      max_upcoming_per_customer: 3,
      business_start: '09:00',
      business_end: '21:00',
      phone_number: '',
      address: '',
      map_url: '',
      opening_hours_text: '',
    });

    const changed = await update({
      salon_name: '  ネイルサロン 桜 ',
      cancellation_deadline_days: 2,
      min_notice_minutes: '90',
      max_upcoming_per_customer: 5,
      business_start: '10:30',
      business_end: '24:00',
      reminders_enabled: false,
      slot_minutes: 60,
      buffer_minutes: 15,
      block_rounding_minutes: 30,
      // Sorted, each weekday once.
      closed_weekdays: [3, 1, 3],
    });
    expect(changed.status).toBe(200);
    const expected: SalonSettings = {
      ...DEFAULTS,
      salon_name: 'ネイルサロン 桜',
      cancellation_deadline_days: 2,
      min_notice_minutes: 90,
      max_upcoming_per_customer: 5,
      business_start: '10:30',
      business_end: '24:00',
      reminders_enabled: false,
      slot_minutes: 60,
      buffer_minutes: 15,
      block_rounding_minutes: 30,
      closed_weekdays: [1, 3],
    };
    expect(changed.body).toEqual(expected);
    expect(await read()).toEqual(expected);
    expect((await w.api('/api/config/')).body).toMatchObject({
      salon_name: 'ネイルサロン 桜',
      settings: {
        cancellation_deadline_days: 2,
        min_notice_minutes: 90,
        max_upcoming_per_customer: 5,
        business_start: '10:30',
        business_end: '24:00',
      },
    });
    expect((await w.api('/api/salons/')).body).toEqual([{ id: w.t.salonId, name: 'ネイルサロン 桜' }]);

    // A partial body changes only what it names; an empty one changes nothing.
    expect((await update({ min_notice_minutes: 0 })).body).toEqual({ ...expected, min_notice_minutes: 0 });
    expect((await update({})).body).toEqual({ ...expected, min_notice_minutes: 0 });
  });

  it('only the superuser changes them: staff get 403, customers and anonymous callers 401, nothing written', async () => {
    const before = await stored();
    const staffTry = await update({ min_notice_minutes: 0 }, staff.token);
    expect(staffTry.status).toBe(403);
    expect(staffTry.body).toMatchObject({ code: 'permission_denied' });
    expect((await update({ min_notice_minutes: 0 }, hanako.token)).status).toBe(401);
    expect((await w.api('/api/admin/settings/', { method: 'PATCH', json: { min_notice_minutes: 0 } })).status).toBe(
      401,
    );
    expect((await w.api('/api/admin/settings/', { token: hanako.token })).status).toBe(401);
    expect((await w.api('/api/admin/settings/')).status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it('refuses each out-of-range field with its Japanese message and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ salon_name: '' }, 'salon_name', MESSAGES.fieldRequired],
      [{ salon_name: '   ' }, 'salon_name', MESSAGES.fieldRequired],
      [{ salon_name: 'あ'.repeat(101) }, 'salon_name', MESSAGES.tooLong],
      [{ cancellation_deadline_days: -1 }, 'cancellation_deadline_days', MESSAGES.deadlineDaysRange],
      [{ cancellation_deadline_days: 31 }, 'cancellation_deadline_days', MESSAGES.deadlineDaysRange],
      [{ cancellation_deadline_days: 1.5 }, 'cancellation_deadline_days', MESSAGES.deadlineDaysRange],
      [{ cancellation_deadline_days: 'x' }, 'cancellation_deadline_days', MESSAGES.deadlineDaysRange],
      [{ min_notice_minutes: -1 }, 'min_notice_minutes', MESSAGES.minNoticeRange],
      [{ min_notice_minutes: 10_081 }, 'min_notice_minutes', MESSAGES.minNoticeRange],
      [{ max_upcoming_per_customer: 0 }, 'max_upcoming_per_customer', MESSAGES.upcomingLimitRange],
      [{ max_upcoming_per_customer: 21 }, 'max_upcoming_per_customer', MESSAGES.upcomingLimitRange],
      [{ business_start: '09:15' }, 'business_start', MESSAGES.businessHoursGrid],
      [{ business_start: '9:00' }, 'business_start', MESSAGES.businessHoursGrid],
      [{ business_start: 'abc' }, 'business_start', MESSAGES.businessHoursGrid],
      [{ business_start: 900 }, 'business_start', MESSAGES.businessHoursGrid],
      [{ business_end: '24:30' }, 'business_end', MESSAGES.businessHoursGrid],
      [{ business_end: '25:00' }, 'business_end', MESSAGES.businessHoursGrid],
      [{ reminders_enabled: 'yes' }, 'reminders_enabled', MESSAGES.booleanInvalid],
      [{ slot_minutes: 20 }, 'slot_minutes', MESSAGES.slotMinutesInvalid],
      [{ slot_minutes: 'x' }, 'slot_minutes', MESSAGES.slotMinutesInvalid],
      [{ buffer_minutes: -5 }, 'buffer_minutes', MESSAGES.bufferMinutesInvalid],
      [{ buffer_minutes: 65 }, 'buffer_minutes', MESSAGES.bufferMinutesInvalid],
      [{ buffer_minutes: 7 }, 'buffer_minutes', MESSAGES.bufferMinutesInvalid],
      [{ block_rounding_minutes: 20 }, 'block_rounding_minutes', MESSAGES.blockRoundingInvalid],
      [{ closed_weekdays: [7] }, 'closed_weekdays.0', MESSAGES.closedWeekdaysInvalid],
      [{ closed_weekdays: [-1] }, 'closed_weekdays.0', MESSAGES.closedWeekdaysInvalid],
      [{ closed_weekdays: [1.5] }, 'closed_weekdays.0', MESSAGES.closedWeekdaysInvalid],
      [{ closed_weekdays: 'mon' }, 'closed_weekdays', MESSAGES.closedWeekdaysInvalid],
      // Against the stored other end (09:00-21:00).
      [{ business_start: '21:00' }, 'business_start', MESSAGES.businessHoursOrder],
      [{ business_end: '09:00' }, 'business_end', MESSAGES.businessHoursOrder],
      [{ business_end: '08:00' }, 'business_end', MESSAGES.businessHoursOrder],
    ];
    const before = await stored();
    for (const [body, field, message] of cases) {
      // A valid field next to the bad one: nothing of the body is written.
      const result = await update({ min_notice_minutes: 30, ...body });
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.fields, JSON.stringify(body)).toEqual({ [field]: [message] });
      expect(result.body).toMatchObject({ code: 'invalid' });
    }
    // Both ends in one body, the wrong way round.
    const reversed = await update({ business_start: '18:00', business_end: '10:00' });
    expect(reversed.status).toBe(400);
    expect(reversed.body).toEqual({
      detail: MESSAGES.businessHoursOrder,
      code: 'invalid',
      fields: { business_start: [MESSAGES.businessHoursOrder], business_end: [MESSAGES.businessHoursOrder] },
    });
    expect(await stored()).toEqual(before);

    // The limits themselves are accepted; moving both ends past the stored ones at once is fine too.
    expect(
      (await update({ cancellation_deadline_days: 30, min_notice_minutes: 10_080, max_upcoming_per_customer: 20 }))
        .status,
    ).toBe(200);
    expect((await update({ cancellation_deadline_days: 0, max_upcoming_per_customer: 1 })).status).toBe(200);
    expect((await update({ business_start: '22:00', business_end: '23:30' })).body).toMatchObject({
      business_start: '22:00',
      business_end: '23:30',
    });
    expect((await update({ business_start: '00:00', business_end: '00:30' })).body).toMatchObject({
      business_start: '00:00',
      business_end: '00:30',
    });
  });

  it('two changes that are each fine but together close the salon: the database lets only one through', async () => {
    for (let round = 0; round < 5; round += 1) {
      await w.setSalon({ business_start: '09:00', business_end: '21:00' });
      const [later, earlier] = await Promise.all([
        update({ business_start: '20:00' }),
        update({ business_end: '10:00' }),
      ]);
      expect([later.status, earlier.status].sort()).toEqual([200, 400]);
      const row = await stored();
      expect(row.business_start < row.business_end, `${row.business_start} < ${row.business_end}`).toBe(true);
    }
  });

  it('the minimum notice applies to availability and booking from the next request on', async () => {
    await w.openSlots(staff.id, TODAY, times('09:00', '13:00'));
    const short = await w.service('ワンカラー', 30);
    expect(await availability(w, TODAY, short.id)).toEqual(['10:00', '10:30', '11:00', '11:30', '12:00', '12:30']);
    expect((await update({ min_notice_minutes: 150 })).status).toBe(200);
    expect(await availability(w, TODAY, short.id)).toEqual(['11:30', '12:00', '12:30']);
    const tooSoon = await w.book(hanako, short.id, at(TODAY, '11:00'));
    expect(tooSoon.body).toMatchObject({ code: 'slot_unavailable' });
    expect(tooSoon.status).toBe(409);
    expect((await update({ min_notice_minutes: 30 })).status).toBe(200);
    expect(await availability(w, TODAY, short.id)).toEqual([
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
    ]);
    const walkIn = await w.customer({ name: '高橋 結衣', email: 'yui@example.com' });
    expect((await w.book(walkIn, short.id, at(TODAY, '09:30'))).status).toBe(201);
    const bookableDates = await w.api(`/api/bookable-dates/?year=2030&month=1&service_id=${short.id}`);
    expect(bookableDates.body).toContain(TODAY);
  });

  it('the cancellation deadline and the per-customer limit apply from the next request on', async () => {
    await w.openSlots(staff.id, '2030-01-13', times('10:00', '14:00'));
    const short = await w.service('ケア', 30);
    // Booked for 2030-01-13 10:00: with 1 day the deadline is 2030-01-12 10:00, still ahead.
    const booking = await w.booked(hanako, short.id, at('2030-01-13', '10:00'));
    expect(booking).toMatchObject({ cancellation_deadline: '2030-01-12T10:00:00', can_cancel: true });

    expect((await update({ cancellation_deadline_days: 4 })).status).toBe(200);
    const detail = await w.api(`/api/reservations/${booking.reservation_number}/`, { token: hanako.token });
    expect(detail.body).toMatchObject({ cancellation_deadline: '2030-01-09T10:00:00', can_cancel: false });
    const refused = await w.api(`/api/reservations/${booking.reservation_number}/cancel/`, {
      method: 'POST',
      token: hanako.token,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'cancellation_deadline_passed' });
    expect((await w.statusOf(booking.reservation_number))?.status).toBe('pending');

    // One upcoming booking already: a limit of 1 refuses the next one.
    expect((await update({ max_upcoming_per_customer: 1 })).status).toBe(200);
    const second = await w.book(hanako, short.id, at('2030-01-13', '12:00'));
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ detail: SERVER_MESSAGES.reservationLimit(1), code: 'reservation_limit' });

    expect((await update({ cancellation_deadline_days: 0, max_upcoming_per_customer: 3 })).status).toBe(200);
    const cancelled = await w.api(`/api/reservations/${booking.reservation_number}/cancel/`, {
      method: 'POST',
      token: hanako.token,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancellation_deadline: '2030-01-13T10:00:00' });
  });

  it('business hours set the admin grid (slots and detailed time slots) from the next request on', async () => {
    const date = '2030-01-20';
    await w.openSlots(staff.id, date, times('09:00', '11:00'));
    const before = await detailedSlots(w, date, staff.id);
    expect(before.available_times).toEqual(times('09:00', '11:00'));
    expect(before.outside_business_hours).toEqual(times('11:00', '21:00'));

    expect((await update({ business_start: '10:00', business_end: '12:00' })).status).toBe(200);
    const after = await detailedSlots(w, date, staff.id);
    expect(after).toEqual({
      available_times: ['10:00', '10:30'],
      outside_business_hours: ['11:00', '11:30'],
      booked_times: [],
    });
    const slots = await w.api(`/api/admin/available-slots/?date=${date}`, { token: staff.token });
    expect(slots.body).toEqual([
      { time: '10:00', is_available: true },
      { time: '10:30', is_available: true },
      { time: '11:00', is_available: false },
      { time: '11:30', is_available: false },
    ]);
    // Saving a slot outside the new hours is refused.
    const outside = await w.api('/api/admin/available-slots/', {
      method: 'POST',
      token: staff.token,
      json: { date, times: ['09:00'] },
    });
    expect(outside.status).toBe(400);

    // Open until midnight: the grid runs to 23:30.
    expect((await update({ business_start: '20:00', business_end: '24:00' })).status).toBe(200);
    expect((await detailedSlots(w, date, staff.id)).outside_business_hours).toEqual(times('20:00', '24:00'));
  });
});
