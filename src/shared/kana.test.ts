import { describe, expect, it } from 'vitest';
import { normaliseFurigana, searchFold, toKatakana } from './kana';
import { furiganaSchema } from './schemas/reservations';

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

describe('normaliseFurigana (every form that takes a フリガナ)', () => {
  it.each([
    ['やまだ はなこ', 'ヤマダ ハナコ'],
    ['  やまだ　はなこ ', 'ヤマダ　ハナコ'],
    ['ヤマだ', 'ヤマダ'],
    ['ﾔﾏﾀﾞ ﾊﾅｺ', 'ヤマダ ハナコ'],
    ['ゔぃーなす', 'ヴィーナス'],
    ['ヤマダ', 'ヤマダ'],
    ['', ''],
  ])('%j is stored as %j', (typed, stored) => {
    expect(normaliseFurigana(typed)).toBe(stored);
    expect(furiganaSchema.parse(typed)).toBe(stored);
  });

  it('leaves what is not kana for the katakana check to refuse', () => {
    expect(normaliseFurigana('Yamada')).toBe('Yamada');
    expect(furiganaSchema.safeParse('山田').success).toBe(false);
    expect(furiganaSchema.safeParse('やまだ1').success).toBe(false);
  });
});
