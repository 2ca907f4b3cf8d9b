// .test.tsx so that it runs in the components project beside the screens it serves.
import { describe, expect, it } from 'vitest';
import { emailSchema, furiganaSchema, phoneSchema } from '../../shared/schemas/reservations';
import { MESSAGES } from '../../shared/messages';
import { validateDetails } from './validation';

const valid = { name: '山田 花子', furigana: '', email: 'hanako@example.com', phone: '' };

describe('details validation agrees with the server schemas', () => {
  it.each(['', 'ヤマダ ハナコ', 'ヤマダ　ハナコ', 'ターナー', 'ヴァン・ダイク', ' ヤマダ ', 'やまだ', 'ﾔﾏﾀﾞ'])(
    'accepts furigana %j',
    (furigana) => {
      expect(validateDetails({ ...valid, furigana }).furigana).toBeUndefined();
      expect(furiganaSchema.safeParse(furigana).success).toBe(true);
    },
  );

  it.each(['Yamada', '山田', 'ヤマダ1', 'やまだ１'])('refuses furigana %j', (furigana) => {
    expect(validateDetails({ ...valid, furigana }).furigana).toBe(MESSAGES.furiganaKatakana);
    expect(furiganaSchema.safeParse(furigana).success).toBe(false);
  });

  it.each(['a@example.com', 'first.last+tag@mail.example.co.jp', ' a@b.jp '])('accepts e-mail %j', (email) => {
    expect(validateDetails({ ...valid, email }).email).toBeUndefined();
    expect(emailSchema.safeParse(email).success).toBe(true);
  });

  it.each(['', 'a', 'a@', 'a@b', 'a b@example.com', '.a@example.com', 'a..b@example.com', 'あ@example.com'])(
    'refuses e-mail %j',
    (email) => {
      expect(validateDetails({ ...valid, email }).email).toBe(MESSAGES.emailInvalid);
      expect(emailSchema.safeParse(email).success).toBe(false);
    },
  );

  it.each(['', '09012345678', ' 0312345678 ', '090-1234-5678', '０９０', '090 1234'])('accepts phone %j', (phone) => {
    expect(validateDetails({ ...valid, phone }).phone).toBeUndefined();
    expect(phoneSchema.safeParse(phone).success).toBe(true);
  });

  it.each(['+819012345678', '090-abcd', '(03)1234'])('refuses phone %j', (phone) => {
    expect(validateDetails({ ...valid, phone }).phone).toBe(MESSAGES.phoneDigits);
    expect(phoneSchema.safeParse(phone).success).toBe(false);
  });

  it('needs a name', () => {
    expect(validateDetails({ ...valid, name: '  ' }).name).toBe(MESSAGES.requiredMissing);
  });
});
