import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, localDateTime, paramValue, utcDateTime, utcOffset, writeIcal } from './ical';

const octets = (text: string) => Buffer.byteLength(text, 'utf8');

/** Undoes folding as a reader does: a CRLF followed by one space disappears. */
const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('iCalendar TEXT escaping', () => {
  it('escapes backslash, semicolon and comma, and writes every kind of line break as \\n', () => {
    expect(escapeText('a\\b;c,d')).toBe('a\\\\b\\;c\\,d');
    expect(escapeText('一行目\n二行目\r\n三行目\r四行目')).toBe('一行目\\n二行目\\n三行目\\n四行目');
    // A colon needs no escape in TEXT; a double quote neither.
    expect(escapeText('時刻: 10:00 "予約"')).toBe('時刻: 10:00 "予約"');
  });

  it('drops control characters TEXT may not hold, keeping tabs', () => {
    expect(escapeText('a\u0000b\u0007c\td\u007f')).toBe('abc\td');
  });

  it('quotes parameter values that hold a separator', () => {
    expect(paramValue('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(paramValue('a:b')).toBe('"a:b"');
    expect(paramValue('a"b;c')).toBe('"ab;c"');
  });
});

describe('line folding', () => {
  it('leaves a line of 75 octets alone and folds the 76th octet onto a continuation line', () => {
    const exact = `SUMMARY:${'a'.repeat(67)}`;
    expect(octets(exact)).toBe(75);
    expect(foldLine(exact)).toBe(exact);
    const longer = `${exact}b`;
    expect(foldLine(longer)).toBe(`${exact}\r\n b`);
  });

  it('keeps every physical line within 75 octets, continuation space included', () => {
    const line = `DESCRIPTION:${'x'.repeat(400)}`;
    const physical = foldLine(line).split('\r\n');
    expect(physical.length).toBeGreaterThan(5);
    for (const part of physical) expect(octets(part)).toBeLessThanOrEqual(75);
    for (const part of physical.slice(1)) expect(part.startsWith(' ')).toBe(true);
    expect(unfold(foldLine(line))).toBe(line);
  });

  it('never splits a multi-byte character, whatever the offset it starts at', () => {
    // Three-octet kana and four-octet emoji, shifted by 0–3 ASCII octets so breaks fall at every position.
    for (let shift = 0; shift < 4; shift++) {
      const line = `SUMMARY:${'a'.repeat(shift)}${'ネイル💅'.repeat(40)}`;
      const folded = foldLine(line);
      const physical = folded.split('\r\n');
      for (const part of physical) {
        expect(octets(part)).toBeLessThanOrEqual(75);
        // A split character would decode to U+FFFD once the octets are read back on their own.
        expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
        expect(part).not.toMatch(/[\uD800-\uDBFF]$/);
        expect(part).not.toMatch(/^ ?[\uDC00-\uDFFF]/);
      }
      // Lines are filled: a break happens only when the next character would not fit.
      for (const part of physical.slice(0, -1)) expect(octets(part)).toBeGreaterThan(75 - 4);
      expect(unfold(folded)).toBe(line);
    }
  });
});

describe('values and the stream', () => {
  it('writes UTC and local date-times and offsets', () => {
    expect(utcDateTime(new Date('2030-01-10T00:00:00.000Z'))).toBe('20300110T000000Z');
    expect(localDateTime('2030-01-10T10:30:00')).toBe('20300110T103000');
    expect(utcOffset(9 * 3_600_000)).toBe('+0900');
    expect(utcOffset(-(3 * 60 + 30) * 60_000)).toBe('-0330');
    expect(utcOffset(0)).toBe('+0000');
  });

  it('ends every line with CRLF, nests components and folds long lines', () => {
    const text = writeIcal({
      name: 'VCALENDAR',
      properties: [
        ['VERSION', '2.0'],
        ['X-LONG', 'あ'.repeat(60)],
      ],
      components: [{ name: 'VEVENT', properties: [['UID', 'x@example.com']] }],
    });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(unfold(text).split('\r\n')).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      `X-LONG:${'あ'.repeat(60)}`,
      'BEGIN:VEVENT',
      'UID:x@example.com',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ]);
  });
});
