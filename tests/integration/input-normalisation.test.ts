import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, reservations } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

/** Issue 32: フリガナ typed in hiragana is stored in katakana; phone numbers with hyphens or full-width digits are accepted. */
describe(`input normalisation on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let service: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('norm-staff', '佐藤 A');
    service = await w.service('ワンカラー', 60);
    await w.openSlots(staff.id, '2030-01-15', times('10:00', '18:00'));
  });
  afterAll(() => w?.close());

  const customerRow = async (id: number) => (await w.db.select().from(customers).where(eq(customers.id, id)))[0]!;

  it('a customer booking stores the furigana in katakana and the phone number in digits', async () => {
    const customer = await w.customer({ name: '山田 花子', furigana: '' });
    const result = await w.book(customer, service.id, at('2030-01-15', '10:00'), {
      customer_furigana: 'やまだ はなこ',
      customer_phone: '０９０－１２３４－５６７８',
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ customer_furigana: 'ヤマダ ハナコ', customer_phone: '09012345678' });
    const [row] = await w.db
      .select({ phone: reservations.customer_phone })
      .from(reservations)
      .where(eq(reservations.reservation_number, result.body.reservation_number as string));
    expect(row?.phone).toBe('09012345678');
    expect(await customerRow(customer.id)).toMatchObject({ furigana: 'ヤマダ ハナコ', phone_number: '09012345678' });
  });

  it('staff editing a customer and booking a walk-in get the same', async () => {
    const customer = await w.customer({ name: '鈴木 一郎', furigana: 'スズキ イチロウ' });
    const patched = await w.api(`/api/admin/customers/${customer.id}/`, {
      method: 'PATCH',
      token: w.admin.token,
      json: { furigana: 'すずき いちろう', phone_number: '03-1234-5678' },
    });
    expect(patched.status).toBe(200);
    expect(await customerRow(customer.id)).toMatchObject({ furigana: 'スズキ イチロウ', phone_number: '0312345678' });

    const walkIn = await w.api('/api/admin/reservations/create-with-new-customer/', {
      method: 'POST',
      token: staff.token,
      json: {
        name: '新規 太郎',
        phone_number: '080 9876 5432',
        service_id: service.id,
        start_time: at('2030-01-15', '14:00'),
      },
    });
    expect(walkIn.status).toBe(201);
    expect(await customerRow(walkIn.body.customer_id as number)).toMatchObject({ phone_number: '08098765432' });
  });

  it('still refuses what is not a phone number or katakana, with the Japanese message', async () => {
    const customer = await w.customer({ name: '高橋 由美' });
    const result = await w.api(`/api/admin/customers/${customer.id}/`, {
      method: 'PATCH',
      token: w.admin.token,
      json: { furigana: 'Takahashi', phone_number: '+81-90-1234-5678' },
    });
    expect(result.status).toBe(400);
    expect(result.body.fields).toEqual({
      furigana: [MESSAGES.furiganaKatakana],
      phone_number: [MESSAGES.phoneDigits],
    });
  });
});
