/**
 * The query's side of the customer search index (migration 0017_search_indexes.sql, search_trigram_key): each
 * character's code point in base 36, three digits below 36³ and four above, so that trigrams, which see only ASCII
 * letters and digits in the C locale, can index kanji and kana; spaces and line breaks are left out. Must spell
 * exactly what the SQL function spells (tests/integration/customer-search.test.ts compares them).
 */
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

export function searchTrigramKey(text: string): string {
  let key = '';
  for (const char of text.replace(/[ \t\n\r\u3000]/g, '')) {
    const point = char.codePointAt(0)!;
    if (point >= 46656) key += DIGITS[Math.floor(point / 46656) % 36]!;
    key += DIGITS[Math.floor(point / 1296) % 36]! + DIGITS[Math.floor(point / 36) % 36]! + DIGITS[point % 36]!;
  }
  return key;
}
