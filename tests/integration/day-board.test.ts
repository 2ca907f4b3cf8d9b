import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/messages';
import type { DayBoard } from '../../src/shared/schemas/day-board';
import {
  at,
  startBookingApp,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const DAY = '2030-03-05'; // a Tuesday

/** GET /api/admin/day-board/ (issue 32): one column per staff member on duty, their bookings, scoped by role. */
describe(`day board on ${testEngine}`, () => {
  let w: BookingWorld;
  let nailistA: StaffMember;
  let nailistB: StaffMember;
  let offDuty: StaffMember;
  let desk: StaffMember;
  let customer: CustomerMember;
  let gel: ServiceRow;

  const board = async (token: string, date = DAY) => {
    const result = await w.api(`/api/admin/day-board/?date=${date}`, { token });
    expect(result.status).toBe(200);
    return result.body as unknown as DayBoard;
  };

  beforeAll(async () => {
    w = await startBookingApp();
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    // One after another: the columns come in id order, so A's id must be below B's (made in parallel they raced).
    nailistA = await w.staff('board-a', '佐藤 A');
    nailistB = await w.staff('board-b', '鈴木 B');
    offDuty = await w.staff('board-off', '休み C');
    desk = await w.staff('board-desk', '受付 D', 'front_desk');
    customer = await w.customer({ name: '山田 花子', furigana: 'ヤマダ ハナコ' });
    gel = await w.service('ジェルネイル', 60, 6000);
    // A works 10:00–13:00 and 14:00–15:00 that day (a day set by hand); B by the weekly shift.
    await w.openSlots(nailistA.id, DAY, ['10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '14:00', '14:30']);
    await w.shiftTemplate(nailistB.id, 2, '11:00', '19:00');
    await w.insertReservation({
      staffId: nailistA.id,
      customer,
      service: gel,
      start: at(DAY, '10:00'),
      status: 'confirmed',
    });
    await w.insertReservation({
      staffId: nailistA.id,
      customer,
      service: gel,
      start: at(DAY, '12:00'),
      status: 'cancelled',
    });
    await w.insertReservation({
      staffId: nailistB.id,
      customer,
      service: gel,
      start: at(DAY, '15:00'),
      status: 'pending',
    });
    await w.insertReservation({ staffId: nailistB.id, customer, service: gel, start: at('2030-03-06', '15:00') });
  });
  afterAll(() => w?.close());

  it('shows each staff member on duty with their working time and bookings, cancelled ones left out', async () => {
    const result = await board(desk.token);
    expect(result.date).toBe(DAY);
    expect(result.grid_minutes).toBe(30);
    expect(result.staff.map((column) => column.id)).toEqual([nailistA.id, nailistB.id]);
    const [a, b] = result.staff as [DayBoard['staff'][number], DayBoard['staff'][number]];
    expect(a).toMatchObject({
      name: '佐藤 A',
      working: [
        { start: '10:00', end: '13:00' },
        { start: '14:00', end: '15:00' },
      ],
    });
    expect(a.reservations).toEqual([
      {
        reservation_number: expect.any(String),
        reservation_code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        start_time: `${DAY}T10:00:00`,
        end_time: `${DAY}T11:00:00`,
        customer_name: '山田 花子',
        service_name: 'ジェルネイル',
        option_names: [],
        is_nominated: false,
        status: 'confirmed',
      },
    ]);
    expect(b.working).toEqual([{ start: '11:00', end: '19:00' }]);
    expect(b.reservations.map((r) => [r.start_time, r.status])).toEqual([[`${DAY}T15:00:00`, 'pending']]);
    expect(result.staff.some((column) => column.id === offDuty.id)).toBe(false);
  });

  it('the owner sees every column, a nailist only their own', async () => {
    expect((await board(w.admin.token)).staff.map((column) => column.id)).toEqual([nailistA.id, nailistB.id]);
    const asB = await board(nailistB.token);
    expect(asB.staff.map((column) => column.id)).toEqual([nailistB.id]);
    expect((await board(offDuty.token)).staff).toEqual([]);
  });

  it('a booking outside working time still shows, with the staff member’s column', async () => {
    await w.insertReservation({ staffId: offDuty.id, customer, service: gel, start: at('2030-03-07', '10:00') });
    const result = await board(desk.token, '2030-03-07');
    const column = result.staff.find((entry) => entry.id === offDuty.id);
    expect(column?.working).toEqual([]);
    expect(column?.reservations).toHaveLength(1);
  });

  it('answers a bad date with 400 and a Japanese message', async () => {
    for (const date of ['2030-02-30', '20300305', 'tomorrow', '']) {
      const result = await w.api(`/api/admin/day-board/?date=${date}`, { token: desk.token });
      expect(result.status, date).toBe(400);
      expect(result.body.detail, date).toMatch(/[ぁ-んァ-ヶ一-龯]/);
      expect(result.body.fields, date).toEqual({ date: [MESSAGES.invalidDate] });
    }
    expect((await w.api('/api/admin/day-board/', { token: desk.token })).status).toBe(400);
  });
});
