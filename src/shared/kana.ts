/**
 * What people type in Japanese, as the app compares and stores it: kana folded for search, フリガナ in katakana and
 * phone numbers in digits. The zod schemas (src/shared/schemas/reservations.ts) and the forms use these alone.
 */
/** Hiragana typed into a search also finds katakana furigana (やまだ finds ヤマダ): the server and the offline reader agree. */
export function toKatakana(text: string): string {
  return text.replace(/[\u3041-\u3096]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0x60));
}

/**
 * What a customer search compares, on both sides: ASCII letters in lower case and hiragana as katakana, so that
 * さとう, サトウ and a furigana written either way find each other. The server folds the stored names with the
 * same rule in SQL (customer_search_fold, server/db/migrations/0017_search_indexes.sql); only ASCII is lowered
 * there, whatever the database's locale, so only ASCII is lowered here.
 */
export function searchFold(text: string): string {
  return toKatakana(text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()));
}

/** Half-width katakana (ﾔﾏﾀﾞ) as full-width, its sound marks joined to the letter (ダ). */
function widenHalfWidthKatakana(text: string): string {
  return text.replace(/[\uFF61-\uFF9F]+/g, (run) => run.normalize('NFKC'));
}

/**
 * フリガナ as stored (docs/screens.md#booking-details-step): trimmed, hiragana and half-width katakana typed in
 * become katakana (やまだ, ﾔﾏﾀﾞ → ヤマダ). What is left still has to pass the katakana check.
 */
export function normaliseFurigana(text: string): string {
  return toKatakana(widenHalfWidthKatakana(text.trim()));
}

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
