import { describe, expect, it } from 'vitest';
import { addDaysToDate, instantToLocalDateTime, localDateOf, localDateTimeToInstant } from './time';

describe('salon-local time', () => {
  it('reads a naive local date-time in the salon zone', () => {
    expect(localDateTimeToInstant('2025-01-31T09:00:00', 'Asia/Tokyo').toISOString()).toBe('2025-01-31T00:00:00.000Z');
  });

  it('writes an instant back as the same naive local date-time', () => {
    const instant = new Date('2025-01-30T15:30:00Z');
    expect(instantToLocalDateTime(instant, 'Asia/Tokyo')).toBe('2025-01-31T00:30:00');
    expect(localDateOf(instant, 'Asia/Tokyo')).toBe('2025-01-31');
  });

  it('adds days across month and year ends', () => {
    expect(addDaysToDate('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDaysToDate('2024-03-01', -1)).toBe('2024-02-29');
  });
});
