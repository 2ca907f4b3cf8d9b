import { describe, expect, it } from 'vitest';
import {
  formatCalendarDay,
  formatDateJa,
  formatDateSlash,
  formatDateTimeJa,
  formatDateTimeRangeJa,
  formatDuration,
  formatTime,
  formatYen,
} from './format';

describe('formatYen', () => {
  it('adds the yen sign and thousands separators', () => {
    expect(formatYen(6600)).toBe('¥6,600');
    expect(formatYen(0)).toBe('¥0');
    expect(formatYen(999)).toBe('¥999');
    expect(formatYen(1234567)).toBe('¥1,234,567');
  });

  it('rounds fractions and keeps the sign in front', () => {
    expect(formatYen(1000.4)).toBe('¥1,000');
    expect(formatYen(-1500)).toBe('-¥1,500');
  });
});

describe('formatDuration', () => {
  it.each([
    [30, '30分'],
    [45, '45分'],
    [60, '1時間'],
    [90, '1時間半'],
    [120, '2時間'],
    [150, '2時間半'],
    [240, '4時間'],
    [75, '1時間15分'],
    [0, '0分'],
  ])('%i minutes -> %s', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });
});

describe('dates', () => {
  it('writes a naive local date-time one way: no leading zeros in the date, the weekday, a padded time', () => {
    expect(formatDateTimeJa('2025-01-31T09:00:00')).toBe('2025年1月31日(金) 09:00');
    expect(formatDateTimeJa('2025-12-05T18:30')).toBe('2025年12月5日(金) 18:30');
    expect(formatDateTimeJa('2026-12-02T14:00:00')).toBe('2026年12月2日(水) 14:00');
  });

  it('writes a booking with its end time', () => {
    expect(formatDateTimeRangeJa('2026-12-02T14:00:00', '2026-12-02T16:00:00')).toBe('2026年12月2日(水) 14:00〜16:00');
    expect(formatDateTimeRangeJa('2026-12-05T23:30', '2026-12-06T00:30')).toBe(
      '2026年12月5日(土) 23:30〜2026年12月6日(日) 00:30',
    );
  });

  it('formats dates and times on their own', () => {
    expect(formatDateJa('2025-01-31')).toBe('2025年1月31日(金)');
    expect(formatDateJa('2028-02-29T10:00:00')).toBe('2028年2月29日(火)');
    expect(formatDateSlash('2025-01-31T09:00:00')).toBe('2025/01/31');
    expect(formatTime('2025-01-31T09:00:00')).toBe('09:00');
    expect(formatTime('21:30:00')).toBe('21:30');
  });

  it('names a calendar day without leading zeros', () => {
    expect(formatCalendarDay('2030-01-05')).toBe('2030年1月5日');
    expect(formatCalendarDay('2030-12-25T10:00:00')).toBe('2030年12月25日');
  });

  it('rejects what is not a date', () => {
    expect(() => formatDateTimeJa('tomorrow')).toThrow(RangeError);
  });
});
