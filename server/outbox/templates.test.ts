import { describe, expect, it } from 'vitest';
import { localDateTimeToInstant } from '#src/shared/time';
import { renderCustomerEmail, renderCustomerLine, renderStaffLine, type ReservationSnapshot } from './templates';

const TZ = 'Asia/Tokyo';
const context = { salonName: 'サロン花', publicUrl: 'https://salon.example.com/', timeZone: TZ };

const reservation: ReservationSnapshot = {
  reservation_number: '6f1c1f9e-0000-4000-8000-000000000001',
  reservation_code: 'ABCD2345',
  service_name: 'ジェルネイル',
  price: 7500,
  start_time: localDateTimeToInstant('2030-01-15T14:00:00', TZ),
  customer_name: '山田 花子',
  staff_name: '佐藤 美咲',
  is_nominated: true,
  options: [{ name: 'ストーン' }, { name: 'ケア' }],
};
const moved = { ...reservation, previous_start_time: localDateTimeToInstant('2030-01-14T11:30:00', TZ) };

const lineText = (messages: ReturnType<typeof renderCustomerLine>) =>
  messages.map((message) => (message.type === 'text' ? message.text : '')).join('\n');

describe('reservation message texts', () => {
  it('a move tells the customer by e-mail: 予約日時の変更 in the subject, the new time and the old one', () => {
    const email = renderCustomerEmail('rescheduled', moved, context);
    expect(email.subject).toBe('【サロン花】ご予約日時の変更のお知らせ');
    expect(email.text).toContain('ご予約日時を変更しました');
    expect(email.text).toContain('変更後の日時: 2030年01月15日 14:00');
    expect(email.text).toContain('変更前の日時: 2030年01月14日 11:30');
    expect(email.text.indexOf('変更後の日時')).toBeLessThan(email.text.indexOf('変更前の日時'));
  });

  it('a move tells the customer by LINE and the staff member by LINE, with both times', () => {
    const customer = lineText(renderCustomerLine('rescheduled', moved, context));
    expect(customer).toContain('ご予約日時を変更しました。');
    expect(customer).toContain('変更後の日時: 2030年01月15日 14:00');
    expect(customer).toContain('変更前の日時: 2030年01月14日 11:30');
    const staff = lineText(renderStaffLine('rescheduled', moved, context));
    expect(staff.split('\n')[0]).toBe('【ご予約の日時変更】');
    expect(staff).toContain('変更前の日時: 2030年01月14日 11:30');
    expect(staff).toContain('/admin/reservations/6f1c1f9e-0000-4000-8000-000000000001');
  });

  it('a move to another staff member names both in the staff message; the customer reads the new one', () => {
    const handedOver = { ...moved, previous_staff_name: '鈴木 B', is_nominated: false };
    expect(lineText(renderStaffLine('rescheduled', handedOver, context))).toContain('担当: 鈴木 B → 佐藤 美咲');
    const customer = renderCustomerEmail('rescheduled', handedOver, context).text;
    expect(customer).toContain('担当: 佐藤 美咲\n');
    expect(customer).not.toContain('鈴木');
    expect(lineText(renderStaffLine('rescheduled', moved, context))).not.toContain('担当');
  });

  it('the customer texts name the staff member (with 指名) and the options', () => {
    for (const template of ['accepted', 'confirmed', 'rescheduled'] as const) {
      const email = renderCustomerEmail(template, reservation, context).text;
      const line = lineText(renderCustomerLine(template, reservation, context));
      for (const text of [email, line]) {
        expect(text).toContain('担当: 佐藤 美咲（指名）');
        expect(text).toContain('オプション: ストーン、ケア');
        expect(text).toContain('日時: 2030年01月15日 14:00');
        expect(text).not.toContain('変更前');
      }
    }
    const notNominated = renderCustomerEmail(
      'confirmed',
      { ...reservation, is_nominated: false, options: [] },
      context,
    );
    expect(notNominated.text).toContain('担当: 佐藤 美咲\n');
    expect(notNominated.text).not.toContain('（指名）');
    expect(notNominated.text).not.toContain('オプション');
  });

  it('the staff member’s own message does not name them; a snapshot without a staff name has no 担当 line', () => {
    expect(lineText(renderStaffLine('new', reservation, context))).not.toContain('担当');
    expect(lineText(renderStaffLine('new', reservation, context))).toContain('オプション: ストーン、ケア');
    const { staff_name: _name, ...old } = reservation;
    expect(renderCustomerEmail('reminder', old, context).text).not.toContain('担当');
  });
});
