import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { addDaysToDate, instantToLocalDateTime, instantToZonedIso, localDateOf, localDateTimeToInstant } from './time';

describe('salon-local time', () => {
  it('reads a naive local date-time in the salon zone', () => {
    expect(localDateTimeToInstant('2025-01-31T09:00:00', 'Asia/Tokyo').toISOString()).toBe('2025-01-31T00:00:00.000Z');
  });

  it('reads every wall clock as date-fns-tz does, near daylight-saving transitions and odd dates too', () => {
    const zones = ['Asia/Tokyo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    const walls = ['2026-03-08T02:30:00', '2026-03-08T01:59:59', '2026-11-01T01:30:00', '2026-03-29T01:30:00'];
    walls.push('2026-10-25T01:30:00', '2026-04-05T01:45:00', '2026-07-15T00:00:00', '2026-12-31T23:59:59');
    walls.push('2026-02-30T09:00:00', '2026-01-31T24:00:00', '2026-06-01T09:00', '2026-06-01 09:00:00');
    for (let day = 1; day <= 28; day += 3) walls.push(`2026-03-${String(day).padStart(2, '0')}T09:30:00`);
    for (const zone of zones) {
      for (const wall of walls) {
        expect(localDateTimeToInstant(wall, zone).getTime(), `${wall} ${zone}`).toBe(
          fromZonedTime(wall, zone).getTime(),
        );
      }
    }
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

  // A longer timeout than the default 5 s: ~40,000 date-fns-tz formats take 1–2 s, several times that on a busy CI.
  it(
    'writes the same wall clock as date-fns-tz, across daylight-saving transitions and odd offsets',
    { timeout: 30_000 },
    () => {
      const zones = ['Asia/Tokyo', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
      const expected = (instant: Date, zone: string) => formatInTimeZone(instant, zone, "yyyy-MM-dd'T'HH:mm:ss");
      const same = (ms: number, zone: string) =>
        expect(instantToLocalDateTime(new Date(ms), zone)).toBe(expected(new Date(ms), zone));
      const hour = 3_600_000;
      const start = Date.UTC(2026, 0, 1);
      let transitions = 0;
      for (const zone of zones) {
        let offset = NaN;
        // Every third hour through 2026 (plus a few seconds, so that not only whole hours are checked); where the
        // offset changed since the last sample, every minute from the sample before it to an hour after this one,
        // each at its first and last second (changes happen on whole or half hours, so the window holds the change).
        const step = 3 * hour;
        for (let ms = start; ms < start + 366 * 24 * hour; ms += step) {
          same(ms + 7_000, zone);
          const wallAsUtc = Date.parse(`${expected(new Date(ms), zone)}Z`);
          if (!Number.isNaN(offset) && wallAsUtc - ms !== offset) {
            transitions += 1;
            for (let minute = ms - step - hour; minute <= ms + hour; minute += 60_000) {
              same(minute, zone);
              same(minute + 59_000, zone);
            }
          }
          offset = wallAsUtc - ms;
        }
      }
      // New York, London and Lord Howe change twice a year.
      expect(transitions).toBe(6);
    },
  );

  it('writes an instant with its offset as date-fns-tz does, west and east of UTC, across transitions', () => {
    const zones = ['Asia/Tokyo', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
    const quarterHour = 15 * 60_000;
    const start = Date.UTC(2026, 0, 1);
    const seen = new Set<string>();
    for (const zone of zones) {
      // Every 7 h 15 min through 2026, then every quarter hour of each transition's day (the offset changes on
      // whole or half hours, so each side of the change is sampled).
      for (let ms = start; ms < start + 366 * 24 * 3_600_000; ms += 29 * quarterHour) {
        const iso = instantToZonedIso(new Date(ms + 7_000), zone);
        expect(iso).toBe(formatInTimeZone(new Date(ms + 7_000), zone, "yyyy-MM-dd'T'HH:mm:ssxxx"));
        seen.add(iso.slice(19));
      }
    }
    for (const [zone, day] of [
      ['America/New_York', Date.UTC(2026, 2, 8)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 12)],
    ] as const)
      for (let ms = day; ms < day + 24 * 3_600_000; ms += quarterHour)
        expect(instantToZonedIso(new Date(ms), zone)).toBe(
          formatInTimeZone(new Date(ms), zone, "yyyy-MM-dd'T'HH:mm:ssxxx"),
        );
    // Every offset of those zones in the year, each written as ±hh:mm (never `Z`).
    expect([...seen].sort()).toEqual(['+00:00', '+05:45', '+09:00', '+10:30', '+11:00', '-04:00', '-05:00']);
  });

  it('refuses an invalid instant, as formatting does', () => {
    expect(() => instantToLocalDateTime(new Date(Number.NaN), 'Asia/Tokyo')).toThrow(RangeError);
  });
});
