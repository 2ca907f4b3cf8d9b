import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  startBookingApp,
  times,
  TODAY,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
  inputCast,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';
import { fuzzRuns } from '../helpers/fuzz';

const DAY = '2030-02-20';
const MALFORMED_DATES = ['2030-02-30', '2030-1-5', 'tomorrow', '2030-13-01', '20300101', ''];
/**
 * Property runs per endpoint: enough variety to reach past validation, small enough for a few seconds on either
 * engine (fast-check draws new cases every run, so runs add up over time). `TEST_FUZZ_RUNS` asks for more
 * (tests/helpers/fuzz.ts).
 */
const RUNS = fuzzRuns(50);

/**
 * Acceptance item 5, the property part: random JSON bodies and query strings (mostly plausible, so that the
 * services and the database run too) on every booking endpoint, with the right caller, another one or none.
 * Never a 5xx; every answer is JSON; every 4xx has a Japanese `detail`.
 */
describe(`booking endpoints under random input on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let hanako: CustomerMember;
  let short: ServiceRow;
  let retired: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    ({ staff, hanako, short, retired } = await inputCast(w, 'fuzz-a', DAY));
  });
  afterAll(() => w?.close());

  let numbers: string[];
  let tokens: { customer: string; staff: string; admin: string };

  beforeAll(async () => {
    const own = await w.booked(hanako, short.id, at(DAY, '15:00'));
    const other = await w.customer({ name: '別の 客', email: 'other@example.com' });
    const theirs = await w.booked(other, short.id, at(DAY, '15:30'));
    numbers = [own.reservation_number, theirs.reservation_number, own.reservation_number.toUpperCase()];
    tokens = { customer: hanako.token, staff: staff.token, admin: w.admin.token };
  });

  // Mostly values that pass validation (so the handlers, the services and the database run), now and then
  // anything at all: a wrong type, a malformed string, a missing or an extra field.
  const anything = fc.jsonValue({ maxDepth: 2 });
  const mostly = <T>(plausible: fc.Arbitrary<T>, junk: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 8, arbitrary: plausible }, { weight: 1, arbitrary: junk });
  const validDate = fc.oneof(
    fc.constantFrom(DAY, TODAY, '2030-01-09', '2030-02-21', '2030-01-11', '2100-12-31', '2000-01-01'),
    fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  );
  const date = mostly(validDate, fc.oneof(fc.constantFrom(...MALFORMED_DATES), fc.string({ maxLength: 12 })));
  const validTime = fc.constantFrom(...times('00:00', '24:00'));
  const time = mostly(
    validTime,
    fc.oneof(fc.constantFrom('10:15', '24:00', '9:00', '23:59', '10:00:00'), fc.string({ maxLength: 6 })),
  );
  const dateTime = mostly(
    fc.oneof(
      // Open times of the test day: these reach the booking itself.
      fc.constantFrom(...times('09:00', '21:00')).map((t) => at(DAY, t)),
      fc.tuple(validDate, validTime, fc.constantFrom('', ':00')).map(([d, t, s]) => `${d}T${t}${s}`),
    ),
    fc.oneof(
      fc.tuple(date, time, fc.constantFrom('', ':30', 'Z', '+09:00')).map(([d, t, s]) => `${d}T${t}${s}`),
      anything,
    ),
  );
  const id = (valid: () => number[]) =>
    mostly(
      fc.constantFrom(...valid()),
      fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 12 }), fc.constant(2 ** 31), anything),
    );
  const text = mostly(
    fc.constantFrom('山田 花子', 'ヤマダ', 'a@example.com', '09012345678', ''),
    fc.oneof(fc.string(), anything),
  );
  const year = mostly(fc.integer({ min: 2029, max: 2031 }), fc.oneof(fc.integer({ min: 1990, max: 2110 }), text));
  const month = mostly(fc.integer({ min: 1, max: 12 }), fc.oneof(fc.integer({ min: -1, max: 14 }), text));
  const status = mostly(
    fc.constantFrom('pending', 'confirmed', 'cancelled', 'completed', 'no_show'),
    fc.oneof(fc.constantFrom('PENDING', ''), text),
  );

  /** Known fields (each now and then missing) plus, now and then, an unknown one. */
  const fieldsOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
    fc
      .tuple(
        fc.record(
          Object.fromEntries(
            Object.entries(fields).map(([key, arb]) => [key, fc.option(arb, { nil: undefined, freq: 10 })]),
          ),
        ),
        fc.option(fc.dictionary(fc.string({ maxLength: 8 }), anything, { minKeys: 1, maxKeys: 2 }), {
          nil: {},
          freq: 2,
        }),
      )
      .map(([known, extra]) => ({
        ...extra,
        ...Object.fromEntries(Object.entries(known).filter(([, value]) => value !== undefined)),
      }));
  /** A body: mostly an object of the endpoint's fields, sometimes not an object at all. */
  const body = (fields: Record<string, fc.Arbitrary<unknown>>) =>
    fc.oneof({ weight: 9, arbitrary: fieldsOf(fields) }, { weight: 1, arbitrary: anything });
  /** A query string of the endpoint's fields (a key now and then repeated), or a raw random string. */
  const query = (fields: Record<string, fc.Arbitrary<unknown>>) =>
    fc.oneof(
      {
        weight: 9,
        arbitrary: fc
          .tuple(
            fieldsOf(fields),
            fc.oneof(
              { weight: 7, arbitrary: fc.constant(undefined) },
              { weight: 1, arbitrary: fc.constantFrom(...Object.keys(fields)) },
            ),
          )
          .map(([known, repeated]) => {
            const params = new URLSearchParams();
            for (const [key, value] of Object.entries(known)) {
              const text = typeof value === 'string' ? value : JSON.stringify(value);
              params.append(key, text);
              if (key === repeated) params.append(key, text);
            }
            return params.toString();
          }),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((raw) => raw.replaceAll('#', '%23')) },
    );
  const number = () =>
    mostly(fc.constantFrom(...numbers), fc.oneof(fc.uuid(), fc.string({ maxLength: 70 }).map(encodeURIComponent)));
  const services = () => [short.id, short.id, short.id, retired.id];
  const staffIds = () => [staff.id, w.admin.id];

  type Role = keyof typeof tokens | 'none';
  interface Endpoint {
    name: string;
    method: 'GET' | 'POST';
    /** The callers the endpoint is for; other callers are tried now and then too. */
    roles: Role[];
    path: () => fc.Arbitrary<string>;
    body?: () => fc.Arbitrary<unknown>;
  }
  const get = (path: string, roles: Role[], fields: () => Record<string, fc.Arbitrary<unknown>>): Endpoint => ({
    name: `GET ${path}`,
    method: 'GET',
    roles,
    path: () => query(fields()).map((q) => `${path}?${q}`),
  });
  const postBody = (path: string, roles: Role[], fields: () => Record<string, fc.Arbitrary<unknown>>): Endpoint => ({
    name: `POST ${path}`,
    method: 'POST',
    roles,
    path: () => fc.constant(path),
    body: () => body(fields()),
  });
  const onNumber = (method: 'GET' | 'POST', prefix: string, suffix: string, roles: Role[]): Endpoint => ({
    name: `${method} ${prefix}{n}/${suffix}`,
    method,
    roles,
    path: () => number().map((n) => `${prefix}${n}/${suffix}`),
    body: method === 'POST' ? () => fc.option(anything, { nil: undefined }) : undefined,
  });
  const anyone: Role[] = ['none'];
  const customer: Role[] = ['customer'];
  const staffOrAdmin: Role[] = ['staff', 'admin'];

  const endpoints: Endpoint[] = [
    get('/api/services/', anyone, () => ({ salon: id(() => [w.t.salonId]) })),
    get('/api/bookable-dates/', anyone, () => ({ year, month, service_id: id(services) })),
    get('/api/availability/', anyone, () => ({ date, service_id: id(services) })),
    postBody('/api/reservations/', customer, () => ({
      salon: id(() => [w.t.salonId]),
      service: id(services),
      start_time: dateTime,
      customer_name: mostly(fc.constantFrom('山田 花子', 'A'), text),
      customer_furigana: mostly(fc.constantFrom('ヤマダ ハナコ', ''), text),
      customer_email: mostly(fc.oneof(fc.constant('hanako@example.com'), fc.emailAddress()), text),
      customer_phone: mostly(fc.constantFrom('09012345678', ''), text),
    })),
    onNumber('GET', '/api/reservations/', '', customer),
    onNumber('GET', '/api/reservations/', '', staffOrAdmin),
    onNumber('POST', '/api/reservations/', 'confirm/', staffOrAdmin),
    onNumber('POST', '/api/reservations/', 'cancel/', customer),
    postBody('/api/confirm-reservation-and-notify/', customer, () => ({ reservation_number: text })),
    get('/api/admin/reservations/', staffOrAdmin, () => ({
      start_date: date,
      end_date: date,
      status,
      user_id: id(staffIds),
      updated_since: mostly(
        fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        fc.oneof(
          dateTime,
          fc.constantFrom('2030-01-01T00:00:00+99:99', '2030-01-01T00:00:00+24:00', '2030-02-30T00:00:00Z'),
        ),
      ),
      limit: mostly(fc.integer({ min: 1, max: 1000 }), fc.oneof(fc.integer({ min: -1, max: 2000 }), text)),
      offset: mostly(fc.integer({ min: 0, max: 20 }), fc.oneof(fc.integer({ min: -1, max: 20 }), text)),
    })),
    onNumber('GET', '/api/admin/reservations/', '', staffOrAdmin),
    ...['confirm/', 'cancel/', 'complete/', 'no-show/'].map((action) =>
      onNumber('POST', '/api/admin/reservations/', action, staffOrAdmin),
    ),
    postBody('/api/admin/reservations/create-for-customer/', staffOrAdmin, () => ({
      service_id: id(services),
      customer_id: id(() => [hanako.id]),
      start_time: dateTime,
      staff_id: id(staffIds),
    })),
    postBody('/api/admin/reservations/create-with-new-customer/', staffOrAdmin, () => ({
      name: mostly(fc.constantFrom('山田 花子', '新規 さん'), text),
      phone_number: mostly(fc.constantFrom('09012345678', ''), text),
      email: mostly(fc.oneof(fc.constant(''), fc.emailAddress()), text),
      service_id: id(services),
      start_time: dateTime,
      staff_id: id(staffIds),
    })),
    get('/api/admin/available-slots/', staffOrAdmin, () => ({ date, user_id: id(staffIds) })),
    postBody('/api/admin/available-slots/', staffOrAdmin, () => ({
      date,
      times: mostly(
        fc.array(
          validTime.filter((t) => t >= '09:00' && t < '21:00'),
          { maxLength: 24 },
        ),
        fc.oneof(fc.array(time, { maxLength: 50 }), anything),
      ),
      user_id: id(staffIds),
    })),
    get('/api/admin/configured-dates/', staffOrAdmin, () => ({ year, month, user_id: id(staffIds) })),
    get('/api/admin/detailed-time-slots/', staffOrAdmin, () => ({ date, user_id: id(staffIds) })),
  ];

  it.each(endpoints.map((endpoint) => [endpoint.name, endpoint] as const))('%s', async (_name, endpoint) => {
    // Mostly a caller the endpoint is for; sometimes another one, or none.
    const role = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...endpoint.roles) },
      { weight: 2, arbitrary: fc.constantFrom<Role>('customer', 'staff', 'admin', 'none') },
    );
    await fc.assert(
      fc.asyncProperty(
        endpoint.path(),
        endpoint.body ? endpoint.body() : fc.constant(undefined),
        role,
        async (path, json, caller) => {
          const token = caller === 'none' ? undefined : tokens[caller];
          const result = await w.api(path, {
            method: endpoint.method,
            token,
            json: endpoint.method === 'POST' ? json : undefined,
          });
          const label = `${endpoint.method} ${path} ${JSON.stringify(json)?.slice(0, 300)} -> ${result.status} ${result.text.slice(0, 300)}`;
          expect(result.status, label).toBeLessThan(500);
          expect(result.headers.get('content-type') ?? '', label).toContain('application/json');
          if (result.status >= 400)
            expect(typeof result.body.detail === 'string' && result.body.detail.length > 0, label).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
