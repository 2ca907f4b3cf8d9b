import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookableStarts, coveredGridTimes, minutesToTime, slotGrid, timeToMinutes } from './slots';

const open10to13 = slotGrid('10:00', '13:00'); // 10:00 … 12:30

describe('bookableStarts', () => {
  it('needs every slot of the duration open', () => {
    expect(bookableStarts({ openSlots: open10to13, busy: [], durationMinutes: 90 })).toEqual([
      '10:00',
      '10:30',
      '11:00',
      '11:30',
    ]);
    expect(bookableStarts({ openSlots: ['10:00', '11:00'], busy: [], durationMinutes: 60 })).toEqual([]);
  });

  it('does not offer a service longer than the open block', () => {
    expect(bookableStarts({ openSlots: open10to13, busy: [], durationMinutes: 210 })).toEqual([]);
  });

  it('removes starts whose span overlaps a booking, keeps back-to-back ones', () => {
    const busy = [{ start: timeToMinutes('11:00'), end: timeToMinutes('12:00') }];
    expect(bookableStarts({ openSlots: open10to13, busy, durationMinutes: 60 })).toEqual(['10:00', '12:00']);
  });

  it('honours the earliest start (minimum notice)', () => {
    expect(
      bookableStarts({ openSlots: open10to13, busy: [], durationMinutes: 30, earliestStart: timeToMinutes('11:15') }),
    ).toEqual(['11:30', '12:00', '12:30']);
  });

  it('never offers a start that overlaps a busy interval or leaves the open slots (property)', () => {
    const slotIndex = fc.integer({ min: 0, max: 47 });
    fc.assert(
      fc.property(
        fc.uniqueArray(slotIndex, { maxLength: 48 }),
        fc.array(fc.tuple(slotIndex, fc.integer({ min: 1, max: 8 })), { maxLength: 5 }),
        fc.integer({ min: 1, max: 8 }),
        (openIdx, busyRaw, units) => {
          const openSlots = openIdx.map((i) => minutesToTime(i * 30));
          const busy = busyRaw.map(([i, n]) => ({ start: i * 30, end: (i + n) * 30 }));
          const duration = units * 30;
          for (const start of bookableStarts({ openSlots, busy, durationMinutes: duration })) {
            const s = timeToMinutes(start);
            for (let t = s; t < s + duration; t += 30) expect(openSlots).toContain(minutesToTime(t));
            for (const b of busy) expect(b.start < s + duration && s < b.end).toBe(false);
          }
        },
      ),
    );
  });
});

describe('coveredGridTimes', () => {
  it('lists the grid times a booking covers', () => {
    const busy = [{ start: timeToMinutes('10:00'), end: timeToMinutes('11:30') }];
    expect(coveredGridTimes(slotGrid('09:00', '12:00'), busy)).toEqual(['10:00', '10:30', '11:00']);
  });
});
