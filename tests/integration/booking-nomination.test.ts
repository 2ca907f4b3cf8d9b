import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, reservations, staffUsers } from '#server/db/schema';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import type { ApiResult } from '#tests/helpers/app';
import {
  at,
  dates,
  startBookingApp,
  statusesOf,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

const ROUNDS = 20;
const SLOT_TAKEN = { detail: MESSAGES.slotUnavailable, code: 'slot_unavailable' };
const NOT_BOOKABLE = {
  detail: SERVER_MESSAGES.staffNotBookable,
  code: 'invalid',
  fields: { staff_id: [SERVER_MESSAGES.staffNotBookable] },
};

type ReservationRow = typeof reservations.$inferSelect;

/** Pairs of one staff member's active rows whose held time [start_time, occupied_until) overlaps (must be none). */
function overlappingHeldTime(rows: ReservationRow[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const a of rows) {
    for (const b of rows) {
      if (
        a.id < b.id &&
        a.staff_id === b.staff_id &&
        a.start_time < b.occupied_until &&
        b.start_time < a.occupied_until
      ) {
        pairs.push([a.id, b.id]);
      }
    }
  }
  return pairs;
}

/**
 * 指名 (docs/architecture.md#booking-rules): a customer may name a bookable staff member, who then takes the booking
 * (with their 指名料) or nobody does; without a name the salon assigns someone free. Both kinds of booking claim time
 * through the same exclusion constraint, so races between them still have one winner per staff member and start.
 */
describe(`指名 (nominated bookings) on ${testEngine}`, { timeout: 180_000 }, () => {
  let w: BookingWorld;
  let nominee: StaffMember;
  let other: StaffMember;
  let hidden: StaffMember;
  let gone: StaffMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let mao: CustomerMember;
  let hand: ServiceRow;
  let oneColour: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    nominee = await w.staff('nominee', '佐藤 美咲');
    other = await w.staff('other', '鈴木 彩');
    hidden = await w.staff('hidden', '田中 受付');
    gone = await w.staff('gone', '退職 スタッフ');
    await w.setStaff(nominee.id, { nomination_fee: 1000, profile: 'ニュアンスアートが得意です。' });
    await w.setStaff(other.id, { nomination_fee: 500 });
    await w.setStaff(hidden.id, { is_bookable: false });
    await w.setStaff(gone.id, { is_active: false });
    // Some working time far ahead for everyone but the superuser of the test app, who has none.
    for (const member of [nominee, other, hidden, gone]) await w.openSlotsDirect(member.id, ['2031-06-01'], ['10:00']);
    // And one who worked only on days that are over: nothing left to book with them.
    const retired = await w.staff('past', '過去 スタッフ');
    await w.openSlotsDirect(retired.id, ['2020-01-06', '2020-01-07'], ['10:00', '10:30']);
    [hanako, yui, mao] = await Promise.all([
      w.customer({ name: '山田 花子', email: 'hanako@example.com', assignedStaffId: other.id }),
      w.customer({ name: '高橋 結衣', furigana: 'タカハシ ユイ', email: 'yui@example.com', assignedStaffId: other.id }),
      w.customer({ name: '伊藤 真央', furigana: 'イトウ マオ', email: 'mao@example.com' }),
    ]);
    hand = await w.service('ハンド定額ジェル', 60, 5500);
    oneColour = await w.service('ワンカラー', 30, 4400);
    await w.setSalon({ max_upcoming_per_customer: 10_000 });
  });
  afterAll(() => w?.close());

  async function starts(date: string, serviceId: number, staffId?: number): Promise<string[]> {
    const named = staffId === undefined ? '' : `&staff_id=${staffId}`;
    const result = await w.api(`/api/availability/?date=${date}&service_id=${serviceId}${named}`);
    expect(result.status, result.text).toBe(200);
    return result.body as unknown as string[];
  }

  const dayRows = (date: string) => w.activeRows(at(date, '00:00'), at(date, '23:30'));

  it('GET /api/staff/ lists exactly the active, bookable staff who work at all, with profile and 指名料', async () => {
    const result = await w.api('/api/staff/');
    expect(result.status).toBe(200);
    const listed = result.body as unknown as Array<{ id: number }>;
    // Not the not-bookable one, not the inactive one, not the one whose working days are all over, and not the
    // superuser, who is bookable but has no working time.
    expect(listed.map((member) => member.id)).toEqual([nominee.id, other.id].sort((a, b) => a - b));
    const [superuser] = await w.db
      .select({ id: staffUsers.id, bookable: staffUsers.is_bookable })
      .from(staffUsers)
      .where(and(eq(staffUsers.salon_id, w.t.salonId), eq(staffUsers.is_superuser, true)))
      .orderBy(asc(staffUsers.id));
    expect(superuser?.bookable).toBe(true);
    expect(listed).toContainEqual({
      id: nominee.id,
      name: '佐藤 美咲',
      picture_url: '',
      profile: 'ニュアンスアートが得意です。',
      nomination_fee: '1000',
    });
    expect(listed).toContainEqual({
      id: other.id,
      name: '鈴木 彩',
      picture_url: '',
      profile: '',
      nomination_fee: '500',
    });
  });

  it('a nominated booking gets that staff member and adds their 指名料 to the total', async () => {
    const date = '2030-02-13';
    await w.openSlots(nominee.id, date, times('10:00', '13:00'));
    await w.openSlots(other.id, date, times('10:00', '13:00'));
    // Hanako's own staff member is `other`, and free: the name she gives wins over that preference.
    const booked = await w.book(hanako, hand.id, at(date, '10:00'), { staff_id: nominee.id });
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body).toMatchObject({
      staff_id: nominee.id,
      staff_name: '佐藤 美咲',
      is_nominated: true,
      nomination_fee: '1000',
      service: { id: hand.id, price: '6500', duration_minutes: 60 },
      options: [],
    });
    const [row] = await w.db
      .select()
      .from(reservations)
      .where(eq(reservations.reservation_number, (booked.body as unknown as Reservation).reservation_number));
    expect(row).toMatchObject({ staff_id: nominee.id, is_nominated: true, nomination_fee: 1000, price: 6500 });

    // The nominee is now busy at 10:00 (and only they are): naming them again is a 409, not someone else.
    expect(await starts(date, hand.id, nominee.id)).toEqual(['11:00', '11:30', '12:00']);
    expect(await starts(date, hand.id)).toEqual(times('10:00', '12:30'));
    expect(await w.book(mao, hand.id, at(date, '10:30'), { staff_id: nominee.id })).toMatchObject({
      status: 409,
      body: SLOT_TAKEN,
    });
    // 指名なし at the same start is not refused: the other staff member takes it, without a fee.
    const unnamed = await w.book(mao, hand.id, at(date, '10:00'));
    expect(unnamed.status, unnamed.text).toBe(201);
    expect(unnamed.body).toMatchObject({
      staff_id: other.id,
      is_nominated: false,
      nomination_fee: '0',
      service: { price: '5500' },
    });
    expect(await starts(date, hand.id, other.id)).toEqual(['11:00', '11:30', '12:00']);
  });

  it('指名なし still goes to the customer’s own staff member when free, without a 指名料', async () => {
    const date = '2030-02-14';
    await w.openSlots(nominee.id, date, times('10:00', '13:00'));
    await w.openSlots(other.id, date, times('10:00', '13:00'));
    const booked = await w.book(yui, oneColour.id, at(date, '11:00'));
    expect(booked.status, booked.text).toBe(201);
    expect(booked.body).toMatchObject({
      staff_id: other.id,
      is_nominated: false,
      nomination_fee: '0',
      service: { price: '4400', duration_minutes: 30 },
    });
    // The same customer naming the other one gets them.
    const named = await w.book(yui, oneColour.id, at(date, '12:00'), { staff_id: nominee.id });
    expect(named.status, named.text).toBe(201);
    expect(named.body).toMatchObject({ staff_id: nominee.id, is_nominated: true, service: { price: '5400' } });
  });

  it('指名なし for a customer without their own staff member goes to the free one with the fewest bookings that day', async () => {
    const date = '2030-02-25';
    await w.openSlots(nominee.id, date, times('10:00', '14:00'));
    await w.openSlots(other.id, date, times('10:00', '14:00'));
    const [first, second] = [nominee, other].sort((a, b) => a.id - b.id);
    // Two bookings with the staff member of the lower id, who takes a tie.
    const newcomer = await w.customer({ name: '木村 凛', email: 'rin@example.com' });
    for (const time of ['10:00', '11:00']) {
      const named = await w.book(newcomer, oneColour.id, at(date, time), { staff_id: first!.id });
      expect(named.status, named.text).toBe(201);
    }
    // Their first booking made that one the customer's own staff member: cleared, so the day's load alone decides.
    await w.db.update(customers).set({ assigned_staff_id: null }).where(eq(customers.id, newcomer.id));
    const unnamed = await w.book(newcomer, oneColour.id, at(date, '12:00'));
    expect(unnamed.status, unnamed.text).toBe(201);
    expect(unnamed.body).toMatchObject({ staff_id: second!.id, is_nominated: false });
  });

  it('a staff member who is not bookable, inactive or unknown cannot be named (400 staff_id), nor is given 指名なし', async () => {
    const date = '2030-02-15';
    await w.openSlots(nominee.id, date, times('10:00', '11:00'));
    // Working time alone does not make someone bookable.
    await w.openSlots(hidden.id, date, times('14:00', '16:00'));
    for (const staffId of [hidden.id, gone.id, 2_000_000_000]) {
      const booking = await w.book(mao, oneColour.id, at(date, '14:00'), { staff_id: staffId });
      expect(booking, String(staffId)).toMatchObject({ status: 400, body: NOT_BOOKABLE });
      const free = await w.api(`/api/availability/?date=${date}&service_id=${oneColour.id}&staff_id=${staffId}`);
      expect(free, String(staffId)).toMatchObject({ status: 400, body: NOT_BOOKABLE });
      const month = await w.api(
        `/api/bookable-dates/?year=2030&month=2&service_id=${oneColour.id}&staff_id=${staffId}`,
      );
      expect(month, String(staffId)).toMatchObject({ status: 400, body: NOT_BOOKABLE });
    }
    expect(await starts(date, oneColour.id)).toEqual(['10:00', '10:30']);
    expect(await w.book(mao, oneColour.id, at(date, '14:00'))).toMatchObject({ status: 409, body: SLOT_TAKEN });
    expect(await dayRows(date)).toEqual([]);
  });

  it('availability and bookable dates with staff_id list only that person’s time', async () => {
    const date = '2030-02-16';
    await w.openSlots(nominee.id, date, times('10:00', '12:00'));
    await w.openSlots(other.id, date, times('14:00', '16:00'));
    expect(await starts(date, oneColour.id, nominee.id)).toEqual(times('10:00', '12:00'));
    expect(await starts(date, oneColour.id, other.id)).toEqual(times('14:00', '16:00'));
    expect(await starts(date, oneColour.id)).toEqual([...times('10:00', '12:00'), ...times('14:00', '16:00')]);
    // A day only the nominee works is not bookable when naming the other one.
    const soloDay = '2030-02-20';
    await w.openSlots(nominee.id, soloDay, times('10:00', '12:00'));
    const month = async (staffId: number) => {
      const result = await w.api(
        `/api/bookable-dates/?year=2030&month=2&service_id=${oneColour.id}&staff_id=${staffId}`,
      );
      expect(result.status, result.text).toBe(200);
      return result.body as unknown as string[];
    };
    expect(await month(nominee.id)).toContain(soloDay);
    expect(await month(other.id)).not.toContain(soloDay);
    expect(await month(other.id)).toContain(date);
  });

  describe('races between nominated and 指名なし bookings', () => {
    it(`${ROUNDS} rounds, one staff member open, one nominated and one 指名なし at the same start: one winner`, async () => {
      const solo = await w.staff('race-solo', '高橋 ひとり');
      const days = dates('2030-03-01', ROUNDS);
      await w.openSlotsDirect(solo.id, days, times('10:00', '12:00'));
      for (const [index, day] of days.entries()) {
        const label = `round ${index} (${day})`;
        const results = await Promise.all([
          w.book(hanako, hand.id, at(day, '10:00'), { staff_id: solo.id }),
          w.book(mao, hand.id, at(day, '10:00')),
        ]);
        expect(statusesOf(results), label).toEqual([201, 409]);
        for (const loser of results.filter((result) => result.status === 409)) {
          expect(loser.body, label).toEqual(SLOT_TAKEN);
        }
        const rows = await dayRows(day);
        expect(rows, label).toHaveLength(1);
        const nominatedWon = results[0]!.status === 201;
        expect(rows[0], label).toMatchObject({
          staff_id: solo.id,
          customer_id: nominatedWon ? hanako.id : mao.id,
          is_nominated: nominatedWon,
        });
      }
      expect(overlappingHeldTime(await w.activeRows(at(days[0]!, '00:00'), at(days.at(-1)!, '23:30')))).toEqual([]);
    });

    it(`${ROUNDS} rounds, two staff open, one nominated and two 指名なし at once: one booking per staff member`, async () => {
      // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
      const first = await w.staff('race-p', '小林 P');
      const second = await w.staff('race-q', '加藤 Q');
      const days = dates('2030-04-01', ROUNDS);
      await w.openSlotsDirect(first.id, days, times('10:00', '12:00'));
      await w.openSlotsDirect(second.id, days, times('10:00', '12:00'));
      for (const [index, day] of days.entries()) {
        const label = `round ${index} (${day})`;
        const results: ApiResult[] = await Promise.all([
          w.book(hanako, hand.id, at(day, '10:00'), { staff_id: first.id }),
          w.book(yui, hand.id, at(day, '10:00')),
          w.book(mao, hand.id, at(day, '10:00')),
        ]);
        // Two staff members, three requests: two bookings and one 409, never a 5xx.
        expect(statusesOf(results), label).toEqual([201, 201, 409]);
        expect(results.find((result) => result.status === 409)!.body, label).toEqual(SLOT_TAKEN);
        const rows = await dayRows(day);
        expect(
          rows.map((row) => row.staff_id).sort((a, b) => a - b),
          label,
        ).toEqual([first.id, second.id].sort((a, b) => a - b));
        for (const row of rows) {
          // Only the nominated request may be marked nominated, and it sits with the one it named.
          if (row.customer_id === hanako.id)
            expect(row, label).toMatchObject({ staff_id: first.id, is_nominated: true });
          else expect(row.is_nominated, label).toBe(false);
        }
        const nominated = results[0]!;
        if (nominated.status === 201) expect(nominated.body, label).toMatchObject({ staff_id: first.id });
      }
      expect(overlappingHeldTime(await w.activeRows(at(days[0]!, '00:00'), at(days.at(-1)!, '23:30')))).toEqual([]);
    });
  });
});
