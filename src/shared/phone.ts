/**
 * A phone number as stored: digits only. What people type is accepted as the same number: full-width digits
 * (０９０), and hyphens, dashes, the katakana long-vowel mark an IME gives for "-" and spaces between the groups
 * (090-1234-5678, ０９０ー１２３４ー５６７８, 090 1234 5678). Anything else is left for the digits check to refuse.
 */
const SEPARATORS = /[-\u2010-\u2015\u2212\u30FC\uFF0D\uFF70\s\u3000]/g;

export function normalisePhone(text: string): string {
  return text
    .trim()
    .replace(/[\uFF10-\uFF19]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(SEPARATORS, '');
}
