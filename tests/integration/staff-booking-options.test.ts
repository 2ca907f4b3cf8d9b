import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import {
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/**
 * Issue 32 item 3: a phone booking made by staff carries options and 指名 by the customer booking's rules (time and
 * price from the options, the named staff member's 指名料), and the desk is offered only the starts the whole
 * booking fits.
 */
describe(`staff bookings with options and 指名 on ${testEngine}`, () => {
  let w: BookingWorld;
  let nailist: StaffMember;
  let hidden: StaffMember;
  let desk: StaffMember;
  let hanako: CustomerMember;
  let hand: ServiceRow;
  let gelOff: { id: number };
  let art: { id: number };
  let otherOption: { id: number };

  beforeAll(async () => {
    w = await startBookingApp();
    nailist = await w.staff('opt-nailist', '佐藤 美咲');
    hidden = await w.staff('opt-hidden', '鈴木 B');
    desk = await w.staff('opt-desk', '受付 花', 'front_desk');
    await w.setStaff(nailist.id, { nomination_fee: 1000 });
    await w.setStaff(hidden.id, { is_bookable: false, nomination_fee: 700 });
    hanako = await w.customer({ name: '山田 花子', email: 'hanako@example.com', assignedStaffId: nailist.id });
    hand = await w.service('ハンド定額ジェル', 60, 5500);
    const other = await w.service('ワンカラー', 30, 4400);
    gelOff = await w.option(hand.id, 'ジェルオフ', 30, 1100);
    art = await w.option(hand.id, 'アート1本', 10, 550);
    otherOption = await w.option(other.id, 'パラジェル', 15, 1100);
    await w.openSlots(nailist.id, '2030-02-04', times('10:00', '14:00'));
    await w.setSalon({ max_upcoming_per_customer: 1000 });
  });
  afterAll(() => w?.close());

  const createNew = (token: string, body: Record<string, unknown>) =>
    w.api('/api/admin/reservations/create-with-new-customer/', { method: 'POST', token, json: body });
  const createFor = (token: string, body: Record<string, unknown>) =>
    w.api('/api/admin/reservations/create-for-customer/', { method: 'POST', token, json: body });

  it('the front desk books a phone customer with two options and 指名: time and price as a customer would pay', async () => {
    const created = await createNew(desk.token, {
      name: '電話 太郎',
      phone_number: '090-1234-5678',
      service_id: hand.id,
      option_ids: [gelOff.id, art.id],
      staff_id: nailist.id,
      is_nominated: true,
      start_time: '2030-02-04T10:00',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      staff_id: nailist.id,
      status: 'confirmed',
      start_time: '2030-02-04T10:00:00',
      end_time: '2030-02-04T11:40:00',
      is_nominated: true,
      nomination_fee: '1000',
      service: { price: String(5500 + 1100 + 550 + 1000), duration_minutes: 100 },
    });
    expect((created.body as { options: { id: number }[] }).options.map((option) => option.id)).toEqual([
      gelOff.id,
      art.id,
    ]);
  });

  it('without 指名 no 指名料; a nailist books themselves with their own 指名料 and never for another', async () => {
    const plain = await createFor(desk.token, {
      customer_id: hanako.id,
      service_id: hand.id,
      option_ids: [art.id],
      staff_id: nailist.id,
      start_time: '2030-02-05T10:00',
    });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ is_nominated: false, nomination_fee: '0', service: { price: '6050' } });

    const own = await createFor(nailist.token, {
      customer_id: hanako.id,
      service_id: hand.id,
      staff_id: hidden.id,
      is_nominated: true,
      start_time: '2030-02-05T13:00',
    });
    expect(own.status).toBe(201);
    // The staff_id of a nailist is ignored: the booking is theirs, and so is the 指名料.
    expect(own.body).toMatchObject({ staff_id: nailist.id, is_nominated: true, service: { price: '6500' } });
  });

  it('refuses 指名 of a staff member customers cannot name, and an option of another menu, in Japanese', async () => {
    const notBookable = await createNew(desk.token, {
      name: '電話 次郎',
      service_id: hand.id,
      staff_id: hidden.id,
      is_nominated: true,
      start_time: '2030-02-06T10:00',
    });
    expect(notBookable.status).toBe(400);
    expect(notBookable.body).toMatchObject({ fields: { staff_id: [SERVER_MESSAGES.staffNotBookable] } });
    // The same staff member booked without 指名 is fine (the desk may book anyone).
    const unnamed = await createNew(desk.token, {
      name: '電話 次郎',
      service_id: hand.id,
      staff_id: hidden.id,
      start_time: '2030-02-06T10:00',
    });
    expect(unnamed.status).toBe(201);
    const wrongOption = await createNew(desk.token, {
      name: '電話 三郎',
      service_id: hand.id,
      option_ids: [otherOption.id],
      start_time: '2030-02-06T12:00',
    });
    expect(wrongOption.status).toBe(400);
    expect(wrongOption.body).toMatchObject({ fields: { option_ids: [MESSAGES.optionNotFound] } });
  });

  it('detailed-time-slots with a menu offers only the starts the whole booking fits', async () => {
    // 2030-02-07: working 10:00–14:00, a booking 12:00–12:30.
    await w.openSlots(nailist.id, '2030-02-07', times('10:00', '14:00'));
    const blocker = await createFor(desk.token, {
      customer_id: hanako.id,
      service_id: (await w.service('クイック', 30, 2000)).id,
      staff_id: nailist.id,
      start_time: '2030-02-07T12:00',
    });
    expect(blocker.status).toBe(201);
    const slots = async (query: string) => {
      const result = await w.api(`/api/admin/detailed-time-slots/?date=2030-02-07&user_id=${nailist.id}${query}`, {
        token: desk.token,
      });
      expect(result.status).toBe(200);
      return result.body as { available_times: string[]; outside_business_hours: string[]; booked_times: string[] };
    };
    const oneCell = await slots('');
    expect(oneCell.available_times).toEqual(['10:00', '10:30', '11:00', '11:30', '12:30', '13:00', '13:30']);
    // 100 minutes: from 10:00 it ends 11:40, before 12:00; 10:30 would run into the booking; after it, 12:30 ends
    // 14:10, past working time, so it is offered as 営業時間外 with every later start that holds no booking.
    const long = await slots(`&service_id=${hand.id}&option_ids=${gelOff.id},${art.id}`);
    expect(long.available_times).toEqual(['10:00']);
    expect(long.outside_business_hours).toContain('12:30');
    expect(long.outside_business_hours).not.toContain('10:30');
    expect(long.outside_business_hours).not.toContain('11:00');
    expect(long.booked_times).toEqual(['12:00']);
    const offMenu = await w.api(`/api/admin/detailed-time-slots/?date=2030-02-07&service_id=999999`, {
      token: desk.token,
    });
    expect(offMenu.status).toBe(400);
  });
});
