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
