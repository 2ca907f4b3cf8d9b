import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reservations, salonHolidays } from '#server/db/schema';
import { MESSAGES } from '#src/shared/messages';
import { z } from 'zod';
import { slotSchema } from '#src/shared/schemas/booking';
import { reservationSchema, type Reservation } from '#src/shared/schemas/reservations';
import { scheduleDaySchema, shiftTemplateSchema, type ShiftDay } from '#src/shared/schemas/schedule';
import { answerOf, type ApiResult } from '#tests/helpers/app';
import {
  at,
  detailedSlots,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tuesday to Saturday, 10:00 to 19:00. */
const TUE_TO_SAT: ShiftDay[] = [2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time: '10:00', end_time: '19:00' }));

/**
 * Weekly shift templates, salon holidays, closed weekdays and days set by hand (exceptions) decide who works when;
 * no change of them may leave an active booking outside working time (server/features/schedule/schedule-change.ts).
 * Fixed clock: 2030-01-10 09:00 Asia/Tokyo; every date used here is later.
 */
describe(`shifts, holidays and exceptions on ${testEngine}`, { timeout: 120_000 }, () => {
  let w: BookingWorld;
  let hanako: CustomerMember;
  let hourly: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
    hourly = await w.service('ジェルワンカラー', 60);
    await w.setSalon({ max_upcoming_per_customer: 1000 });
  });
  // Closed weekdays and holidays are the whole salon's: each test starts without them.
  beforeEach(async () => {
    await w.setSalon({ closed_weekdays: [] });
    await w.db.delete(salonHolidays);
  });
  afterAll(() => w?.close());

  const putTemplate = (token: string, days: ShiftDay[], userId?: number) =>
    w.api('/api/admin/shifts/', { method: 'PUT', token, json: { days, user_id: userId } });
  const template = async (token: string, userId?: number) => {
    const result = await w.api(`/api/admin/shifts/${userId === undefined ? '' : `?user_id=${userId}`}`, { token });
    expect(result.status).toBe(200);
    return answerOf(result, shiftTemplateSchema);
  };
  const setDay = (staffId: number, date: string, slotTimes: string[]) =>
    w.api('/api/admin/available-slots/', {
      method: 'POST',
      token: w.admin.token,
      json: { date, times: slotTimes, user_id: staffId },
    });
  const addHoliday = (date: string, token = w.admin.token) =>
    w.api('/api/admin/holidays/', { method: 'POST', token, json: { date, note: '臨時休業' } });
  const openTimes = async (staffId: number, date: string) => {
    const result = await w.api(`/api/admin/available-slots/?date=${date}&user_id=${staffId}`, {
      token: w.admin.token,
    });
    expect(result.status).toBe(200);
    return answerOf(result, z.array(slotSchema))
      .filter((slot) => slot.is_available)
      .map((slot) => slot.time);
  };
  async function staffWithTemplate(username: string, days: ShiftDay[] = TUE_TO_SAT) {
    const staff = await w.staff(username, `${username} さん`);
    expect((await putTemplate(w.admin.token, days, staff.id)).status).toBe(200);
    return staff;
  }
  /** A booking of Hanako's with this staff member by name (指名), so that no one else takes it. */
  async function bookWith(staff: StaffMember, start: string): Promise<Reservation> {
    const result = await w.book(hanako, hourly.id, start, { staff_id: staff.id });
    expect(result.status, result.text).toBe(201);
    return answerOf(result, reservationSchema);
  }
  /** The 409 of a refused change, with the bookings it names. */
  function expectStranded(result: ApiResult, booked: Reservation[], staff: StaffMember) {
    expect(result.status, result.text).toBe(409);
    expect(result.body).toEqual({
      detail: MESSAGES.scheduleStrandsReservations(booked.length),
      code: 'stranded',
      reservations: booked.map((booking) => ({
        reservation_number: booking.reservation_number,
        start_time: booking.start_time,
        customer_name: hanako.name,
        staff_name: staff.full_name,
      })),
    });
  }

  it('Shift template + holiday + exception produce the expected bookable dates for a month', async () => {
    // Monday to Saturday in the template, but the salon closes on Mondays (定休日).
    const staff = await staffWithTemplate('shift-month', [
      { weekday: 1, start_time: '10:00', end_time: '19:00' },
      ...TUE_TO_SAT,
    ]);
    const settings = await w.api('/api/admin/settings/', {
      method: 'PATCH',
      token: w.admin.token,
      json: { closed_weekdays: [1] },
    });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ closed_weekdays: [1] });
    // A salon holiday on Wednesday 13th, Monday 11th opened by hand, Friday 22nd closed by hand.
    expect((await addHoliday('2030-02-13')).status).toBe(201);
    expect((await setDay(staff.id, '2030-02-11', times('10:00', '15:00'))).status).toBe(200);
    expect((await setDay(staff.id, '2030-02-22', [])).status).toBe(200);

    const month = `year=2030&month=2&service_id=${hourly.id}&staff_id=${staff.id}`;
    const dates = await w.api(`/api/bookable-dates/?${month}`);
    expect(dates.status).toBe(200);
    // Tuesday to Saturday of February 2030 (the 1st is a Friday), without the holiday and the closed Friday,
    // with the Monday opened by hand.
    expect(dates.body).toEqual(
      [1, 2, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 19, 20, 21, 23, 26, 27, 28].map(
        (day) => `2030-02-${String(day).padStart(2, '0')}`,
      ),
    );
    // A template day offers the template's starts (60 minutes: the last start is 18:00); the Monday set by hand its own.
    const starts = async (date: string) =>
      (await w.api(`/api/availability/?date=${date}&service_id=${hourly.id}&staff_id=${staff.id}`)).body;
    expect(await starts('2030-02-05')).toEqual(times('10:00', '18:30'));
    expect(await starts('2030-02-11')).toEqual(times('10:00', '14:30'));
    expect(await starts('2030-02-13')).toEqual([]);

    // The calendar says which rule decided each day.
    const days = await w.api(`/api/admin/schedule-days/?year=2030&month=2&user_id=${staff.id}`, {
      token: w.admin.token,
    });
    expect(days.status).toBe(200);
    const byDate = new Map(answerOf(days, z.array(scheduleDaySchema)).map((day) => [day.date, day]));
    expect(byDate.size).toBe(28);
    expect(byDate.get('2030-02-03')).toEqual({ date: '2030-02-03', source: 'off', open: false });
    expect(byDate.get('2030-02-04')).toEqual({ date: '2030-02-04', source: 'closed', open: false });
    expect(byDate.get('2030-02-05')).toEqual({ date: '2030-02-05', source: 'template', open: true });
    expect(byDate.get('2030-02-11')).toEqual({ date: '2030-02-11', source: 'exception', open: true });
    expect(byDate.get('2030-02-13')).toEqual({ date: '2030-02-13', source: 'holiday', open: false });
    expect(byDate.get('2030-02-22')).toEqual({ date: '2030-02-22', source: 'exception', open: false });

    // The admin views answer from the same working time.
    expect(await openTimes(staff.id, '2030-02-05')).toEqual(times('10:00', '19:00'));
    expect(await openTimes(staff.id, '2030-02-13')).toEqual([]);
    const configured = await w.api(`/api/admin/configured-dates/?year=2030&month=2&user_id=${staff.id}`, {
      token: w.admin.token,
    });
    expect(configured.body).toEqual(dates.body);
    const holidays = await w.api('/api/admin/holidays/?year=2030&month=2', { token: staff.token });
    expect(holidays.body).toEqual([{ date: '2030-02-13', note: '臨時休業' }]);

    // Giving the closed Friday back to the template opens it again; the holiday removed opens the 13th.
    const reverted = await w.api(`/api/admin/available-slots/?date=2030-02-22&user_id=${staff.id}`, {
      method: 'DELETE',
      token: w.admin.token,
    });
    expect(reverted.status).toBe(200);
    expect(await openTimes(staff.id, '2030-02-22')).toEqual(times('10:00', '19:00'));
    expect((await w.api('/api/admin/holidays/2030-02-13/', { method: 'DELETE', token: w.admin.token })).status).toBe(
      204,
    );
    expect((await w.api('/api/admin/holidays/2030-02-13/', { method: 'DELETE', token: w.admin.token })).status).toBe(
      404,
    );
    const after = await w.api(`/api/bookable-dates/?${month}`);
    expect(after.body).toEqual(expect.arrayContaining(['2030-02-13', '2030-02-22']));
  });

  it('the day views answer from the template, and booked times cover the time a booking holds', async () => {
    const staff = await staffWithTemplate('shift-views');
    await w.setSalon({ buffer_minutes: 15 });
    try {
      // 60 minutes from 10:00 plus a 15-minute interval: held until 11:15.
      await bookWith(staff, at('2030-03-12', '10:00'));
      expect(await detailedSlots(w, '2030-03-12', staff.id)).toEqual({
        available_times: times('11:30', '19:00'),
        outside_business_hours: [...times('09:00', '10:00'), ...times('19:00', '21:00')],
        booked_times: ['10:00', '10:30', '11:00'],
      });
    } finally {
      await w.setSalon({ buffer_minutes: 0 });
    }
    // The superuser without user_id: the days anyone works (this staff member's Tuesdays to Saturdays included).
    const anyone = await w.api('/api/admin/configured-dates/?year=2030&month=3', { token: w.admin.token });
    expect(anyone.body).toEqual(expect.arrayContaining(['2030-03-05', '2030-03-09']));
    const own = await w.api('/api/admin/configured-dates/?year=2030&month=3', { token: staff.token });
    expect(answerOf(own, z.array(z.string())).slice(0, 3)).toEqual(['2030-03-01', '2030-03-02', '2030-03-05']);
  });

  it('a template change that would strand a booking is refused with that booking named', async () => {
    const staff = await staffWithTemplate('shift-strand');
    const booking = await bookWith(staff, at('2030-03-05', '10:00'));
    // Staff placed a booking outside working time on purpose: it was never covered, so it does not block.
    await w.insertReservation({
      staffId: staff.id,
      customer: hanako,
      service: hourly,
      start: at('2030-03-06', '08:00'),
    });

    const later = TUE_TO_SAT.map((day) => (day.weekday === 2 ? { ...day, start_time: '12:00' } : day));
    expectStranded(await putTemplate(w.admin.token, later, staff.id), [booking], staff);
    expect((await template(w.admin.token, staff.id)).days).toEqual(TUE_TO_SAT);
    // Dropping Tuesday altogether strands it too; shortening another day does not.
    expectStranded(await putTemplate(w.admin.token, TUE_TO_SAT.slice(1), staff.id), [booking], staff);
    const shorterWednesday = TUE_TO_SAT.map((day) => (day.weekday === 3 ? { ...day, end_time: '12:00' } : day));
    expect((await putTemplate(w.admin.token, shorterWednesday, staff.id)).status).toBe(200);

    const cancelled = await w.api(`/api/admin/reservations/${booking.reservation_number}/cancel/`, {
      method: 'POST',
      token: w.admin.token,
    });
    expect(cancelled.status).toBe(200);
    const saved = await putTemplate(w.admin.token, later, staff.id);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ user_id: staff.id, days: later });
    expect((await template(w.admin.token, staff.id)).days).toEqual(later);
  });

  it('a day set by hand, or given back to the template, may not strand a booking either', async () => {
    const staff = await staffWithTemplate('shift-exception');
    const wednesday = await bookWith(staff, at('2030-03-06', '14:00'));
    expectStranded(await setDay(staff.id, '2030-03-06', times('10:00', '12:00')), [wednesday], staff);
    expectStranded(await setDay(staff.id, '2030-03-06', []), [wednesday], staff);
    expect(await openTimes(staff.id, '2030-03-06')).toEqual(times('10:00', '19:00'));
    // Keeping the booking's hours is fine.
    expect((await setDay(staff.id, '2030-03-06', times('13:00', '16:00'))).status).toBe(200);
    expect(await openTimes(staff.id, '2030-03-06')).toEqual(times('13:00', '16:00'));

    // A Monday opened by hand while the salon is closed on Mondays: giving it back would close it under the booking.
    await w.setSalon({ closed_weekdays: [1] });
    expect((await setDay(staff.id, '2030-03-11', times('10:00', '13:00'))).status).toBe(200);
    const monday = await bookWith(staff, at('2030-03-11', '11:00'));
    const revert = () =>
      w.api(`/api/admin/available-slots/?date=2030-03-11&user_id=${staff.id}`, {
        method: 'DELETE',
        token: w.admin.token,
      });
    expectStranded(await revert(), [monday], staff);
    expect(await openTimes(staff.id, '2030-03-11')).toEqual(times('10:00', '13:00'));
    // Bad times are refused in Japanese before anything is checked.
    const offGrid = await setDay(staff.id, '2030-03-11', ['10:15']);
    expect(offGrid.status).toBe(400);
    expect(offGrid.body.detail).toMatch(/30分単位/);
  });

  it('a holiday or a closed weekday over a booking is refused; elsewhere it applies', async () => {
    const staff = await staffWithTemplate('shift-salon');
    const thursday = await bookWith(staff, at('2030-03-07', '15:00'));
    expectStranded(await addHoliday('2030-03-07'), [thursday], staff);
    expect((await w.api('/api/admin/holidays/?year=2030&month=3', { token: w.admin.token })).body).toEqual([]);
    expect((await addHoliday('2030-03-08')).status).toBe(201);

    const saturday = await bookWith(staff, at('2030-03-09', '10:00'));
    const patch = (json: unknown) => w.api('/api/admin/settings/', { method: 'PATCH', token: w.admin.token, json });
    const refused = await patch({ closed_weekdays: [6], min_notice_minutes: 30 });
    expectStranded(refused, [saturday], staff);
    expect((await w.api('/api/admin/settings/', { token: w.admin.token })).body).toMatchObject({
      closed_weekdays: [],
      min_notice_minutes: 60,
    });
    // Sunday and Monday hold no booking: closing them is fine.
    expect((await patch({ closed_weekdays: [0, 1] })).status).toBe(200);

    // Bad weekdays are refused in Japanese.
    const bad = await patch({ closed_weekdays: [7] });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ 'closed_weekdays.0': [MESSAGES.closedWeekdaysInvalid] });
  });

  it('refuses bad templates with Japanese messages and writes nothing', async () => {
    const staff = await staffWithTemplate('shift-input');
    const cases: Array<[ShiftDay[], string, string]> = [
      [[{ weekday: 2, start_time: '19:00', end_time: '10:00' }], 'days.0.end_time', MESSAGES.shiftTimeInvalid],
      [[{ weekday: 2, start_time: '10:00', end_time: '10:00' }], 'days.0.end_time', MESSAGES.shiftTimeInvalid],
      [[{ weekday: 2, start_time: '10:15', end_time: '19:00' }], 'days.0.start_time', MESSAGES.shiftTimeInvalid],
      [[{ weekday: 2, start_time: '10:00', end_time: '24:30' }], 'days.0.end_time', MESSAGES.shiftTimeInvalid],
      [[{ weekday: 7, start_time: '10:00', end_time: '19:00' }], 'days.0.weekday', MESSAGES.shiftWeekdayInvalid],
      [[{ weekday: -1, start_time: '10:00', end_time: '19:00' }], 'days.0.weekday', MESSAGES.shiftWeekdayInvalid],
      [[TUE_TO_SAT[0]!, TUE_TO_SAT[0]!], 'days', MESSAGES.shiftWeekdayDuplicate],
    ];
    for (const [days, field, message] of cases) {
      const result = await putTemplate(w.admin.token, days, staff.id);
      expect(result.status, JSON.stringify(days)).toBe(400);
      expect(result.body, JSON.stringify(days)).toEqual({
        detail: MESSAGES.invalidInput,
        code: 'invalid',
        fields: { [field]: [message] },
      });
    }
    expect((await template(w.admin.token, staff.id)).days).toEqual(TUE_TO_SAT);
    // Up to midnight is a valid end; an empty template is a week off.
    const late = [{ weekday: 5, start_time: '18:00', end_time: '24:00' }];
    expect((await putTemplate(w.admin.token, late, staff.id)).body).toEqual({ user_id: staff.id, days: late });
    expect((await putTemplate(w.admin.token, [], staff.id)).body).toEqual({ user_id: staff.id, days: [] });
  });

  it('ordinary staff keep to their own template and cannot add or remove holidays', async () => {
    const own = await staffWithTemplate('shift-own');
    const other = await staffWithTemplate('shift-other');

    // user_id of someone else is ignored: they read and write their own.
    const read = await template(own.token, other.id);
    expect(read.user_id).toBe(own.id);
    const mine = [{ weekday: 1, start_time: '09:00', end_time: '12:00' }];
    const written = await putTemplate(own.token, mine, other.id);
    expect(written.status).toBe(200);
    expect(written.body).toEqual({ user_id: own.id, days: mine });
    expect((await template(w.admin.token, other.id)).days).toEqual(TUE_TO_SAT);
    expect((await template(w.admin.token, own.id)).days).toEqual(mine);
    const days = await w.api(`/api/admin/schedule-days/?year=2030&month=3&user_id=${other.id}`, { token: own.token });
    expect(answerOf(days, z.array(scheduleDaySchema)).find((day) => day.date === '2030-03-04')).toEqual({
      date: '2030-03-04',
      source: 'template',
      open: true,
    });

    const refused = await addHoliday('2030-03-20', own.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'permission_denied' });
    expect((await addHoliday('2030-03-20')).status).toBe(201);
    const removal = await w.api('/api/admin/holidays/2030-03-20/', { method: 'DELETE', token: own.token });
    expect(removal.status).toBe(403);
    expect((await w.api('/api/admin/holidays/?year=2030&month=3', { token: own.token })).body).toEqual([
      { date: '2030-03-20', note: '臨時休業' },
    ]);
    // A superuser naming nobody who exists gets a 400, not someone else's template.
    const unknown = await w.api('/api/admin/shifts/?user_id=999999', { token: w.admin.token });
    expect(unknown.status).toBe(400);
  });

  it('a template change racing customer bookings never leaves a booking outside working time', async () => {
    const ROUNDS = 10;
    const staff = await staffWithTemplate('shift-race');
    const customers = await Promise.all(
      [0, 1, 2].map((i) => w.customer({ name: `客 ${i}`, email: `race${i}@example.com` })),
    );
    // Three Tuesdays; the change moves Tuesday's start from 10:00 to 11:00.
    const tuesdays = ['2030-04-02', '2030-04-09', '2030-04-16'];
    const later = TUE_TO_SAT.map((day) => (day.weekday === 2 ? { ...day, start_time: '11:00' } : day));
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round += 1) {
      expect((await putTemplate(w.admin.token, TUE_TO_SAT, staff.id)).status).toBe(200);
      const [change, ...bookings] = await Promise.all([
        // Started a little later each round, so that the rounds cover different interleavings.
        sleep(round * 3).then(() => putTemplate(w.admin.token, later, staff.id)),
        ...customers.map((customer, i) =>
          w.book(customer, hourly.id, at(tuesdays[i]!, '10:00'), { staff_id: staff.id }),
        ),
      ]);
      const label = `round ${round}: ${change!.status} ${bookings.map((b) => b.status).join(',')}`;
      const booked = bookings.filter((result) => result.status === 201);
      for (const result of bookings.filter((r) => r.status !== 201)) {
        expect(result.body, label).toMatchObject({ code: 'slot_unavailable' });
      }
      const active = await w.db
        .select({ number: reservations.reservation_number })
        .from(reservations)
        .where(and(eq(reservations.staff_id, staff.id), inArray(reservations.status, ['pending', 'confirmed'])));
      expect(active.length, label).toBe(booked.length);
      if (change!.status === 200) {
        // The change won: no booking may stand at 10:00 on a Tuesday.
        expect(booked, label).toEqual([]);
      } else {
        // The booking won: the change was refused, naming bookings that were made.
        expect(change!.status, label).toBe(409);
        const named = (change!.body.reservations as Array<{ reservation_number: string }>).map(
          (r) => r.reservation_number,
        );
        expect(named.length, label).toBeGreaterThan(0);
        const made = booked.map((result) => answerOf(result, reservationSchema).reservation_number);
        for (const number of named) expect(made, label).toContain(number);
        expect((await template(w.admin.token, staff.id)).days, label).toEqual(TUE_TO_SAT);
      }
      outcomes.add(change!.status === 200 ? 'change' : 'booking');
      await w.db.update(reservations).set({ status: 'cancelled' }).where(eq(reservations.staff_id, staff.id));
    }
    // Which side wins depends on timing; each round above checked that never both did.
    expect(outcomes.size).toBeGreaterThan(0);
  });
  it('a template change racing a customer moving their booking within the same day never strands it', async () => {
    const ROUNDS = 10;
    const staff = await staffWithTemplate('shift-move-race');
    const later = TUE_TO_SAT.map((day) => (day.weekday === 2 ? { ...day, start_time: '11:00' } : day));
    for (let round = 0; round < ROUNDS; round += 1) {
      expect((await putTemplate(w.admin.token, TUE_TO_SAT, staff.id)).status).toBe(200);
      const booking = await bookWith(staff, at('2030-04-23', '15:00'));
      // Moving within one staff member changes no foreign key: only the version check can see the change.
      const [change, move] = await Promise.all([
        sleep(round * 2).then(() => putTemplate(w.admin.token, later, staff.id)),
        w.api(`/api/reservations/${booking.reservation_number}/reschedule/`, {
          method: 'POST',
          token: hanako.token,
          json: { start_time: at('2030-04-23', '10:00') },
        }),
      ]);
      const label = `round ${round}: change ${change.status}, move ${move.status} ${move.text.slice(0, 100)}`;
      expect([change.status, move.status].sort(), label).not.toEqual([200, 200]);
      if (change.status === 200) expect(move.body, label).toMatchObject({ code: 'slot_unavailable' });
      else expect(change.body, label).toMatchObject({ code: 'stranded' });
      await w.db.update(reservations).set({ status: 'cancelled' }).where(eq(reservations.staff_id, staff.id));
    }
  });
});
