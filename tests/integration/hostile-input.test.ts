/**
 * Hostile input (issue 8). Every route the app registers (app.registeredRoutes) is fuzzed with fast-check from its
 * own zod schemas: plausible values that reach the services and the database, mixed with wrong types, huge
 * strings, NUL bytes, lone surrogates, deep nesting, prototype-polluting keys, malformed JSON, odd content
 * types, junk tokens and junk path parameters, with the token the route needs (and now and then another).
 * Whatever comes in: never a 5xx, never a stack trace or an SQL message in a body, every 4xx of the API a
 * `{detail, code}` body with a Japanese detail, and nothing polluted in this very process (the app runs here).
 * Then the targeted cases: oversized bodies (413), path traversal in media names (404), CRLF in fields that
 * end up in an e-mail (never a header), and HTML in names and messages (text, never markup, in the dev pages).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, notificationsOutbox } from '../../server/db/schema';
import { enqueueNotification } from '../../server/outbox/outbox';
import { addDaysToDate } from '../../src/shared/time';
import type { TestApp } from '../helpers/app';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';
import { fuzzRuns } from '../helpers/fuzz';
import { startFakeSmtp, type FakeSmtpServer } from '../helpers/fake-smtp';
import {
  HOSTILE_STRINGS,
  hostileValue,
  jsonSchemaOf,
  jsonText,
  MALFORMED_BODIES,
  plausible,
  POLLUTING_KEYS,
  POLLUTION,
  rawJsonObject,
  type JsonSchema,
} from '../helpers/hostile';

/**
 * Runs per route, on either engine: with every route fuzzed this is the longest integration file, and fast-check
 * draws new cases every run. `TEST_FUZZ_RUNS` asks for more (tests/helpers/fuzz.ts).
 */
const RUNS = fuzzRuns(25);
const JAPANESE = /[ぁ-んァ-ヶ一-龯]/;
/** What a body must never show: stack frames, driver and SQL messages, file paths of the server. */
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\/server\/|Failed query|syntax error|violates|duplicate key|relation "|invalid byte sequence|SQLSTATE|PostgresError|ZodError|TypeError|ReferenceError/;
const DAYS = Array.from({ length: 5 }, (_, i) => addDaysToDate('2030-02-01', i));

