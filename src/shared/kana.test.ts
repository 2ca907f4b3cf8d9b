import { describe, expect, it } from 'vitest';
import { searchFold, toKatakana } from './kana';

describe('searchFold (the customer search, online and offline)', () => {
  it('turns hiragana into katakana and lowers ASCII letters only', () => {
    expect(toKatakana('やまだ はなこ')).toBe('ヤマダ ハナコ');
    expect(searchFold('さとう サトウ 佐藤')).toBe('サトウ サトウ 佐藤');
    expect(searchFold('Emma BROWN')).toBe('emma brown');
    // The database lowers only ASCII (customer_search_fold, C collation): full-width and accented letters stay.
    expect(searchFold('ＡＢＣ Éclair')).toBe('ＡＢＣ Éclair');
    expect(searchFold('ゔゕゖ')).toBe('ヴヵヶ');
  });
});
