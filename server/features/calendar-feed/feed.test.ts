import { describe, expect, it } from 'vitest';
import { buildStaffCalendar, fixedOffset, type FeedBooking } from './feed';

const unfold = (text: string) => text.replace(/\r\n /g, '');
const lines = (text: string) => unfold(text).split('\r\n').slice(0, -1);

const now = new Date('2030-01-10T00:00:00Z'); // 09:00 in Tokyo

const booking = (patch: Partial<FeedBooking> = {}): FeedBooking => ({
  reservation_number: '6f1c1f9e-0000-4000-8000-000000000001',
  status: 'confirmed',
  start_time: new Date('2030-01-11T01:00:00Z'), // 10:00 in Tokyo
  end_time: new Date('2030-01-11T02:30:00Z'),
  updated_at: new Date('2030-01-09T03:00:00Z'),
  service_name: 'ジェルネイル',
  options: [],
  is_nominated: false,
  customer_name: '山田 花子',
  customer_phone: '090-1234-5678',
  ...patch,
});

const base = {
  salonName: 'ネイルサロン 桜',
  staffName: '佐藤',
  timeZone: 'Asia/Tokyo',
  publicUrl: 'https://salon.example.jp',
  now,
};

describe('staff calendar', () => {
  it('describes a zone without daylight saving time by one fixed offset, and sees DST where there is some', () => {
    expect(fixedOffset('Asia/Tokyo', now, [])).toBe(9 * 3_600_000);
    expect(fixedOffset('UTC', now, [])).toBe(0);
    expect(fixedOffset('America/New_York', now, [])).toBeNull();
    expect(fixedOffset('Europe/Berlin', now, [])).toBeNull();
  });

  it('writes Tokyo times with a VTIMEZONE and one VEVENT per booking', () => {
    const text = buildStaffCalendar({
      ...base,
      bookings: [
        booking(),
        booking({
          reservation_number: '6f1c1f9e-0000-4000-8000-000000000002',
          status: 'pending',
          start_time: new Date('2030-01-12T05:00:00Z'),
          end_time: new Date('2030-01-12T06:00:00Z'),
          options: [{ name: 'ストーン' }, { name: 'アート, 2本' }],
          is_nominated: true,
          customer_name: '鈴木; 一郎',
          customer_phone: '',
        }),
      ],
    });
    const all = lines(text);
    expect(all.slice(0, 4)).toEqual([
      'BEGIN:VCALENDAR',
      'PRODID:-//Nail Salon Booking//Staff Calendar//JA',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
    ]);
    expect(all).toContain('X-WR-CALNAME:ネイルサロン 桜 予約（佐藤）');
    const timezone = all.slice(all.indexOf('BEGIN:VTIMEZONE'), all.indexOf('END:VTIMEZONE') + 1);
    expect(timezone).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:Asia/Tokyo',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0900',
      'TZOFFSETTO:+0900',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);

    const events = unfold(text).split('BEGIN:VEVENT\r\n').slice(1);
    expect(events).toHaveLength(2);
    const [first, second] = events as [string, string];
    expect(first).toContain('UID:6f1c1f9e-0000-4000-8000-000000000001@salon.example.jp\r\n');
    expect(first).toContain('DTSTAMP:20300110T000000Z\r\n');
    expect(first).toContain('DTSTART;TZID=Asia/Tokyo:20300111T100000\r\n');
    expect(first).toContain('DTEND;TZID=Asia/Tokyo:20300111T113000\r\n');
    expect(first).toContain('SUMMARY:山田 花子 様 ジェルネイル\r\n');
    expect(first).toContain('STATUS:CONFIRMED\r\n');
    expect(first).toContain(
      'DESCRIPTION:メニュー: ジェルネイル\\n指名: なし\\n電話番号: 090-1234-5678\\nステータス: 確定\\n' +
        '予約詳細: https://salon.example.jp/admin/reservations/6f1c1f9e-0000-4000-8000-000000000001\r\n',
    );
    expect(first).toContain('URL:https://salon.example.jp/admin/reservations/6f1c1f9e-0000-4000-8000-000000000001');

    expect(second).toContain('DTSTART;TZID=Asia/Tokyo:20300112T140000\r\n');
    expect(second).toContain('STATUS:TENTATIVE\r\n');
    // Text is escaped: the customer's semicolon and the option's comma cannot end the value.
    expect(second).toContain('SUMMARY:鈴木\\; 一郎 様 ジェルネイル\r\n');
    expect(second).toContain('オプション: ストーン、アート\\, 2本\\n指名: あり\\nステータス: 保留中');
    expect(second).not.toContain('電話番号');
  });

  it('writes UTC times, without a VTIMEZONE, for a zone with daylight saving time', () => {
    const text = buildStaffCalendar({ ...base, timeZone: 'America/New_York', bookings: [booking()] });
    expect(text).not.toContain('BEGIN:VTIMEZONE');
    expect(lines(text)).toContain('DTSTART:20300111T010000Z');
    expect(lines(text)).toContain('DTEND:20300111T023000Z');
  });

  it('is a valid calendar with no bookings', () => {
    const all = lines(buildStaffCalendar({ ...base, bookings: [] }));
    expect(all[0]).toBe('BEGIN:VCALENDAR');
    expect(all.at(-1)).toBe('END:VCALENDAR');
    expect(all.some((line) => line.startsWith('BEGIN:VEVENT'))).toBe(false);
  });
});
