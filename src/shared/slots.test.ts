import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bookableStarts,
  bookingLength,
  coveredGridTimes,
  minutesToTime,
  openCellsOfDay,
  slotGrid,
  timeToMinutes,
} from './slots';

const open10to13 = slotGrid('10:00', '13:00'); // 10:00 … 12:30

describe('bookableStarts', () => {
  it('needs every slot of the duration open', () => {
    expect(
      bookableStarts({ openSlots: open10to13, busy: [], length: { servedMinutes: 90, occupiedMinutes: 90 } }),
    ).toEqual(['10:00', '10:30', '11:00', '11:30']);
    expect(
      bookableStarts({ openSlots: ['10:00', '11:00'], busy: [], length: { servedMinutes: 60, occupiedMinutes: 60 } }),
    ).toEqual([]);
  });

  it('does not offer a service longer than the open block', () => {
    expect(
      bookableStarts({ openSlots: open10to13, busy: [], length: { servedMinutes: 210, occupiedMinutes: 210 } }),
    ).toEqual([]);
  });

  it('removes starts whose span overlaps a booking, keeps back-to-back ones', () => {
    const busy = [{ start: timeToMinutes('11:00'), end: timeToMinutes('12:00') }];
    expect(bookableStarts({ openSlots: open10to13, busy, length: { servedMinutes: 60, occupiedMinutes: 60 } })).toEqual(
      ['10:00', '12:00'],
    );
  });

  it('honours the earliest start (minimum notice)', () => {
    expect(
      bookableStarts({
        openSlots: open10to13,
        busy: [],
        length: { servedMinutes: 30, occupiedMinutes: 30 },
        earliestStart: timeToMinutes('11:15'),
      }),
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
          for (const start of bookableStarts({
            openSlots,
            busy,
            length: { servedMinutes: duration, occupiedMinutes: duration },
          })) {
            const s = timeToMinutes(start);
            for (let t = s; t < s + duration; t += 30) expect(openSlots).toContain(minutesToTime(t));
            for (const b of busy) expect(b.start < s + duration && s < b.end).toBe(false);
          }
        },
      ),
    );
  });
});

describe('bookingLength', () => {
  it('adds the options to the service, rounds the held time as the salon chooses and adds the buffer', () => {
    expect(bookingLength({ serviceMinutes: 60, optionMinutes: [30], roundingMinutes: 5, bufferMinutes: 0 })).toEqual({
      servedMinutes: 90,
      occupiedMinutes: 90,
    });
    expect(
      bookingLength({ serviceMinutes: 60, optionMinutes: [10, 20], roundingMinutes: 30, bufferMinutes: 15 }),
    ).toEqual({ servedMinutes: 90, occupiedMinutes: 105 });
    expect(bookingLength({ serviceMinutes: 60, optionMinutes: [10], roundingMinutes: 30, bufferMinutes: 0 })).toEqual({
      servedMinutes: 70,
      occupiedMinutes: 90,
    });
  });
});

describe('bookableStarts with options, buffer and grid', () => {
  const open9to13 = slotGrid('09:00', '13:00');
  // A 60-minute service with a 30-minute option, booked at 09:00.
  const booked = (length: { servedMinutes: number; occupiedMinutes: number }) => [
    { start: timeToMinutes('09:00'), end: timeToMinutes('09:00') + length.occupiedMinutes },
  ];

  it('a 60 + 30 minute booking frees the grid start right after it; a 15-minute buffer moves that start', () => {
    const plain = bookingLength({ serviceMinutes: 60, optionMinutes: [30], roundingMinutes: 5, bufferMinutes: 0 });
    expect(bookableStarts({ openSlots: open9to13, busy: booked(plain), length: plain })).toEqual([
      '10:30',
      '11:00',
      '11:30',
    ]);
    const buffered = bookingLength({ serviceMinutes: 60, optionMinutes: [30], roundingMinutes: 5, bufferMinutes: 15 });
    // 09:00 now holds until 10:45, so 10:30 is gone; only the served time must lie in working time.
    expect(bookableStarts({ openSlots: open9to13, busy: booked(buffered), length: buffered })).toEqual([
      '11:00',
      '11:30',
    ]);
  });

  it("a new booking's buffer may not run into the next booking", () => {
    const buffered = bookingLength({ serviceMinutes: 60, roundingMinutes: 5, bufferMinutes: 15 });
    const busy = [{ start: timeToMinutes('11:00'), end: timeToMinutes('12:00') }];
    // 10:00 would hold until 11:15 and run into the 11:00 booking; 09:30 holds until exactly 10:45.
    expect(bookableStarts({ openSlots: open9to13, busy, length: buffered })).toEqual(['09:00', '09:30', '12:00']);
  });

  it('offers starts on a 15-minute grid inside 30-minute cells', () => {
    const length = bookingLength({ serviceMinutes: 60, roundingMinutes: 5, bufferMinutes: 0 });
    expect(bookableStarts({ openSlots: slotGrid('10:00', '11:30'), busy: [], length, gridMinutes: 15 })).toEqual([
      '10:00',
      '10:15',
      '10:30',
    ]);
    expect(bookableStarts({ openSlots: slotGrid('10:00', '12:00'), busy: [], length, gridMinutes: 60 })).toEqual([
      '10:00',
      '11:00',
    ]);
  });
});

describe('openCellsOfDay', () => {
  const template = { start: '10:00', end: '12:00' };
  it('uses the template on an ordinary day', () => {
    expect(openCellsOfDay({ template, salonClosed: false })).toEqual(['10:00', '10:30', '11:00', '11:30']);
  });
  it('closes a salon closed day or holiday, and a weekday without template', () => {
    expect(openCellsOfDay({ template, salonClosed: true })).toEqual([]);
    expect(openCellsOfDay({ salonClosed: false })).toEqual([]);
  });
  it('lets a day set by hand win over all of them, an empty one being a day off', () => {
    expect(openCellsOfDay({ exceptionCells: ['14:00'], template, salonClosed: true })).toEqual(['14:00']);
    expect(openCellsOfDay({ exceptionCells: [], template, salonClosed: false })).toEqual([]);
  });
});

describe('coveredGridTimes', () => {
  it('lists the grid times a booking covers', () => {
    const busy = [{ start: timeToMinutes('10:00'), end: timeToMinutes('11:30') }];
    expect(coveredGridTimes(slotGrid('09:00', '12:00'), busy)).toEqual(['10:00', '10:30', '11:00']);
  });
});
