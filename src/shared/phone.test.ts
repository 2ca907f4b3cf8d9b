import { describe, expect, it } from 'vitest';
import { normalisePhone } from './kana';
import { phoneSchema } from './schemas/reservations';

describe('normalisePhone (every form that takes a phone number)', () => {
  it.each([
    ['09012345678', '09012345678'],
    ['090-1234-5678', '09012345678'],
    ['03-1234-5678', '0312345678'],
    ['０９０－１２３４－５６７８', '09012345678'],
    ['０９０ー１２３４ー５６７８', '09012345678'],
    ['090‐1234−5678', '09012345678'],
    [' 090 1234 5678 ', '09012345678'],
    ['０３　１２３４　５６７８', '0312345678'],
    ['', ''],
  ])('%j is stored as %j', (typed, stored) => {
    expect(normalisePhone(typed)).toBe(stored);
    expect(phoneSchema.parse(typed)).toBe(stored);
  });

  it.each(['+819012345678', '090-abcd-5678', '(03)1234-5678', '090.1234.5678'])('still refuses %j', (typed) => {
    expect(phoneSchema.safeParse(typed).success).toBe(false);
  });

  it('counts the length after the separators are gone', () => {
    expect(phoneSchema.safeParse('0'.repeat(20).replace(/(\d{4})/g, '$1-')).success).toBe(true);
    expect(phoneSchema.safeParse('0'.repeat(21)).success).toBe(false);
  });
});