interface Sent {
  method: string;
  path: string;
  contentType?: string;
  body?: string;
  token?: string;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** One request; an event stream that opens (200) is closed at once, its headers are the answer. */
async function send(baseUrl: string, sent: Sent): Promise<Answer> {
  const headers: Record<string, string> = { ...sent.headers };
  if (sent.contentType) headers['content-type'] = sent.contentType;
  if (sent.token !== undefined) headers.authorization = sent.token;
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${sent.path}`, {
    method: sent.method,
    headers,
    body: sent.method === 'GET' || sent.method === 'HEAD' ? undefined : sent.body,
    signal: controller.signal,
    redirect: 'manual',
  });
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    controller.abort();
    return { status: response.status, contentType, text: '' };
  }
  return { status: response.status, contentType, text: await response.text() };
}

/** The invariants every answer keeps, whatever was sent. */
function checkAnswer(sent: Sent, answer: Answer) {
  const label = `${sent.method} ${sent.path.slice(0, 200)} [${sent.contentType ?? '-'}] ${String(sent.body ?? '').slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, label).toBeLessThan(500);
  expect(answer.text, label).not.toMatch(LEAK);
  if (answer.status < 400) return;
  const isPage = sent.path.startsWith('/dev/') && answer.contentType.startsWith('text/html');
  if (isPage) {
    expect(answer.text, label).toMatch(JAPANESE);
    return;
  }
  // The emulator's token endpoint answers its own refusals as LINE's does (OAuth 2.0 `{error}`), which is what the
  // app's LINE client parses; refusals by the app's plugins before it (Idempotency-Key, body parsing) are the app's.
  if (sent.path.startsWith('/dev/line/oauth2/') && 'error' in (JSON.parse(answer.text) as object)) return;
  expect(answer.contentType, label).toContain('application/json');
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  // A refused schedule change also lists the bookings it would strand (src/shared/schemas/schedule.ts).
  const allowed = body.code === 'stranded' ? ['detail', 'code', 'reservations'] : ['detail', 'code', 'fields'];
  expect(
    Object.keys(body).filter((key) => !allowed.includes(key)),
    label,
  ).toEqual([]);
  expect(typeof body.detail === 'string' && JAPANESE.test(body.detail), label).toBe(true);
  expect(typeof body.code === 'string' && body.code.length > 0, label).toBe(true);
}

describe(`every route under hostile input on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let victimStaff: StaffMember;
  let customer: CustomerMember;
  let unlinked: CustomerMember;
  let service: ServiceRow;
  let victimService: ServiceRow;
  let numbers: string[];

  beforeAll(async () => {
    w = await startBookingApp();
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('hostile_a', 'スタッフ A');
    victimStaff = await w.staff('hostile_victim', 'スタッフ V');
    customer = await w.customer({ name: '山田 花子', email: 'hanako@example.com', assignedStaffId: staffA.id });
    unlinked = await w.customer({ name: '田中 由美', email: 'yumi@example.com', assignedStaffId: staffA.id });
    await w.db
      .update(customers)
      .set({ line_user_id: `U${randomBytes(16).toString('hex')}` })
      .where(eq(customers.id, customer.id));
    service = await w.service('ジェルネイル', 60, 6000);
    victimService = await w.service('削除されるメニュー', 30, 3000);
    await w.openSlotsDirect(staffA.id, DAYS, times('10:00', '20:00'));
    const booked = await Promise.all([
      w.booked(customer, service.id, at(DAYS[0]!, '10:00')),
      w.booked(customer, service.id, at(DAYS[0]!, '12:00')),
    ]);
    const past = await Promise.all(
      ['2030-01-08', '2030-01-09'].map((day) =>
        w.insertReservation({ staffId: staffA.id, customer, service, start: at(day, '10:00'), status: 'confirmed' }),
      ),
    );
    numbers = [...booked.map((r) => r.reservation_number), ...past.map((r) => r.reservation_number)];
  });
  afterAll(() => w?.close());

  const simpleEmail = fc
    .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,10}$/), fc.constantFrom('example.com', 'example.co.jp'))
    .map(([local, domain]) => `${local}@${domain}`);

  /** Values that get past validation, by field name (ids of real rows, dates with open slots...). */
  const hints = (): Record<string, fc.Arbitrary<unknown>> => ({
    date: fc.constantFrom(...DAYS, '2030-01-10', '2030-01-09', '2030-02-30'),
    start_date: fc.constantFrom(...DAYS, '2030-01-01'),
    end_date: fc.constantFrom(...DAYS, '2030-12-31'),
    // The register's periods (sales, closings, the CSV): a later `to` than `from` more often than not.
    from: fc.constantFrom(DAYS[0]!, DAYS[1]!, '2030-03-01'),
    to: fc.constantFrom(DAYS[2]!, DAYS[4]!, '2029-12-31'),
    start_time: fc
      .tuple(fc.constantFrom(...DAYS), fc.constantFrom(...times('09:00', '21:00')))
      .map(([d, t]) => at(d, t)),
    year: fc.integer({ min: 2029, max: 2031 }),
    month: fc.integer({ min: 1, max: 12 }),
    service: fc.constantFrom(service.id, victimService.id),
    service_id: fc.constantFrom(service.id, victimService.id),
    salon: fc.constant(w.t.salonId),
    customer_id: fc.constant(customer.id),
    user_id: fc.constantFrom(staffA.id, victimStaff.id),
    staff_id: fc.constantFrom(staffA.id, victimStaff.id),
    times: fc.array(fc.constantFrom(...times('09:00', '21:00')), { maxLength: 24 }),
    updated_since: fc.constantFrom('2030-01-01T00:00:00Z', '2000-01-01T00:00:00+09:00', new Date().toISOString()),
    email: fc.oneof(fc.constant(''), simpleEmail),
    customer_email: simpleEmail,
    customer_name: fc.constantFrom('山田 花子', 'Yamada Hanako', '<b>太字</b>'),
    full_name: fc.constantFrom('佐藤 美咲', 'スタッフ'),
    customer_furigana: fc.constantFrom('ヤマダ ハナコ', ''),
    phone_number: fc.constantFrom('09012345678', ''),
    customer_phone: fc.constantFrom('09012345678', ''),
    business_start: fc.constantFrom('09:00', '10:00'),
    business_end: fc.constantFrom('20:00', '21:00'),
    max_seconds: fc.constant(0),
    duration_minutes: fc.constantFrom(30, 60, 90),
    price: fc.integer({ min: 0, max: 30_000 }),
    username: fc.stringMatching(/^[a-z][a-z0-9_]{2,20}$/),
    password: fc.constant('long-enough-password'),
    notes: fc.string({ maxLength: 200 }),
  });

  /** Path parameters: mostly real ones (a victim for destructive routes), else anything. */
  const paramValue = (route: string, name: string, fresh: string[]): fc.Arbitrary<string> => {
    const real: Record<string, string[]> = {
      reservationNumber: [...fresh, ...numbers],
      id: route.includes('/services/')
        ? [String(victimService.id)]
        : route.includes('/users/')
          ? [String(victimStaff.id)]
          : [String(customer.id), String(unlinked.id)],
      token: [randomBytes(16).toString('hex')],
      name: [`${randomBytes(16).toString('hex')}.png`],
    };
    const junk = fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 200)).map(encodePart),
      fc.constantFrom(
        '%',
        '%zz',
        '%E0%A4%A',
        '..',
        '%2e%2e',
        '..%2f..%2fpackage.json',
        '%00',
        '0',
        '-1',
        '1e3',
        '2147483648',
        '9'.repeat(120),
      ),
      fc.string({ maxLength: 40 }).map(encodePart),
    );
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(real[name] ?? ['x'])) },
      { weight: 2, arbitrary: junk },
    );
  };

  /** A field's value: mostly plausible, sometimes hostile. */
  const field = (name: string, schema: JsonSchema, h: Record<string, fc.Arbitrary<unknown>>) =>
    fc.oneof({ weight: 3, arbitrary: plausible(name, schema, h) }, { weight: 1, arbitrary: hostileValue });

  /** Entries of an object of the schema's fields: some left out, some extra, prototype keys now and then. */
  const entriesOf = (schema: JsonSchema | null, h: Record<string, fc.Arbitrary<unknown>>) => {
    const properties = Object.entries(schema?.properties ?? {});
    return fc
      .tuple(
        fc.tuple(
          ...properties.map(([name, property]) => fc.option(field(name, property, h), { nil: undefined, freq: 6 })),
        ),
        fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...POLLUTING_KEYS), fc.string({ maxLength: 10 })),
            fc.oneof(fc.constant<unknown>(POLLUTION), hostileValue),
          ),
          {
            maxLength: 2,
          },
        ),
        fc.boolean(),
      )
      .map(([values, extra, extraFirst]) => {
        const known = properties.flatMap(([name], i) =>
          values[i] === undefined ? [] : [[name, values[i]] as [string, unknown]],
        );
        return extraFirst ? [...extra, ...known] : [...known, ...extra];
      });
  };

  /** What a well-behaved client sends: every required field, some optional ones, all plausible. */
  const cleanEntriesOf = (schema: JsonSchema | null, h: Record<string, fc.Arbitrary<unknown>>) => {
    const properties = Object.entries(schema?.properties ?? {});
    const required = new Set(schema?.required ?? []);
    return fc
      .tuple(
        ...properties.map(([name, property]) =>
          fc.option(plausible(name, property, h), { nil: undefined, freq: required.has(name) ? 1_000_000 : 2 }),
        ),
      )
      .map((values) =>
        properties.flatMap(([name], i) => (values[i] === undefined ? [] : [[name, values[i]] as [string, unknown]])),
      );
  };

  const bodyOf = (
    schema: JsonSchema | null,
    h: Record<string, fc.Arbitrary<unknown>>,
  ): fc.Arbitrary<{ body?: string; contentType?: string }> =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: cleanEntriesOf(schema, h).map((entries) => ({
          body: rawJsonObject(entries),
          contentType: 'application/json',
        })),
      },
      {
        weight: 4,
        arbitrary: entriesOf(schema, h).map((entries) => ({
          body: rawJsonObject(entries),
          contentType: 'application/json',
        })),
      },
      {
        weight: 1,
        arbitrary: hostileValue.map((value) => ({ body: jsonText(value), contentType: 'application/json' })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...MALFORMED_BODIES).map((body) => ({ body, contentType: 'application/json' })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            entriesOf(schema, h).map((entries) => rawJsonObject(entries)),
            fc.constantFrom(
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data; boundary=xyz',
              'application/json; charset=latin1',
              'application/xml',
              'application/json; charset=utf-16',
              'application/x-www-form-urlencoded; charset=utf-8',
            ),
          )
          .map(([body, contentType]) => ({ body, contentType })),
      },
      { weight: 1, arbitrary: fc.constant({}) },
    );

  const queryOf = (schema: JsonSchema | null, h: Record<string, fc.Arbitrary<unknown>>) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: cleanEntriesOf(schema, h).map((entries) =>
          new URLSearchParams(
            entries.map(([key, value]): [string, string] => [key, typeof value === 'string' ? value : jsonText(value)]),
          ).toString(),
        ),
      },
      {
        weight: 8,
        arbitrary: fc.tuple(entriesOf(schema, h), fc.boolean()).map(([entries, repeat]) => {
          const params = new URLSearchParams();
          for (const [key, value] of entries) {
            const text = (typeof value === 'string' ? value : jsonText(value)).slice(0, 4_000);
            params.append(key, text);
            if (repeat) params.append(key, text);
          }
          return params.toString();
        }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '%',
          '%zz=1',
          'a=%E0%A4%A',
          '&&&',
          '=',
          'a[b]=1&a[c]=2',
          '__proto__[polluted]=yes',
          'constructor[prototype][polluted]=yes',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((raw) => raw.replaceAll('#', '%23')) },
    );

  type Role = 'none' | 'customer' | 'staff' | 'superuser' | 'junk';
  const rolesFor = (auth: string | null): Role[] =>
    (({
      customer: ['customer'],
      staff: ['staff', 'superuser'],
      superuser: ['superuser'],
      staffOrCustomer: ['customer', 'staff', 'superuser'],
    })[auth ?? ''] as Role[]) ?? ['none'];
  const junkTokens = [
    'Bearer ',
    'Bearer x.y.z',
    'Basic YWRtaW46YWRtaW4=',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
    `Bearer ${'a'.repeat(4_000)}`,
    'Bearer \u00ff',
  ];
  const tokenFor = (role: Role): fc.Arbitrary<string | undefined> =>
    role === 'junk'
      ? fc.constantFrom(...junkTokens)
      : fc.constant(
          {
            none: undefined,
            customer: `Bearer ${customer.token}`,
            staff: `Bearer ${staffA.token}`,
            superuser: `Bearer ${w.admin.token}`,
          }[role],
        );

  it('answers a body over 1 MB with 413 and a Japanese {detail, code}, before any handler runs', async () => {
    const before = await w.activeRows(at(DAYS[4]!, '00:00'), at(DAYS[4]!, '23:59'));
    const huge = 'あ'.repeat(400_000); // 1.2 MB of UTF-8
    const cases: Sent[] = [
      {
        method: 'POST',
        path: '/api/reservations/',
        token: `Bearer ${customer.token}`,
        contentType: 'application/json',
        body: JSON.stringify({
          salon: w.t.salonId,
          service: service.id,
          start_time: at(DAYS[4]!, '10:00'),
          customer_name: huge,
          customer_email: 'a@example.com',
        }),
      },
      {
        method: 'POST',
        path: '/api/token/',
        contentType: 'application/json',
        body: JSON.stringify({ username: 'admin', password: huge }),
      },
      {
        method: 'PATCH',
        path: '/api/admin/settings/',
        token: `Bearer ${w.admin.token}`,
        contentType: 'application/json',
        body: JSON.stringify({ salon_name: huge }),
      },
      {
        method: 'POST',
        path: '/api/token/',
        contentType: 'application/x-www-form-urlencoded',
        body: `username=admin&password=${'a'.repeat(1_100_000)}`,
      },
      {
        method: 'POST',
        path: '/api/line/webhook/',
        contentType: 'application/json',
        body: JSON.stringify({ destination: 'x', events: [], padding: huge }),
        headers: { 'x-line-signature': 'x' },
      },
    ];
    for (const sent of cases) {
      const answer = await send(w.t.url, sent);
      expect(answer.status, `${sent.method} ${sent.path}`).toBe(413);
      checkAnswer(sent, answer);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'body_too_large' });
    }
    // An upload beyond the 10 MB image limit: 413 as well, and nothing stored.
    const form = new FormData();
    form.set('text', 'こんにちは');
    form.set('image', new Blob([Buffer.alloc(11 * 1024 * 1024, 1)], { type: 'image/png' }), 'big.png');
    const upload = await w.api(`/api/admin/customers/${customer.id}/send-message/`, {
      method: 'POST',
      token: w.admin.token,
      form,
    });
    expect(upload.status).toBe(413);
    expect(String(upload.body.detail)).toMatch(JAPANESE);
    expect(await w.activeRows(at(DAYS[4]!, '00:00'), at(DAYS[4]!, '23:59'))).toHaveLength(before.length);
  });

  it('answers refusals made before any route runs in the app’s shape too (router and HTTP parser)', async () => {
    const cases: Array<[Sent, number]> = [
      // A %-escape that is not UTF-8, in the path: the router cannot decode it.
      [{ method: 'GET', path: '/api/reservations/%E0%A4%A/' }, 400],
      // A path parameter over the router's 100 characters: nothing by that name can exist.
      [{ method: 'GET', path: `/api/admin/customers/${'9'.repeat(150)}/`, token: `Bearer ${w.admin.token}` }, 404],
      // Headers over Node's 16 kB: refused by the HTTP parser itself.
      [{ method: 'GET', path: '/api/config/', headers: { 'x-padding': 'a'.repeat(20_000) } }, 431],
      [{ method: 'GET', path: `/api/availability/?date=${'9'.repeat(20_000)}` }, 431],
    ];
    for (const [sent, status] of cases) {
      const answer = await send(w.t.url, sent);
      expect(answer.status, sent.path.slice(0, 80)).toBe(status);
      checkAnswer(sent, answer);
    }
  });

  it('refuses a NUL byte in multipart text (read by the handler, not the JSON parser) with 400', async () => {
    for (const url of [`/api/admin/customers/${customer.id}/send-message/`, '/api/admin/send-bulk-message/']) {
      const form = new FormData();
      form.set('text', 'ご案内\u0000です');
      const answer = await w.api(url, { method: 'POST', token: w.admin.token, form });
      expect(answer.status, url).toBe(400);
      expect(String(answer.body.detail)).toMatch(JAPANESE);
    }
  });

  it('never serves anything but a stored image under /media/: traversal is a 404', async () => {
    const uploadDir = w.t.env.uploadDir;
    fs.mkdirSync(uploadDir, { recursive: true });
    // A secret beside the upload folder and one inside it under a name no upload can have.
    fs.writeFileSync(path.join(path.dirname(uploadDir), 'secret.txt'), 'TOP-SECRET');
    fs.writeFileSync(path.join(uploadDir, 'secret.png'), 'TOP-SECRET');
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const stored = `${randomBytes(16).toString('hex')}.png`;
    fs.writeFileSync(path.join(uploadDir, stored), png);

    const ok = await rawGet(w.t.url, `/media/${stored}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
    expect(ok.headers['x-content-type-options']).toBe('nosniff');

    const attempts = [
      '/media/secret.png',
      '/media/../secret.txt',
      '/media/..%2fsecret.txt',
      '/media/%2e%2e%2fsecret.txt',
      '/media/%2e%2e/secret.txt',
      '/media/..%5csecret.txt',
      '/media/....//secret.txt',
      `/media/${stored}/../../secret.txt`,
      `/media/${stored}%00.txt`,
      `/media/${stored}%2f..%2f..%2fsecret.txt`,
      '/media/%252e%252e%252fsecret.txt',
      `/media/${stored.toUpperCase()}`,
      `/media/./${stored}`,
      `/media//${stored}`,
      '/media/',
      '/media/..',
      `/media/${'0'.repeat(32)}.png`,
      '/media/%c0%ae%c0%ae/secret.txt',
      `/media/${path.join(uploadDir, stored).replaceAll('/', '%2f')}`,
    ];
    for (const attempt of attempts) {
      const answer = await rawGet(w.t.url, attempt);
      expect(answer.body, attempt).not.toContain('TOP-SECRET');
      // `/media/./x` and `//x` are not normalized by the server either: only the exact stored name serves.
      // A path that is not even valid UTF-8 once decoded (overlong `..`) is refused as a bad request.
      const malformed = attempt.includes('%c0%ae');
      expect(answer.status, attempt).toBe(malformed ? 400 : 404);
      expect(answer.headers['content-type'], attempt).toContain('application/json');
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body.code, attempt).toBe(malformed ? 'invalid' : 'not_found');
      expect(String(body.detail), attempt).toMatch(JAPANESE);
    }
  });

  it('renders HTML in names and messages as text in the dev mailbox and LINE inbox', async () => {
    const evil = '<img src=x onerror=alert(1)><script>alert("xss")</script>';
    const victim = await w.customer({ name: `悪意 ${evil}`, email: 'victim@example.com', assignedStaffId: staffA.id });
    const lineUser = `U${randomBytes(16).toString('hex')}`;
    await w.db.update(customers).set({ line_user_id: lineUser }).where(eq(customers.id, victim.id));
    // The name the customer typed goes into the acceptance e-mail and both LINE messages.
    const booked = await w.book(victim, service.id, at(DAYS[3]!, '15:00'), { customer_name: `山田 ${evil}` });
    expect(booked.status).toBe(201);
    // A staff message with markup, pushed to the customer's LINE.
    const form = new FormData();
    form.set('text', `ご案内 ${evil}`);
    expect(
      (await w.api(`/api/admin/customers/${victim.id}/send-message/`, { method: 'POST', token: w.admin.token, form }))
        .status,
    ).toBe(201);
    // The booking woke the background worker, which may be sending some rows when drainOnce runs: drain until the
    // staff message (the last one queued) is in the inbox.
    await expect
      .poll(
        async () => {
          await w.t.app.notifications.worker.drainOnce();
          const inbox = await send(w.t.url, { method: 'GET', path: '/dev/line/inbox' });
          return decodeEntities(inbox.text).includes(`ご案内 ${evil}`);
        },
        { timeout: 10_000 },
      )
      .toBe(true);

    for (const page of ['/dev/mail', '/dev/line/inbox']) {
      const answer = await send(w.t.url, { method: 'GET', path: page });
      expect(answer.status, page).toBe(200);
      expect(answer.contentType, page).toContain('text/html');
      // The markup is on the page as text (escaped), never as elements.
      expect(answer.text, page).not.toMatch(/<script|<img/i);
      expect(decodeEntities(answer.text), page).toContain(`山田 ${evil} 様`);
      if (page === '/dev/line/inbox') expect(decodeEntities(answer.text), page).toContain(`ご案内 ${evil}`);
    }
    // The emulator's own pages list test users by the names they were given.
    const authorize = await send(w.t.url, {
      method: 'GET',
      path: `/dev/line/authorize?${new URLSearchParams({ response_type: 'code', client_id: '1000000000', redirect_uri: `${w.t.url}/callback`, state: 's', scope: 'openid', dev_user: '<b>x</b><script>1</script>' })}`,
    });
    expect(authorize.status).toBe(302);
    for (const page of [
      `/dev/line/authorize?${new URLSearchParams({ response_type: 'code', client_id: '1000000000', redirect_uri: `${w.t.url}/callback`, state: '"><script>1</script>', scope: 'openid' })}`,
      '/dev/line/send',
    ]) {
      const answer = await send(w.t.url, { method: 'GET', path: page });
      expect(answer.status, page).toBe(200);
      expect(answer.text, page).not.toMatch(/<script|<b>/i);
      expect(decodeEntities(answer.text), page).toContain('<b>x</b><script>1</script>');
    }
  });

  it(
    'fuzzes every registered route: never a 5xx, never a leak, always {detail, code} in Japanese',
    { timeout: 600_000 },
    async () => {
      const routes = w.t.app.registeredRoutes;
      expect(routes.length).toBeGreaterThan(40);
      /** Routes that answered a success at least once: the fuzz got past validation into the handlers. */
      const reached = new Set<string>();
      for (const [routeIndex, route] of routes.entries()) {
        const h = hints();
        const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
        // Each route that acts on a reservation gets its own: pending ones ahead, confirmed ones just past (counted
        // backwards, so that no route's past day is ever another's day ahead, however many routes there are).
        const fresh = paramNames.includes('reservationNumber')
          ? (
              await Promise.all(
                [
                  at(addDaysToDate('2030-03-01', routeIndex), '10:00'),
                  at(addDaysToDate('2030-03-01', routeIndex), '12:00'),
                  at(addDaysToDate('2029-12-31', -routeIndex), '10:00'),
                  at(addDaysToDate('2029-12-31', -routeIndex), '12:00'),
                ].map((start, i) =>
                  w.insertReservation({
                    staffId: staffA.id,
                    customer,
                    service,
                    start,
                    status: i < 2 ? 'pending' : 'confirmed',
                  }),
                ),
              )
            ).map((row) => row.reservation_number)
          : [];
        const pathArb = fc
          .tuple(...paramNames.map((name) => paramValue(route.url, name, fresh)))
          .map((values) => paramNames.reduce((url, name, i) => url.replace(`:${name}`, values[i]!), route.url));
        const query = jsonSchemaOf(route.schema?.querystring);
        const body = jsonSchemaOf(route.schema?.body);
        const roles = rolesFor(route.auth);
        const role = fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...roles) },
          { weight: 2, arbitrary: fc.constantFrom<Role>('none', 'customer', 'staff', 'superuser', 'junk') },
        );
        // Header values are bytes (Latin-1) without line breaks: anything else cannot even be sent.
        const sendable = HOSTILE_STRINGS.filter((s) => s.length < 300 && /^[\x20-\xff]*$/.test(s));
        const idempotencyKey = fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.constantFrom(...sendable)) },
        );
        await fc.assert(
          fc.asyncProperty(
            pathArb,
            // Every route gets a query string and (except GET) a body, declared or not: undeclared input must be harmless too.
            fc.option(queryOf(query, h), { nil: '', freq: query ? 10 : 3 }),
            route.method === 'GET' ? fc.constant({}) : bodyOf(body, h),
            role.chain(tokenFor),
            idempotencyKey,
            async (pathname, search, payload, token, key) => {
              const sent: Sent = {
                method: route.method,
                path: search ? `${pathname}?${search}` : pathname,
                token,
                ...payload,
                headers: key === null || route.method === 'GET' ? {} : { 'idempotency-key': key },
              };
              const answer = await send(w.t.url, sent);
              checkAnswer(sent, answer);
              if (answer.status < 400) reached.add(`${route.method} ${route.url}`);
            },
          ),
          { numRuns: RUNS },
        );
      }
      // The fuzz must reach the handlers, not only the validators: most routes answered a success at least once.
      // (Random input never passes these: credentials, LINE codes, signatures, link tokens, multipart-only forms.)
      const refusalOnly = new Set([
        'POST /api/token/',
        'POST /api/token/refresh/',
        'POST /api/admin/logout/',
        'POST /api/line/callback/',
        'POST /api/admin/customers/:id/send-message/',
        'POST /api/admin/send-bulk-message/',
        'GET /media/:name',
        'GET /api/link-customer/:token/',
        'POST /api/link-customer/',
        'POST /api/admin/link-line/',
        'POST /api/admin/login-line/',
        'GET /dev/line/authorize',
        'POST /dev/line/oauth2/v2.1/token',
        'POST /dev/line/send',
        'POST /api/line/webhook/',
        // カルテ: multipart-only uploads, signed photo URLs, and what needs a completed visit or a stored photo (the
        // fuzz's reservations are pending or confirmed, and it stores no photo).
        'POST /api/admin/reservations/:reservationNumber/photos/',
        'POST /api/reservations/:reservationNumber/photos/',
        'GET /api/visit-photos/:id/:variant/',
        'PUT /api/admin/reservations/:reservationNumber/visit-note/',
        'DELETE /api/admin/visit-photos/:id/',
        // Secrets no random input guesses (a reservation link's signature, a calendar feed token), a browser's push
        // keys, and キャンセル待ち entries by id, which the fuzz never has: left in, they made this count a coin toss.
        'GET /api/reservations/:reservationNumber/by-link/',
        'GET /api/calendar/:token.ics',
        'POST /api/admin/push-subscriptions/',
        'GET /api/waitlist/:id/',
        'DELETE /api/waitlist/:id/',
        // The register's checkouts by id: the fuzz rings up none (a checkout needs payments that cover its lines
        // exactly), so these answer 404 whatever it sends, as キャンセル待ち entries do.
        'GET /api/admin/checkouts/:id/',
        'GET /api/admin/checkouts/:id/receipt/',
        'POST /api/admin/checkouts/:id/void/',
        'POST /api/admin/checkouts/:id/refund/',
      ]);
      const candidates = routes.map((r) => `${r.method} ${r.url}`).filter((r) => !refusalOnly.has(r));
      const missed = candidates.filter((r) => !reached.has(r));
      expect(missed.length, `never a success: ${missed.join(', ')}`).toBeLessThanOrEqual(
        Math.floor(candidates.length / 5),
      );
      // The app runs in this process: nothing it parsed reached a prototype.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});

