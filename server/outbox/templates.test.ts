import { describe, expect, it } from 'vitest';
import { FLEX_ALT_TEXT_MAX, flexTexts, lineMessageProblem } from '#server/integrations/line/flex';
import { localDateTimeToInstant } from '#src/shared/time';
import { fitAltText, linkCard } from './line-cards';
import { renderStaffPush } from './push-templates';
import { renderRebookingPromptLine } from './rebooking';
import {
  BOOK_BUTTON_LABEL,
  renderCustomerEmail,
  renderCustomerLine,
  renderNoReservationLine,
  renderStaffLine,
  RESERVATION_BUTTON_LABEL,
  STAFF_APPROVAL_LINE,
  type CustomerTemplate,
  type ReservationSnapshot,
  type StaffTemplate,
} from './templates';

const TZ = 'Asia/Tokyo';
const context = { salonName: 'サロン花', publicUrl: 'https://salon.example.com/', timeZone: TZ };

const reservation: ReservationSnapshot = {
  reservation_number: '6f1c1f9e-0000-4000-8000-000000000001',
  reservation_code: 'ABCD2345',
  service_name: 'ジェルネイル',
  price: 7500,
  start_time: localDateTimeToInstant('2030-01-15T14:00:00', TZ),
  end_time: localDateTimeToInstant('2030-01-15T16:00:00', TZ),
  customer_name: '山田 花子',
  staff_name: '佐藤 美咲',
  is_nominated: true,
  options: [{ name: 'ストーン' }, { name: 'ケア' }],
};
const moved = { ...reservation, previous_start_time: localDateTimeToInstant('2030-01-14T11:30:00', TZ) };

/** The card's altText: the notice as it reads in chat lists (and as it read when it was a text message). */
const lineText = (messages: ReturnType<typeof renderCustomerLine>) =>
  messages.map((message) => (message.type === 'flex' ? message.altText : '')).join('\n');

describe('reservation message texts', () => {
  it('a move tells the customer by e-mail: 予約日時の変更 in the subject, the new time and the old one', () => {
    const email = renderCustomerEmail('rescheduled', moved, context);
    expect(email.subject).toBe('【サロン花】ご予約日時の変更のお知らせ');
    expect(email.text).toContain('ご予約日時を変更しました');
    expect(email.text).toContain('変更後の日時: 2030年1月15日(火) 14:00〜16:00\n');
    expect(email.text).toContain('変更前の日時: 2030年1月14日(月) 11:30〜13:30\n');
    expect(email.text.indexOf('変更後の日時')).toBeLessThan(email.text.indexOf('変更前の日時'));
  });

  it('a move tells the customer by LINE and the staff member by LINE, with both times', () => {
    const customer = lineText(renderCustomerLine('rescheduled', moved, context));
    expect(customer).toContain('ご予約日時を変更しました。');
    expect(customer).toContain('変更後の日時: 2030年1月15日(火) 14:00〜16:00\n');
    expect(customer).toContain('変更前の日時: 2030年1月14日(月) 11:30〜13:30\n');
    const staff = lineText(renderStaffLine('rescheduled', moved, context));
    expect(staff.split('\n')[0]).toBe('【ご予約の日時変更】');
    expect(staff).toContain('変更前の日時: 2030年1月14日(月) 11:30〜13:30\n');
    expect(staff).toContain('/admin/reservations/6f1c1f9e-0000-4000-8000-000000000001');
  });

  it('a move to another staff member names both in the staff message; the customer reads the new one', () => {
    const handedOver = { ...moved, previous_staff_name: '鈴木 B', is_nominated: false };
    expect(lineText(renderStaffLine('rescheduled', handedOver, context))).toContain('担当: 鈴木 B → 佐藤 美咲');
    const customer = renderCustomerEmail('rescheduled', handedOver, context).text;
    expect(customer).toContain('担当: 佐藤 美咲\n');
    expect(customer).not.toContain('鈴木');
    expect(lineText(renderStaffLine('rescheduled', moved, context))).not.toContain('担当');
  });

  it('the customer texts name the staff member (with 指名) and the options', () => {
    for (const template of ['accepted', 'confirmed', 'rescheduled'] as const) {
      const email = renderCustomerEmail(template, reservation, context).text;
      const line = lineText(renderCustomerLine(template, reservation, context));
      for (const text of [email, line]) {
        expect(text).toContain('担当: 佐藤 美咲（指名）');
        expect(text).toContain('オプション: ストーン、ケア');
        expect(text).toContain('日時: 2030年1月15日(火) 14:00〜16:00\n');
        expect(text).not.toContain('変更前');
      }
    }
    const notNominated = renderCustomerEmail(
      'confirmed',
      { ...reservation, is_nominated: false, options: [] },
      context,
    );
    expect(notNominated.text).toContain('担当: 佐藤 美咲\n');
    expect(notNominated.text).not.toContain('（指名）');
    expect(notNominated.text).not.toContain('オプション');
  });

  it('the staff member’s own message does not name them; a snapshot without a staff name has no 担当 line', () => {
    expect(lineText(renderStaffLine('new', reservation, context))).not.toContain('担当');
    expect(lineText(renderStaffLine('new', reservation, context))).toContain('オプション: ストーン、ケア');
    const { staff_name: _name, ...old } = reservation;
    expect(renderCustomerEmail('reminder', old, context).text).not.toContain('担当');
  });

  it('tells staff that a new booking the no-show rule held back waits for them (LINE and push), and only then', () => {
    const held = { ...reservation, needs_approval: true };
    expect(lineText(renderStaffLine('new', held, context))).toContain(STAFF_APPROVAL_LINE);
    expect(renderStaffPush('new', held, context).body).toContain(STAFF_APPROVAL_LINE);
    expect(lineText(renderStaffLine('new', reservation, context))).not.toContain(STAFF_APPROVAL_LINE);
    expect(renderStaffPush('new', reservation, context).body).not.toContain(STAFF_APPROVAL_LINE);
    // A cancel of it is a cancel: nothing left to approve.
    expect(lineText(renderStaffLine('cancelled', held, context))).not.toContain(STAFF_APPROVAL_LINE);
  });
});

