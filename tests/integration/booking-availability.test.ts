import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import { slotGrid } from '../../src/shared/slots';
import {
  at,
  availability,
  detailedSlots,
  startBookingApp,
  times,
  TODAY,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const GRID = slotGrid('09:00', '21:00');
const without = (all: string[], removed: string[]) => all.filter((time) => !removed.includes(time));

/** Acceptance item 1: availability honours duration, other staff, cancellations, notice, past days and block length. */
describe(`booking availability on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let short: ServiceRow;
  let gel: ServiceRow;
  let art: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('avail-a', '佐藤 A');
    staffB = await w.staff('avail-b', '鈴木 B');
    [hanako, yui] = await Promise.all([
      w.customer({ name: '山田 花子', email: 'hanako@example.com' }),
      w.customer({ name: '高橋 結衣', furigana: 'タカハシ ユイ', email: 'yui@example.com' }),
    ]);
    short = await w.service('ワンカラー', 30);
    gel = await w.service('ジェルネイル', 90);
    art = await w.service('アートコース', 150);
  });
  afterAll(() => w?.close());

  it('lists the active services with string prices; another salon has none', async () => {
    const retired = await w.service('終了したメニュー', 60, 3000, false);
    const menu = await w.api('/api/services/');
    expect(menu.status).toBe(200);
    expect(menu.body).toEqual([
      {
        id: short.id,
        name: 'ワンカラー',
        price: '5000',
        duration_minutes: 30,
        salon: w.t.salonId,
        options: [],
        rebook_cycle_days: null,
      },
      {
        id: gel.id,
        name: 'ジェルネイル',
        price: '5000',
        duration_minutes: 90,
        salon: w.t.salonId,
        options: [],
        rebook_cycle_days: null,
      },
      {
        id: art.id,
        name: 'アートコース',
        price: '5000',
        duration_minutes: 150,
        salon: w.t.salonId,
        options: [],
        rebook_cycle_days: null,
      },
    ]);
    expect(menu.body).not.toContainEqual(expect.objectContaining({ id: retired.id }));
    expect((await w.api(`/api/services/?salon=${w.t.salonId}`)).body).toEqual(menu.body);
    expect((await w.api(`/api/services/?salon=${w.t.salonId + 1}`)).body).toEqual([]);
  });

  it('a 90-minute booking at 10:00 takes 10:00, 10:30 and 11:00 of that staff member; cancelling frees them', async () => {
    const date = '2030-02-04';
    await w.openSlots(staffA.id, date, times('10:00', '14:00'));
    const open = times('10:00', '14:00');
    expect(await availability(w, date, short.id)).toEqual(open);
    // 90 minutes must end by 14:00: the last start is 12:30.
    expect(await availability(w, date, gel.id)).toEqual(times('10:00', '13:00'));

    const reservation = await w.booked(hanako, gel.id, at(date, '10:00'));
    expect(reservation).toMatchObject({
      status: 'pending',
      staff_id: staffA.id,
      start_time: at(date, '10:00'),
      end_time: at(date, '11:30'),
    });

    const taken = ['10:00', '10:30', '11:00'];
    expect(await detailedSlots(w, date, staffA.id)).toEqual({
      available_times: without(open, taken),
      booked_times: taken,
      outside_business_hours: without(GRID, open),
    });
    expect(await availability(w, date, short.id)).toEqual(without(open, taken));
    // 90 minutes from 11:30 still fits before 14:00; nothing that would overlap 10:00-11:30 is offered.
    expect(await availability(w, date, gel.id)).toEqual(['11:30', '12:00', '12:30']);
    // A second customer cannot take an overlapping start.
    const overlapping = await w.book(yui, short.id, at(date, '11:00'));
    expect(overlapping.status).toBe(409);
    expect(overlapping.body).toEqual({ detail: MESSAGES.slotUnavailable, code: 'slot_unavailable' });

    const cancelled = await w.api(`/api/reservations/${reservation.reservation_number}/cancel/`, {
      method: 'POST',
      token: hanako.token,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(await detailedSlots(w, date, staffA.id)).toEqual({
      available_times: open,
      booked_times: [],
      outside_business_hours: without(GRID, open),
    });
    expect(await availability(w, date, short.id)).toEqual(open);
    expect(await availability(w, date, gel.id)).toEqual(times('10:00', '13:00'));
    // And the freed time can be booked again.
    expect((await w.book(yui, gel.id, at(date, '10:00'))).status).toBe(201);
  });

  it("a booking with one staff member leaves the other staff member's slots offered", async () => {
    const date = '2030-02-05';
    const open = times('10:00', '13:00');
    await Promise.all([w.openSlots(staffA.id, date, open), w.openSlots(staffB.id, date, open)]);

    const first = await w.booked(hanako, gel.id, at(date, '10:00'));
    const other = first.staff_id === staffA.id ? staffB : staffA;
    expect([staffA.id, staffB.id]).toContain(first.staff_id);
    expect((await detailedSlots(w, date, first.staff_id)).booked_times).toEqual(['10:00', '10:30', '11:00']);
    expect(await detailedSlots(w, date, other.id)).toMatchObject({ available_times: open, booked_times: [] });
    expect(await availability(w, date, short.id)).toEqual(open);
    expect(await availability(w, date, gel.id)).toEqual(times('10:00', '12:00'));

    // The second booking of the same start goes to the other staff member; then the time is gone.
    const second = await w.booked(yui, gel.id, at(date, '10:00'));
    expect(second.staff_id).toBe(other.id);
    expect(await availability(w, date, short.id)).toEqual(['11:30', '12:00', '12:30']);
    expect(await availability(w, date, gel.id)).toEqual(['11:30']);
    const third = await w.book(await w.customer({ email: 'third@example.com' }), short.id, at(date, '10:30'));
    expect(third.status).toBe(409);
    expect(third.body.code).toBe('slot_unavailable');
  });

  it('an open block shorter than the service offers no start', async () => {
    const date = '2030-02-06';
    await w.openSlots(staffA.id, date, times('10:00', '12:00'));
    expect(await availability(w, date, art.id)).toEqual([]);
    expect(await availability(w, date, gel.id)).toEqual(['10:00', '10:30']);
    const tooLong = await w.book(hanako, art.id, at(date, '10:00'));
    expect(tooLong.status).toBe(409);
    expect(tooLong.body.code).toBe('slot_unavailable');
    // A gap in the middle splits the block: 10:00-11:00 and 11:30-12:30 fit nothing of 90 minutes.
    const gapDate = '2030-02-07';
    await w.openSlots(staffA.id, gapDate, ['10:00', '10:30', '11:30', '12:00']);
    expect(await availability(w, gapDate, gel.id)).toEqual([]);
    expect(await availability(w, gapDate, short.id)).toEqual(['10:00', '10:30', '11:30', '12:00']);
  });

  describe('today, past days, the minimum notice and bookable-dates (January 2030 is reserved for these)', () => {
    const past = '2030-01-05';
    const yesterday = '2030-01-09';
    const twoHourDay = '2030-01-20';
    const longDay = '2030-01-21';
    const bookableDates = async (query: string) => {
      const result = await w.api(`/api/bookable-dates/?${query}`);
      expect(result.status).toBe(200);
      return result.body as unknown as string[];
    };

    beforeAll(async () => {
      await Promise.all([
        w.openSlots(staffA.id, past, times('10:00', '12:00')),
        w.openSlots(staffA.id, yesterday, times('09:00', '21:00')),
        w.openSlots(staffA.id, TODAY, times('09:00', '12:00')),
        w.openSlots(staffA.id, twoHourDay, times('10:00', '12:00')),
        w.openSlots(staffB.id, longDay, times('10:00', '15:00')),
      ]);
    });

    it('offers today only from now plus the minimum notice (09:00 now, 60 minutes: from 10:00)', async () => {
      expect(await availability(w, TODAY, short.id)).toEqual(['10:00', '10:30', '11:00', '11:30']);
      expect(await availability(w, TODAY, gel.id)).toEqual(['10:00', '10:30']);
      const insideNotice = await w.book(hanako, short.id, at(TODAY, '09:30'));
      expect(insideNotice.status).toBe(409);
      expect(insideNotice.body).toEqual({ detail: MESSAGES.slotUnavailable, code: 'slot_unavailable' });
      const now = await w.book(hanako, short.id, at(TODAY, '09:00'));
      expect(now.status).toBe(400);
      expect(now.body).toMatchObject({ code: 'invalid', fields: { start_time: [SERVER_MESSAGES.pastDateTime] } });
    });

    it('follows the salon setting for the notice', async () => {
      await w.setSalon({ min_notice_minutes: 120 });
      try {
        expect(await availability(w, TODAY, short.id)).toEqual(['11:00', '11:30']);
        expect((await w.book(hanako, short.id, at(TODAY, '10:30'))).status).toBe(409);
        await w.setSalon({ min_notice_minutes: 180 });
        expect(await availability(w, TODAY, short.id)).toEqual([]);
        expect(await bookableDates('year=2030&month=1')).toEqual([twoHourDay, longDay]);
        // No notice: from the next slot, never the one starting this instant (booking refuses that as past).
        await w.setSalon({ min_notice_minutes: 0 });
        expect((await availability(w, TODAY, short.id))[0]).toBe('09:30');
      } finally {
        await w.setSalon({ min_notice_minutes: 60 });
      }
    });

    it('never offers past days, whatever their slots', async () => {
      expect(await availability(w, yesterday, short.id)).toEqual([]);
      expect(await availability(w, past, short.id)).toEqual([]);
      const result = await w.book(hanako, short.id, at(yesterday, '15:00'));
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ fields: { start_time: [SERVER_MESSAGES.pastDateTime] } });
      expect(await bookableDates('year=2029&month=12')).toEqual([]);
    });

    it('bookable-dates lists today and later days with a start that fits, per service', async () => {
      // Without a service the shortest one decides.
      expect(await bookableDates('year=2030&month=1')).toEqual([TODAY, twoHourDay, longDay]);
      expect(await bookableDates(`year=2030&month=1&service_id=${short.id}`)).toEqual([TODAY, twoHourDay, longDay]);
      expect(await bookableDates(`year=2030&month=1&service_id=${gel.id}`)).toEqual([TODAY, twoHourDay, longDay]);
      // 150 minutes: today has 10:00-12:00 left after the notice, the 20th has two hours; only the 21st fits.
      expect(await bookableDates(`year=2030&month=1&service_id=${art.id}`)).toEqual([longDay]);
      expect(await availability(w, twoHourDay, art.id)).toEqual([]);
      expect(await availability(w, longDay, art.id)).toEqual(times('10:00', '13:00'));
    });

    it('drops a day from bookable-dates once it is fully booked, and brings it back on cancel', async () => {
      // 10:30-13:00 leaves 10:00-10:30 and 13:00-15:00: too short for 150 minutes, enough for 90.
      const taken = await w.booked(yui, art.id, at(longDay, '10:30'));
      expect(await availability(w, longDay, art.id)).toEqual([]);
      expect(await bookableDates(`year=2030&month=1&service_id=${art.id}`)).toEqual([]);
      expect(await availability(w, longDay, gel.id)).toEqual(['13:00', '13:30']);
      expect(await bookableDates(`year=2030&month=1&service_id=${gel.id}`)).toEqual([TODAY, twoHourDay, longDay]);
      const cancel = await w.api(`/api/admin/reservations/${taken.reservation_number}/cancel/`, {
        method: 'POST',
        token: w.admin.token,
      });
      expect(cancel.status).toBe(200);
      expect(await bookableDates(`year=2030&month=1&service_id=${art.id}`)).toEqual([longDay]);
    });

    it('does not offer the slots of an inactive staff member', async () => {
      const leaver = await w.staff('avail-leaver');
      const date = '2030-01-25';
      await w.openSlots(leaver.id, date, times('10:00', '12:00'));
      expect(await availability(w, date, short.id)).toEqual(times('10:00', '12:00'));
      // Through the staff screen's own call: the cached answer above must not outlive the change.
      const deactivated = await w.api(`/api/admin/users/${leaver.id}/`, {
        method: 'PATCH',
        token: w.admin.token,
        json: { is_active: false },
      });
      expect(deactivated.status).toBe(200);
      expect(await availability(w, date, short.id)).toEqual([]);
      expect(await bookableDates(`year=2030&month=1&service_id=${short.id}`)).not.toContain(date);
    });
  });
});
