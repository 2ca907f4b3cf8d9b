import { describe, expect, it } from 'vitest';
import {
  SPEC_LINE_LOGIN_STATES,
  SPEC_MESSAGE_BEGINNINGS,
  SPEC_MESSAGES,
  SPEC_STATUS_LABELS,
} from '../../tests/fixtures/spec-texts';
import { LINE_LOGIN_STATES, RESERVATION_STATUSES, RESERVATION_STATUS_LABELS } from './constants';
import { MESSAGES } from './messages';

/**
 * The wording the specification quotes, against the code (docs/screens.md#texts-catalogue). The expected
 * texts come from tests/fixtures/spec-texts.ts, copied from the specification, never from messages.ts: editing a
 * message makes this fail.
 */

type MessageKey = keyof typeof MESSAGES;

/**
 * What a message shows. A message with a placeholder is a function of the value to insert; it is called with the
 * specification's own placeholder ("{detail}"), so that its template can be compared with the quoted one.
 */
function shown(key: MessageKey, specText: string): string {
  const message: unknown = MESSAGES[key];
  if (typeof message === 'string') return message;
  const placeholder = /\{[^}]+\}/.exec(specText)?.[0];
  if (typeof message !== 'function' || !placeholder) {
    throw new Error(`${key}: the specification quotes it without a placeholder, the code takes one`);
  }
  return (message as (value: string) => string)(placeholder);
}

describe('texts quoted by the specification', () => {
  const quoted = Object.entries(SPEC_MESSAGES) as Array<[MessageKey, string]>;

  it.each(quoted)('%s says what the specification quotes', (key, specText) => {
    expect(MESSAGES).toHaveProperty(key);
    expect(shown(key, specText)).toBe(specText);
  });

  it('fills a placeholder in exactly one place and keeps the text around it', () => {
    expect(MESSAGES.reservationCreateFailed('満席です')).toBe('予約作成に失敗しました: 満席です');
    expect(MESSAGES.adminCustomerLinkUrlError('x')).toBe('エラー: x');
    // The specification's "{server error or サーバーエラー}": the fallback is the text inside it.
    expect(MESSAGES.adminMessageSendFailed(MESSAGES.adminMessageSendFailedFallback)).toBe(
      SPEC_MESSAGES.adminMessageSendFailed.replace(
        '{server error or サーバーエラー}',
        SPEC_MESSAGES.adminMessageSendFailedFallback,
      ),
    );
  });

  it.each(Object.entries(SPEC_MESSAGE_BEGINNINGS) as Array<[MessageKey, string]>)(
    '%s begins as the specification quotes it (the rest is cut off there)',
    (key, beginning) => {
      expect(shown(key, beginning).startsWith(beginning)).toBe(true);
    },
  );

  it('keeps each quoted text in one constant only', () => {
    // A second constant with a quoted text would escape this test (and could drift): screens share the one above.
    const checked = new Set<string>([...Object.keys(SPEC_MESSAGES), ...Object.keys(SPEC_MESSAGE_BEGINNINGS)]);
    const quotedTexts = new Set<string>(Object.values(SPEC_MESSAGES));
    const unchecked = Object.entries(MESSAGES)
      .filter(([key, value]) => typeof value === 'string' && quotedTexts.has(value) && !checked.has(key))
      .map(([key]) => key);
    expect(unchecked).toEqual([]);
  });
});

describe('labels quoted by the specification', () => {
  it('names each reservation status as the status table does', () => {
    expect(RESERVATION_STATUSES).toEqual(Object.keys(SPEC_STATUS_LABELS));
    expect(RESERVATION_STATUS_LABELS).toEqual(SPEC_STATUS_LABELS);
  });

  it('uses the LINE login states the specification names', () => {
    expect(Object.values(LINE_LOGIN_STATES)).toEqual(SPEC_LINE_LOGIN_STATES);
  });
});