/** The footer button of a one-card message: its label and link. */
function cardButton(messages: ReturnType<typeof renderCustomerLine>) {
  expect(messages).toHaveLength(1);
  const [card] = messages;
  if (card?.type !== 'flex' || card.contents.type !== 'bubble') throw new Error('not a flex bubble');
  const [button] = card.contents.footer?.contents ?? [];
  if (button?.type !== 'button' || button.action.type !== 'uri') throw new Error('no URI button');
  return { label: button.action.label, uri: button.action.uri, card };
}

describe('LINE cards (Flex Messages)', () => {
  const customerTemplates: CustomerTemplate[] = [
    'accepted',
    'confirmed',
    'cancelled',
    'rescheduled',
    'reminder',
    'latest',
  ];
  const staffTemplates: StaffTemplate[] = ['new', 'cancelled', 'rescheduled'];

  it('every customer notice is a card whose button 予約を確認する opens the reservation; altText is the text', () => {
    for (const template of customerTemplates) {
      const messages = renderCustomerLine(template, moved, context);
      const { label, uri, card } = cardButton(messages);
      expect(label).toBe(RESERVATION_BUTTON_LABEL);
      expect(label).toBe('予約を確認する');
      expect(uri).toBe('https://salon.example.com/reservations/6f1c1f9e-0000-4000-8000-000000000001');
      expect(card.altText.split('\n').slice(0, 2)).toEqual(['【サロン花】', '山田 花子 様']);
      expect(card.altText).toContain(`詳細: ${uri}`);
      expect(lineMessageProblem(card)).toBeNull();
      // The bubble draws the same details as the altText.
      expect(flexTexts(card.contents)).toContain('予約番号: 6f1c1f9e-0000-4000-8000-000000000001');
    }
  });

  it('every staff notice is a card whose button opens the admin reservation page', () => {
    for (const template of staffTemplates) {
      const { label, uri, card } = cardButton(renderStaffLine(template, reservation, context));
      expect(label).toBe('予約を確認する');
      expect(uri).toBe('https://salon.example.com/admin/reservations/6f1c1f9e-0000-4000-8000-000000000001');
      expect(card.altText).toContain('お客様: 山田 花子 様');
      expect(lineMessageProblem(card)).toBeNull();
    }
  });

  it('with nothing upcoming, the check page’s answer is a card whose button opens the booking screen', () => {
    const { label, uri, card } = cardButton(renderNoReservationLine(context));
    expect(label).toBe(BOOK_BUTTON_LABEL);
    expect(uri).toBe('https://salon.example.com/reserve');
    expect(flexTexts(card.contents)).toContain('現在、今後のご予約は見つかりませんでした。');
    expect(card.altText).toContain('ご予約はこちらから: https://salon.example.com/reserve');
    expect(lineMessageProblem(card)).toBeNull();
  });

  it('the rebooking prompt books again from its button and keeps the stop link in its text', () => {
    const messages = renderRebookingPromptLine(
      {
        reservation_number: 'R-1',
        service_name: 'ジェルネイル',
        start_time: reservation.start_time,
        customer_name: '山田 花子',
      },
      context,
    );
    const { uri, card } = cardButton(messages);
    expect(uri).toBe('https://salon.example.com/reserve?rebook=R-1');
    expect(card.altText).toContain('https://salon.example.com/reserve?rebook=R-1');
    expect(flexTexts(card.contents)).toContain('https://salon.example.com/reservations/R-1');
  });

  it('a long altText is cut at LINE’s limit, never inside a surrogate pair', () => {
    expect(fitAltText('あ'.repeat(FLEX_ALT_TEXT_MAX))).toBe('あ'.repeat(FLEX_ALT_TEXT_MAX));
    const cut = fitAltText('a'.repeat(FLEX_ALT_TEXT_MAX - 2) + '🍎🍎🍎');
    expect(cut.length).toBeLessThanOrEqual(FLEX_ALT_TEXT_MAX);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF]…$/);
    const card = linkCard({
      altText: 'x'.repeat(2000),
      title: 't',
      lines: [],
      button: { label: 'b', url: 'https://a.example' },
    });
    expect(card.altText).toHaveLength(FLEX_ALT_TEXT_MAX);
    expect(lineMessageProblem(card)).toBeNull();
  });

  it('LINE’s checks: altText required and bounded, links https or the app’s own origin', () => {
    const card = (altText: string, url: string) => ({
      ...linkCard({ altText: 'a', title: 't', lines: [], button: { label: 'b', url } }),
      altText,
    });
    expect(lineMessageProblem(card('', 'https://a.example'))).toMatch(/altText/);
    expect(lineMessageProblem(card('x'.repeat(FLEX_ALT_TEXT_MAX + 1), 'https://a.example'))).toMatch(/altText/);
    expect(lineMessageProblem(card('ok', 'http://localhost:3000/reservations/1'))).toMatch(/https/);
    expect(lineMessageProblem(card('ok', 'http://localhost:3000/reservations/1'), 'http://localhost:3000')).toBeNull();
    expect(lineMessageProblem(card('ok', 'javascript:alert(1)'), 'http://localhost:3000')).toMatch(/https/);
  });
});
