import { normaliseFurigana, normalisePhone } from '../../shared/kana';
import { MESSAGES } from '../../shared/messages';

/**
 * docs/screens.md#booking-details-step checks of the details step. The server checks the same with zod (src/shared/schemas/
 * reservations.ts); these copies keep zod out of the customer bundle, and validation.test.tsx holds both to
 * the same answers.
 */
const KATAKANA = /^[\u30A1-\u30FA\u30FC\u30FB\u3000 ]*$/;
/** zod 4's `z.email()` pattern. */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const DIGITS = /^\d*$/;

export interface CustomerDetails {
  name: string;
  furigana: string;
  email: string;
  phone: string;
}

export type DetailsErrors = Partial<Record<keyof CustomerDetails, string>>;

export function validateDetails(details: CustomerDetails): DetailsErrors {
  const errors: DetailsErrors = {};
  const name = details.name.trim();
  // docs/screens.md#booking-details-step: a missing name is one of the "required items missing".
  if (!name) errors.name = MESSAGES.requiredMissing;
  else if (name.length > 100) errors.name = MESSAGES.tooLong;
  const furigana = normaliseFurigana(details.furigana);
  if (!KATAKANA.test(furigana)) errors.furigana = MESSAGES.furiganaKatakana;
  else if (furigana.length > 100) errors.furigana = MESSAGES.tooLong;
  const email = details.email.trim();
  if (!email || email.length > 254 || !EMAIL.test(email)) errors.email = MESSAGES.emailInvalid;
  const phone = normalisePhone(details.phone);
  if (!DIGITS.test(phone)) errors.phone = MESSAGES.phoneDigits;
  else if (phone.length > 20) errors.phone = MESSAGES.tooLong;
  return errors;
}

/** The details as sent: trimmed, the furigana in katakana and the phone number in digits, as the server stores them. */
export function trimDetails(details: CustomerDetails): CustomerDetails {
  return {
    name: details.name.trim(),
    furigana: normaliseFurigana(details.furigana),
    email: details.email.trim(),
    phone: normalisePhone(details.phone),
  };
}
