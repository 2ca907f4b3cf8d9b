import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/messages';
import { SERVER_MESSAGES } from '../../src/shared/server-messages';
import type { ApiResult } from '../helpers/app';
import {
  at,
  startBookingApp,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  inputCast,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';

const DAY = '2030-02-20';
const INVALID = { detail: MESSAGES.invalidInput, code: 'invalid' };
const MALFORMED_DATES = ['2030-02-30', '2030-1-5', 'tomorrow', '2030-13-01', '20300101', ''];

/** Acceptance item 5: every field rule with its Japanese message, malformed dates, huge input (the fuzz: booking-fuzz.test.ts). */
describe(`booking input validation on ${testEngine}`, () => {
  let w: BookingWorld;
  let hanako: CustomerMember;
  let short: ServiceRow;
  let retired: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    ({ hanako, short, retired } = await inputCast(w, 'valid-a', DAY));
  });
  afterAll(() => w?.close());

  const book = (overrides: Record<string, unknown>) => w.book(hanako, short.id, at(DAY, '10:00'), overrides);
  function expectFields(result: ApiResult, fields: Record<string, string[]>) {
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'invalid', fields });
    // The schema's answer says "invalid input"; a rule checked by the service repeats its own message.
    expect([MESSAGES.invalidInput, ...Object.values(fields).flat()]).toContain(result.body.detail);
  }

  describe('POST /api/reservations/ re-checks every rule of docs/screens.md#booking-wizard', () => {
    it('furigana must be katakana (long-vowel mark and spaces allowed)', async () => {
      // Hiragana and half-width katakana are stored as katakana (input-normalisation.test.ts); these stay refused.
      for (const furigana of ['Yamada', '山田', 'やまだ1']) {
        expectFields(await book({ customer_furigana: furigana }), { customer_furigana: [MESSAGES.furiganaKatakana] });
      }
      const ok = await book({ customer_furigana: 'ヤマダ　ハナコー', start_time: at(DAY, '10:00') });
      expect(ok.status).toBe(201);
      expect(ok.body.customer_furigana).toBe('ヤマダ　ハナコー');
      // Empty furigana is fine: it is optional.
      expect((await book({ customer_furigana: '', start_time: at(DAY, '10:30') })).status).toBe(201);
    });

    it('e-mail must be an e-mail address; phone digits only', async () => {
      for (const email of ['not-an-email', 'a@', '@example.com', 'hanako@example', '', '   ']) {
        expectFields(await book({ customer_email: email }), { customer_email: [MESSAGES.emailInvalid] });
      }
      // Hyphens, spaces and full-width digits are normalised (input-normalisation.test.ts); these stay refused.
      for (const phone of ['+819012345678', '090-abcd-5678', '(090)12345678']) {
        expectFields(await book({ customer_phone: phone }), { customer_phone: [MESSAGES.phoneDigits] });
      }
      const ok = await book({ customer_phone: '09012345678', start_time: at(DAY, '11:00') });
      expect(ok.status).toBe(201);
      expect(ok.body.customer_phone).toBe('09012345678');
    });

    it('name, e-mail, salon, service and start time are required', async () => {
      const missing = async (field: string) => {
        const body: Record<string, unknown> = {
          salon: w.t.salonId,
          service: short.id,
          start_time: at(DAY, '12:00'),
          customer_name: '山田 花子',
          customer_email: 'hanako@example.com',
        };
        delete body[field];
        return w.api('/api/reservations/', { method: 'POST', token: hanako.token, json: body });
      };
      expectFields(await missing('customer_name'), { customer_name: [MESSAGES.requiredMissing] });
      expectFields(await missing('customer_email'), { customer_email: [MESSAGES.emailInvalid] });
      expectFields(await missing('service'), { service: [MESSAGES.requiredMissing] });
      expectFields(await missing('start_time'), { start_time: [MESSAGES.requiredMissing] });
      expectFields(await missing('salon'), { salon: [MESSAGES.requiredMissing] });
      expectFields(await book({ customer_name: '   ' }), { customer_name: [MESSAGES.requiredMissing] });
      const empty = await w.api('/api/reservations/', { method: 'POST', token: hanako.token, json: {} });
      expect(empty.status).toBe(400);
      expect(Object.keys(empty.body.fields as object).sort()).toEqual([
        'customer_email',
        'customer_name',
        'salon',
        'service',
        'start_time',
      ]);
      expect(await w.activeRows(at(DAY, '12:00'), at(DAY, '12:30'))).toHaveLength(0);
    });

    it('refuses malformed, off-grid and past start times, and unknown or retired services', async () => {
      for (const date of MALFORMED_DATES) {
        expectFields(await book({ start_time: `${date}T10:00` }), { start_time: [MESSAGES.invalidDateTime] });
      }
      for (const value of [
        'tomorrow',
        '2030-02-20 10:00',
        '2030-02-20T25:00',
        '2030-02-20T10:60',
        '2030-02-20T10:00Z',
        42,
      ]) {
        expect((await book({ start_time: value })).status).toBe(400);
      }
      expectFields(await book({ start_time: at(DAY, '10:15') }), { start_time: [SERVER_MESSAGES.offGridTime] });
      expectFields(await book({ start_time: `${DAY}T10:00:30` }), { start_time: [SERVER_MESSAGES.offGridTime] });
      expectFields(await book({ start_time: '2030-01-09T10:00' }), { start_time: [SERVER_MESSAGES.pastDateTime] });
      expectFields(await book({ service: 999_999 }), { service: [SERVER_MESSAGES.serviceNotFound] });
      expectFields(await book({ service: retired.id }), { service: [SERVER_MESSAGES.serviceNotFound] });
      expectFields(await book({ salon: w.t.salonId + 1 }), { salon: [MESSAGES.salonNotFound] });
    });

    it('answers huge input with 400 (or 413 beyond the body limit), never 500', async () => {
      const huge = 'あ'.repeat(100 * 1024);
      expectFields(await book({ customer_name: huge }), { customer_name: [MESSAGES.tooLong] });
      for (const field of ['customer_furigana', 'customer_email', 'customer_phone', 'start_time']) {
        const result = await book({ [field]: huge });
        expect(result.status, field).toBe(400);
        expect((result.body.fields as Record<string, string[]>)[field]).toBeDefined();
      }
      expectFields(await book({ customer_name: '名'.repeat(101) }), { customer_name: [MESSAGES.tooLong] });
      const tooLarge = await book({ customer_name: 'x'.repeat(2 * 1024 * 1024) });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual({ detail: SERVER_MESSAGES.bodyTooLarge, code: 'body_too_large' });
      const notJson = await w.api('/api/reservations/', {
        method: 'POST',
        token: hanako.token,
        body: '{"salon": 1,',
        headers: { 'content-type': 'application/json' },
      });
      expect(notJson.status).toBe(400);
      expect(notJson.body).toEqual(INVALID);
    });
  });

  describe('malformed dates on the public booking calls', () => {
    it('availability refuses malformed dates and unknown services with 400', async () => {
      for (const date of MALFORMED_DATES) {
        const result = await w.api(`/api/availability/?date=${encodeURIComponent(date)}&service_id=${short.id}`);
        expect(result.status, date).toBe(400);
        expect(result.body).toMatchObject({ ...INVALID, fields: { date: [MESSAGES.invalidDate] } });
      }
      expect((await w.api(`/api/availability/?service_id=${short.id}`)).status).toBe(400);
      expect((await w.api(`/api/availability/?date=${DAY}`)).status).toBe(400);
      for (const id of [999_999, retired.id]) {
        const result = await w.api(`/api/availability/?date=${DAY}&service_id=${id}`);
        expect(result.status).toBe(400);
        expect(result.body).toMatchObject({
          detail: SERVER_MESSAGES.serviceNotFound,
          fields: { service_id: [SERVER_MESSAGES.serviceNotFound] },
        });
      }
      expect((await w.api(`/api/availability/?date=${DAY}&service_id=abc`)).status).toBe(400);
    });

    it('bookable-dates refuses malformed months and unknown services with 400', async () => {
      for (const query of [
        'year=2030',
        'month=2',
        'year=2030&month=13',
        'year=2030&month=0',
        'year=abc&month=2',
        'year=2030-02&month=2',
        'year=1999&month=2',
        'year=2030&month=1.5',
      ]) {
        const result = await w.api(`/api/bookable-dates/?${query}`);
        expect(result.status, query).toBe(400);
        expect(result.body).toMatchObject(INVALID);
      }
      const unknown = await w.api(`/api/bookable-dates/?year=2030&month=2&service_id=999999`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        detail: SERVER_MESSAGES.serviceNotFound,
        fields: { service_id: [SERVER_MESSAGES.serviceNotFound] },
      });
      expect((await w.api(`/api/bookable-dates/?year=2030&month=2&service_id=${short.id}`)).body).toEqual([DAY]);
    });
  });
});