describe(`CR and LF in fields that end up in an e-mail on ${testEngine}`, () => {
  let smtp: FakeSmtpServer;
  let t: TestApp;
  let w: BookingWorld;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    w = await startBookingApp({ env: { SMTP_URL: smtp.url }, notifications: { autoStart: false } });
    t = w.t;
  });
  afterAll(async () => {
    await w?.close();
    await smtp?.close();
  });

  it('never become SMTP headers or recipients', async () => {
    const staff = await w.staff('crlf_staff');
    const service = await w.service('ケア', 60, 4000);
    await w.openSlotsDirect(staff.id, DAYS, times('10:00', '20:00'));
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    const injections = [
      '\r\nBcc: evil@example.com',
      '\nBcc: evil@example.com',
      '\rBcc: evil@example.com',
      '\r\n\r\nInjected body',
      '\r\nX-Injected: yes',
      '=?utf-8?Q?=0D=0ABcc:_evil@example.com?=',
    ];
    const customer = await w.customer({ name: '山田 花子', email: 'victim@example.com' });

    let hour = 10;
    for (const injection of injections) {
      // In the name the customer types: stored as typed (it is their name), but only ever in the e-mail's body.
      const byName = await w.book(customer, service.id, at(DAYS[1]!, `${hour++}:00`), {
        customer_name: `山田${injection}`,
        customer_email: 'victim@example.com',
      });
      expect(byName.status, JSON.stringify(injection)).toBe(201);
      // In the address: refused outright.
      const byEmail = await w.book(customer, service.id, at(DAYS[2]!, '10:00'), {
        customer_email: `victim@example.com${injection}`,
      });
      expect(byEmail.status, JSON.stringify(injection)).toBe(400);
      expect(String(byEmail.body.detail)).toMatch(JAPANESE);
    }
    // The salon name goes into every subject and the superuser may put a line break in it: it stays in one line.
    const renamed = await w.api('/api/admin/settings/', {
      method: 'PATCH',
      token: w.admin.token,
      json: { salon_name: 'サロン\r\nBcc: evil@example.com' },
    });
    expect(renamed.status).toBe(200);
    expect((await w.book(customer, service.id, at(DAYS[1]!, `${hour++}:00`))).status).toBe(201);
    // Staff create a walk-in whose name carries an injection, with an address the e-mail goes to.
    const walkIn = await w.api('/api/admin/reservations/create-with-new-customer/', {
      method: 'POST',
      token: w.admin.token,
      json: {
        name: '新規\r\nBcc: evil@example.com',
        email: 'walkin@example.com',
        phone_number: '',
        service_id: service.id,
        start_time: at(DAYS[3]!, '10:00'),
        staff_id: staff.id,
      },
    });
    expect(walkIn.status).toBe(201);
    const walkInBadEmail = await w.api('/api/admin/reservations/create-with-new-customer/', {
      method: 'POST',
      token: w.admin.token,
      json: {
        name: '新規',
        email: 'walkin@example.com\r\nBcc: evil@example.com',
        phone_number: '',
        service_id: service.id,
        start_time: at(DAYS[3]!, '12:00'),
        staff_id: staff.id,
      },
    });
    expect(walkInBadEmail.status).toBe(400);
    // A queued row whose recipient carries an injection (written by something other than the API, which refuses
    // such addresses): the worker refuses to send it, for good.
    const forged = await enqueueNotification(w.db, {
      salonId: t.salonId,
      channel: 'email',
      kind: 'reservation_accepted',
      recipient: 'victim@example.com\r\nBcc: evil@example.com',
      payload: { subject: '件名', text: '本文' },
    });

    const drained = await t.app.notifications.worker.drainOnce();
    // One e-mail per booking above: six by name and one after the rename (acceptances), the walk-in (confirmation).
    expect(drained.sent).toBe(injections.length + 2);
    expect(drained.failed).toBe(1);
    const [forgedRow] = await w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.id, forged));
    expect(forgedRow!.status).toBe('failed');
    expect(smtp.received.length).toBe(drained.sent);
    for (const mail of smtp.received) {
      const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
      expect(mail.envelopeTo, head).toHaveLength(1);
      expect(['victim@example.com', 'walkin@example.com']).toContain(mail.envelopeTo[0]);
      expect(head, head).not.toMatch(/^(bcc|cc|x-injected):/im);
      expect(Object.keys(mail.headers)).not.toContain('bcc');
      expect(Object.keys(mail.headers)).not.toContain('x-injected');
      // Every header line is a header: no injected blank line started the body early.
      for (const line of head.split('\r\n')) expect(line, head).toMatch(/^([\w-]+:|[ \t])/);
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }
    // The names arrived, in the body, as text.
    expect(smtp.received.some((mail) => mail.text.includes('山田'))).toBe(true);
  });
});

/** A path segment: percent-encoded, a lone surrogate as the bytes a sloppy client would send for it. */
function encodePart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** The text a browser shows for an HTML source's character references. */
function decodeEntities(html: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return html.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X')) return String.fromCodePoint(parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
    return named[code.toLowerCase()] ?? entity;
  });
}

/** A GET whose path goes out exactly as written (fetch would resolve `..` and `.` itself). */
function rawGet(
  baseUrl: string,
  rawPath: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path: rawPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
