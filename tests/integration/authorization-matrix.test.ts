/**
 * The authorization matrix (issue 4): every route the server registers, called by six principals, each with
 * the expected status. The routes are enumerated from the app itself, so a new route without a row here fails
 * the suite, and so does a row for a route that no longer exists.
 *
 * Objects belong to staff A: their customer (who is also the customer principal), reservations assigned to A.
 * Staff B acting on them must get 404 (as if they did not exist); the front desk (受付, issue 32) reaches them like
 * the owner but is refused the owner's routes. Every refused request must leave the database exactly as it was
 * (a digest of every table is compared).
 */
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, products, salonHolidays, waitlistEntries } from '../../server/db/schema';
import { addDaysToDate } from '../../src/shared/time';
import type { ApiInit } from '../helpers/app';
import {
  at,
  startBookingApp,
  times,
  TODAY,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';
import { createCustomer } from '../helpers/factories';
import { fakeBrowser } from '../helpers/fake-push-service';

const PRINCIPALS = ['anonymous', 'customer', 'staffB', 'staffA', 'frontDesk', 'superuser'] as const;
type Principal = (typeof PRINCIPALS)[number];
type Expected = Record<Principal, number>;

interface Call {
  path: string;
  json?: unknown;
  form?: FormData;
  body?: string;
  headers?: Record<string, string>;
}

interface Row {
  /** `METHOD /url` exactly as registered. */
  route: string;
  expect: Expected;
  /** Builds the request for one principal, on fresh objects when the call consumes them. */
  call(principal: Principal): Promise<Call> | Call;
}

const everyone = (status: number): Expected => ({
  anonymous: status,
  customer: status,
  staffB: status,
  staffA: status,
  frontDesk: status,
  superuser: status,
});
/** Any staff member: objects that are not A's, or lists that each one sees scoped. */
const anyStaff = (ok: number): Expected => ({
  anonymous: 401,
  customer: 401,
  staffB: ok,
  staffA: ok,
  frontDesk: ok,
  superuser: ok,
});
/** A's objects: B gets 404; the front desk reaches every booking and customer like the owner. */
const scopedToA = (ok: number): Expected => ({
  anonymous: 401,
  customer: 401,
  staffB: 404,
  staffA: ok,
  frontDesk: ok,
  superuser: ok,
});
/** The owner's: settings, staff accounts, statistics, holidays (the front desk too is refused). */
const superuserOnly = (ok: number): Expected => ({
  anonymous: 401,
  customer: 401,
  staffB: 403,
  staffA: 403,
  frontDesk: 403,
  superuser: ok,
});
const customerOnly = (ok: number): Expected => ({
  anonymous: 401,
  customer: ok,
  staffB: 401,
  staffA: 401,
  frontDesk: 401,
  superuser: 401,
});

/**
 * Tables whose content a refused request must not change (everything the app writes). The outbox is compared
 * by its rows' identity only, should a worker update delivery state while the test runs (the one of this world is
 * not started, below).
 */
const DIGEST_COLUMNS: Record<string, string> = { notifications_outbox: 'id, kind, recipient, payload' };
const DIGEST_TABLES = [
  'salons',
  'staff_users',
  'services',
  'service_options',
  'service_option_links',
  'customers',
  'opening_slots',
  'shift_templates',
  'salon_holidays',
  'schedule_exceptions',
  'reservations',
  'visit_notes',
  'visit_photos',
  'broadcasts',
  'broadcast_recipients',
  'line_messages',
  'link_tokens',
  'staff_calendar_feeds',
  'staff_push_subscriptions',
  'refresh_tokens',
  'idempotency_keys',
  'notifications_outbox',
  'webhook_events',
  'waitlist_entries',
  'waitlist_offers',
  'products',
  'checkouts',
  'checkout_corrections',
  'register_closings',
] as const;

describe(`authorization matrix on ${testEngine}`, () => {
  let world: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let frontDesk: StaffMember;
  let customer: CustomerMember;
  let service: ServiceRow;
  let hour = 0;

  const tokenOf = (principal: Principal): string | undefined =>
    ({
      anonymous: undefined,
      customer: customer.token,
      staffB: staffB.token,
      staffA: staffA.token,
      frontDesk: frontDesk.token,
      superuser: world.admin.token,
    })[principal];

  /** A push endpoint no other call used (the server never sends to it here). */
  let pushEndpoints = 0;
  const freshPushEndpoint = () => `http://127.0.0.1:9/push/matrix-${++pushEndpoints}`;

  /** A start no other fixture uses: one hour apart from 2030-02-01 10:00, far from the fixed now. */
  function freshStart(): string {
    const index = hour++;
    const day = addDaysToDate('2030-02-01', Math.floor(index / 10));
    return at(day, `${String(10 + (index % 10)).padStart(2, '0')}:00`);
  }

  /** A pending reservation of the customer principal with staff A (or a past one, for complete / no-show). */
  async function freshReservation(options: { past?: boolean } = {}): Promise<string> {
    const start = options.past
      ? at(addDaysToDate(TODAY, -1 - Math.floor(hour++ / 10)), `${String(10 + (hour % 10)).padStart(2, '0')}:00`)
      : freshStart();
    const row = await world.insertReservation({ staffId: staffA.id, customer, service, start, status: 'pending' });
    return row.reservation_number;
  }

  /** A customer of staff A (or of `owner`), optionally linked to LINE. */
  async function freshCustomerOfA(options: { linked?: boolean; owner?: StaffMember } = {}) {
    const row = await createCustomer(world.db, world.t.salonId, {
      name: '鈴木 一郎',
      furigana: 'スズキ イチロウ',
      lineUserId: options.linked ? `U${Math.random().toString(16).slice(2).padEnd(32, '0')}` : undefined,
    });
    await world.db
      .update(customers)
      .set({ assigned_staff_id: (options.owner ?? staffA).id })
      .where(sql`${customers.id} = ${row.id}`);
    return row;
  }

  /** A finished visit of the customer principal with staff A (カルテ routes take only those). */
  async function completedVisitOfA(): Promise<string> {
    const number = await freshReservation({ past: true });
    await world.db.execute(sql`update reservations set status = 'completed' where reservation_number = ${number}`);
    return number;
  }

  /** A photo row on a visit of A's (written directly: its file does not matter to a delete). */
  async function photoOfA(): Promise<number> {
    const number = await completedVisitOfA();
    const rows = (await world.db.execute(
      sql`insert into visit_photos (salon_id, reservation_id, customer_id, kind, file_name)
          select salon_id, id, customer_id, 'visit', ${`${'0'.repeat(32)}.jpg`} from reservations
          where reservation_number = ${number} returning id`,
    )) as unknown as { rows: Array<{ id: number }> };
    return rows.rows[0]!.id;
  }

  async function photoForm(): Promise<FormData> {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#f8bbd0' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('photo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'design.png');
    return form;
  }

  let waitlistDay = 0;
  /** A waiting entry of the customer principal, on a day of its own. */
  async function freshWaitlistEntry(): Promise<number> {
    const [row] = await world.db
      .insert(waitlistEntries)
      .values({
        salon_id: world.t.salonId,
        customer_id: customer.id,
        service_id: service.id,
        date: addDaysToDate('2030-03-01', waitlistDay++),
        time_from: '06:00',
        time_to: '07:00',
      })
      .returning({ id: waitlistEntries.id });
    return row!.id;
  }

  /** A product of the catalogue, written directly. */
  async function freshProduct(): Promise<number> {
    const [row] = await world.db
      .insert(products)
      .values({ salon_id: world.t.salonId, name: `商品${hour++}`, price: 1650, tax_rate: 10 })
      .returning({ id: products.id });
    return row!.id;
  }

  /** A checkout body for a reservation (paid by card). */
  const checkoutOf = (reservationNumber: string) => ({
    reservation_number: reservationNumber,
    lines: [{ kind: 'service', name: 'ジェルネイル', unit_price: 6000, quantity: 1, tax_rate: 10 }],
    payments: [{ method: 'card', amount: 6000 }],
  });

  /** A checkout of a past reservation of A's, rung up by A. */
  async function checkoutOfA(): Promise<number> {
    const result = await world.api('/api/admin/checkouts/', {
      method: 'POST',
      token: staffA.token,
      json: checkoutOf(await freshReservation({ past: true })),
    });
    expect(result.status).toBe(201);
    return result.body.id as number;
  }

  let closingDay = 0;

  async function freshService() {
    return world.service(`メニュー${hour++}`, 60, 4000);
  }

  async function digest(): Promise<Record<string, string>> {
    const result: Record<string, string> = {};
    for (const table of DIGEST_TABLES) {
      const columns = DIGEST_COLUMNS[table] ?? '*';
      const rows = (await world.db.execute(
        sql.raw(
          `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from (select ${columns} from ${table}) t`,
        ),
      )) as unknown as { rows: Array<{ digest: string }> };
      result[table] = rows.rows[0]!.digest;
    }
    return result;
  }

  const textForm = (text: string) => {
    const form = new FormData();
    form.set('text', text);
    return form;
  };

  const rows: Row[] = [
    // Public: the same answer whoever asks.
    { route: 'GET /api/config/', expect: everyone(200), call: () => ({ path: '/api/config/' }) },
    { route: 'GET /api/health/', expect: everyone(200), call: () => ({ path: '/api/health/' }) },
    { route: 'GET /api/salons/', expect: everyone(200), call: () => ({ path: '/api/salons/' }) },
    { route: 'GET /api/services/', expect: everyone(200), call: () => ({ path: '/api/services/' }) },
    { route: 'GET /api/staff/', expect: everyone(200), call: () => ({ path: '/api/staff/' }) },
    {
      route: 'GET /api/bookable-dates/',
      expect: everyone(200),
      call: () => ({ path: '/api/bookable-dates/?year=2030&month=2' }),
    },
    {
      route: 'GET /api/availability/',
      expect: everyone(200),
      call: () => ({ path: `/api/availability/?date=2030-02-01&service_id=${service.id}` }),
    },
    {
      route: 'POST /api/token/',
      expect: everyone(401),
      call: () => ({ path: '/api/token/', json: { username: 'nobody', password: 'wrong-password' } }),
    },
    {
      route: 'POST /api/token/refresh/',
      expect: everyone(401),
      call: () => ({ path: '/api/token/refresh/', json: { refresh: 'not-a-token' } }),
    },
    // The refresh token in the body is the credential (the access token may have expired): any bearer token is ignored.
    {
      route: 'POST /api/admin/logout/',
      expect: everyone(401),
      call: () => ({ path: '/api/admin/logout/', json: { refresh: 'not-a-token' } }),
    },
    {
      route: 'POST /api/line/callback/',
      expect: everyone(401),
      call: () => ({ path: '/api/line/callback/', json: { code: 'unknown-code' } }),
    },
    {
      route: 'POST /api/admin/login-line/',
      expect: everyone(401),
      call: () => ({ path: '/api/admin/login-line/', json: { code: 'unknown-code' } }),
    },
    {
      route: 'POST /api/admin/link-line/',
      expect: everyone(400),
      call: () => ({ path: '/api/admin/link-line/', json: { token: 'no-such-token', code: 'unknown-code' } }),
    },
    {
      route: 'GET /api/link-customer/:token/',
      expect: everyone(404),
      call: () => ({ path: '/api/link-customer/no-such-token/' }),
    },
    {
      route: 'POST /api/link-customer/',
      expect: everyone(400),
      call: () => ({ path: '/api/link-customer/', json: { token: 'no-such-token', code: 'unknown-code' } }),
    },
    {
      route: 'POST /api/line/webhook/',
      expect: everyone(401),
      call: () => ({
        path: '/api/line/webhook/',
        body: '{"destination":"x","events":[]}',
        headers: { 'content-type': 'application/json' },
      }),
    },
    { route: 'GET /media/:name', expect: everyone(404), call: () => ({ path: `/media/${'0'.repeat(32)}.png` }) },
    // Staff photos are public like the staff list that names them (GET /api/staff/).
    {
      route: 'GET /api/staff-pictures/:name',
      expect: everyone(404),
      call: () => ({ path: `/api/staff-pictures/${'0'.repeat(32)}.png` }),
    },

    // Customer only.
    { route: 'GET /api/me/', expect: customerOnly(200), call: () => ({ path: '/api/me/' }) },
    {
      route: 'PUT /api/me/rebook-prompts/',
      expect: customerOnly(200),
      call: () => ({ path: '/api/me/rebook-prompts/', json: { enabled: true } }),
    },
    {
      route: 'POST /api/reservations/',
      expect: customerOnly(201),
      call: () => ({
        path: '/api/reservations/',
        json: {
          salon: world.t.salonId,
          service: service.id,
          start_time: freshStart(),
          customer_name: customer.name,
          customer_furigana: customer.furigana,
          customer_email: 'customer@example.com',
          customer_phone: '0312345678',
        },
      }),
    },
    { route: 'GET /api/reservations/', expect: customerOnly(200), call: () => ({ path: '/api/reservations/' }) },
    {
      route: 'POST /api/confirm-reservation-and-notify/',
      expect: customerOnly(200),
      call: () => ({ path: '/api/confirm-reservation-and-notify/' }),
    },

    // The shared detail page: the owning customer or staff in scope.
    {
      route: 'GET /api/reservations/:reservationNumber/',
      expect: { ...scopedToA(200), customer: 200 },
      call: async () => ({ path: `/api/reservations/${await freshReservation()}/` }),
    },
    {
      // The e-mail link: its secret, not a session, opens the reservation (read-only) for whoever holds it.
      route: 'GET /api/reservations/:reservationNumber/by-link/',
      expect: everyone(200),
      call: async () => {
        const number = await freshReservation();
        const rows = (await world.db.execute(
          sql`select link_secret from reservations where reservation_number = ${number}`,
        )) as unknown as {
          rows: Array<{ link_secret: string }>;
        };
        return { path: `/api/reservations/${number}/by-link/?t=${rows.rows[0]!.link_secret}` };
      },
    },
    {
      route: 'POST /api/reservations/:reservationNumber/confirm/',
      expect: { ...scopedToA(200), customer: 403 },
      call: async () => ({ path: `/api/reservations/${await freshReservation()}/confirm/` }),
    },
    {
      route: 'POST /api/reservations/:reservationNumber/cancel/',
      expect: { ...scopedToA(200), customer: 200 },
      call: async () => ({ path: `/api/reservations/${await freshReservation()}/cancel/` }),
    },
    {
      route: 'POST /api/reservations/:reservationNumber/reschedule/',
      expect: customerOnly(200),
      call: async () => ({
        path: `/api/reservations/${await freshReservation()}/reschedule/`,
        json: { start_time: freshStart() },
      }),
    },

    // Staff: reservations.
    { route: 'GET /api/admin/me/', expect: anyStaff(200), call: () => ({ path: '/api/admin/me/' }) },
    // Each staff member replaces their own calendar URL; nobody else's can be named.
    {
      route: 'POST /api/admin/me/calendar-feed/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/me/calendar-feed/' }),
    },
    // The calendar feed: the token in the path is the only credential, so every caller gets the same answer.
    {
      route: 'GET /api/calendar/:token.ics',
      expect: everyone(200),
      call: async () => {
        const me = await world.api('/api/admin/me/', { token: staffA.token });
        return { path: new URL(me.body.calendar_feed_url as string).pathname };
      },
    },
    // Web Push: each staff member lists, adds and removes only their own browsers; another's endpoint is a 404.
    {
      route: 'GET /api/admin/push-subscriptions/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/push-subscriptions/' }),
    },
    {
      route: 'POST /api/admin/push-subscriptions/',
      expect: anyStaff(201),
      call: () => ({ path: '/api/admin/push-subscriptions/', json: fakeBrowser(freshPushEndpoint()).subscription }),
    },
    {
      route: 'DELETE /api/admin/push-subscriptions/',
      expect: { anonymous: 401, customer: 401, staffB: 404, staffA: 204, frontDesk: 404, superuser: 404 },
      call: async () => {
        const { subscription } = fakeBrowser(freshPushEndpoint());
        const added = await world.api('/api/admin/push-subscriptions/', {
          method: 'POST',
          token: staffA.token,
          json: subscription,
        });
        expect(added.status).toBe(201);
        return { path: '/api/admin/push-subscriptions/', json: { endpoint: subscription.endpoint } };
      },
    },
    // Live updates: max_seconds=0 ends the event stream right after its `ready` event, so the call returns.
    {
      route: 'GET /api/admin/events/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/events/?max_seconds=0' }),
    },
    {
      route: 'GET /api/admin/reservations/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/reservations/' }),
    },
    {
      route: 'GET /api/admin/reservations/:reservationNumber/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await freshReservation()}/` }),
    },
    {
      route: 'POST /api/admin/reservations/:reservationNumber/confirm/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await freshReservation()}/confirm/` }),
    },
    {
      route: 'POST /api/admin/reservations/:reservationNumber/cancel/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await freshReservation()}/cancel/` }),
    },
    {
      route: 'POST /api/admin/reservations/:reservationNumber/complete/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await freshReservation({ past: true })}/complete/` }),
    },
    {
      route: 'POST /api/admin/reservations/:reservationNumber/no-show/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await freshReservation({ past: true })}/no-show/` }),
    },
    {
      route: 'POST /api/admin/reservations/:reservationNumber/reschedule/',
      expect: scopedToA(200),
      call: async () => ({
        path: `/api/admin/reservations/${await freshReservation()}/reschedule/`,
        json: { start_time: freshStart() },
      }),
    },
    {
      route: 'POST /api/admin/reservations/create-for-customer/',
      expect: scopedToA(201),
      call: () => ({
        path: '/api/admin/reservations/create-for-customer/',
        json: { service_id: service.id, customer_id: customer.id, start_time: freshStart() },
      }),
    },
    {
      route: 'POST /api/admin/reservations/create-with-new-customer/',
      expect: anyStaff(201),
      call: () => ({
        path: '/api/admin/reservations/create-with-new-customer/',
        json: { name: '新規 太郎', phone_number: '', email: '', service_id: service.id, start_time: freshStart() },
      }),
    },

    // Staff: schedule (each staff member edits their own).
    {
      route: 'GET /api/admin/available-slots/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/available-slots/?date=2030-03-01' }),
    },
    {
      route: 'POST /api/admin/available-slots/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/available-slots/', json: { date: '2030-03-01', times: ['10:00'] } }),
    },
    {
      route: 'GET /api/admin/configured-dates/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/configured-dates/?year=2030&month=2' }),
    },
    {
      route: 'GET /api/admin/detailed-time-slots/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/detailed-time-slots/?date=2030-02-01' }),
    },
    {
      route: 'DELETE /api/admin/available-slots/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/available-slots/?date=2030-03-01' }),
    },
    {
      route: 'GET /api/admin/schedule-days/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/schedule-days/?year=2030&month=3' }),
    },
    // Weekly shifts: each staff member their own (an empty template: a change that strands nothing).
    { route: 'GET /api/admin/shifts/', expect: anyStaff(200), call: () => ({ path: '/api/admin/shifts/' }) },
    {
      route: 'PUT /api/admin/shifts/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/shifts/', json: { days: [] } }),
    },
    // Salon holidays: everyone reads them, the superuser sets them (on a day far from every booking here).
    {
      route: 'GET /api/admin/holidays/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/holidays/?year=2031&month=12' }),
    },
    {
      route: 'POST /api/admin/holidays/',
      expect: superuserOnly(201),
      call: () => ({ path: '/api/admin/holidays/', json: { date: '2031-12-31', note: '年末休業' } }),
    },
    {
      route: 'DELETE /api/admin/holidays/:date/',
      expect: superuserOnly(204),
      call: async () => {
        await world.db
          .insert(salonHolidays)
          .values({ salon_id: world.t.salonId, holiday_date: '2031-12-30' })
          .onConflictDoNothing();
        return { path: '/api/admin/holidays/2031-12-30/' };
      },
    },

    // Staff: the menu.
    {
      route: 'POST /api/services/',
      expect: anyStaff(201),
      call: () => ({
        path: '/api/services/',
        json: { name: 'ケア', price: 3000, duration_minutes: 30, salon: world.t.salonId },
      }),
    },
    {
      route: 'PATCH /api/services/:id/',
      expect: anyStaff(200),
      call: async () => ({ path: `/api/services/${(await freshService()).id}/`, json: { price: 4500 } }),
    },
    {
      route: 'DELETE /api/services/:id/',
      expect: anyStaff(204),
      call: async () => ({ path: `/api/services/${(await freshService()).id}/` }),
    },
    {
      route: 'POST /api/services/:id/options/',
      expect: anyStaff(201),
      call: () => ({
        path: `/api/services/${service.id}/options/`,
        json: { name: 'ストーン', price: 550, duration_minutes: 15 },
      }),
    },
    {
      route: 'PATCH /api/services/:id/options/:optionId/',
      expect: anyStaff(200),
      call: async () => {
        const option = await world.option(service.id, `オプション${hour++}`, 10);
        return { path: `/api/services/${service.id}/options/${option.id}/`, json: { price: 770 } };
      },
    },
    {
      route: 'DELETE /api/services/:id/options/:optionId/',
      expect: anyStaff(204),
      call: async () => {
        const option = await world.option(service.id, `オプション${hour++}`, 10);
        return { path: `/api/services/${service.id}/options/${option.id}/` };
      },
    },

    // Staff: the salon's options, each with the menus that allow it (the menu screen's オプション section).
    { route: 'GET /api/admin/options/', expect: anyStaff(200), call: () => ({ path: '/api/admin/options/' }) },
    {
      route: 'POST /api/admin/options/',
      expect: anyStaff(201),
      call: () => ({
        path: '/api/admin/options/',
        json: { name: 'ジェルオフ', price: 1100, duration_minutes: 30, service_ids: [service.id] },
      }),
    },
    {
      route: 'PATCH /api/admin/options/:id/',
      expect: anyStaff(200),
      call: async () => {
        const option = await world.option(service.id, `オプション${hour++}`, 10);
        return { path: `/api/admin/options/${option.id}/`, json: { price: 770, service_ids: [service.id] } };
      },
    },
    {
      route: 'DELETE /api/admin/options/:id/',
      expect: anyStaff(204),
      call: async () => ({
        path: `/api/admin/options/${(await world.option(service.id, `オプション${hour++}`, 10)).id}/`,
      }),
    },

    // Staff: customers and messages.
    { route: 'GET /api/admin/customers/', expect: anyStaff(200), call: () => ({ path: '/api/admin/customers/' }) },
    {
      route: 'GET /api/admin/customers/:id/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/customers/${(await freshCustomerOfA()).id}/` }),
    },
    {
      route: 'PATCH /api/admin/customers/:id/',
      expect: scopedToA(200),
      call: async () => ({
        path: `/api/admin/customers/${(await freshCustomerOfA()).id}/`,
        json: { notes: 'ジェルは薄め' },
      }),
    },
    {
      route: 'GET /api/admin/customers/:id/reservations/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/customers/${(await freshCustomerOfA()).id}/reservations/` }),
    },
    {
      route: 'POST /api/admin/customers/:id/generate-line-link/',
      expect: superuserOnly(201),
      call: async () => ({ path: `/api/admin/customers/${(await freshCustomerOfA()).id}/generate-line-link/` }),
    },
    {
      route: 'DELETE /api/admin/customers/:id/line-link/',
      expect: superuserOnly(204),
      call: async () => ({ path: `/api/admin/customers/${(await freshCustomerOfA({ linked: true })).id}/line-link/` }),
    },
    {
      route: 'POST /api/admin/customers/:id/send-message/',
      expect: scopedToA(201),
      call: async () => ({
        path: `/api/admin/customers/${(await freshCustomerOfA({ linked: true })).id}/send-message/`,
        form: textForm('ご来店ありがとうございました。'),
      }),
    },
    {
      route: 'GET /api/admin/line-history/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/line-history/' }),
    },
    {
      route: 'POST /api/admin/send-bulk-message/',
      expect: anyStaff(201),
      // Every staff member reaches their own linked customers (and so queues something).
      call: async (principal) => {
        await freshCustomerOfA({ linked: true, owner: principal === 'staffB' ? staffB : staffA });
        return { path: '/api/admin/send-bulk-message/', form: textForm('年末年始の営業のお知らせです。') };
      },
    },

    // Staff: settings (everyone reads, the superuser changes).
    { route: 'GET /api/admin/settings/', expect: anyStaff(200), call: () => ({ path: '/api/admin/settings/' }) },
    {
      route: 'PATCH /api/admin/settings/',
      expect: superuserOnly(200),
      call: () => ({ path: '/api/admin/settings/', json: { cancellation_deadline_days: 1 } }),
    },
    // This month's LINE pushes against the plan's limit (server/outbox/line-budget.ts).
    { route: 'GET /api/admin/line-usage/', expect: anyStaff(200), call: () => ({ path: '/api/admin/line-usage/' }) },

    // キャンセル待ち: the customer's own entries (another's is a 404), a day's list for staff (scoped in waitlist.test.ts).
    // Windows at 06:00, when nobody works, so that a worker would never offer them anything meanwhile.
    {
      route: 'POST /api/waitlist/',
      expect: customerOnly(201),
      call: () => ({
        path: '/api/waitlist/',
        json: { service_id: service.id, date: '2030-03-20', time_from: '06:00', time_to: '07:00' },
      }),
    },
    { route: 'GET /api/waitlist/', expect: customerOnly(200), call: () => ({ path: '/api/waitlist/' }) },
    {
      route: 'GET /api/waitlist/:id/',
      expect: customerOnly(200),
      call: async () => ({ path: `/api/waitlist/${await freshWaitlistEntry()}/` }),
    },
    {
      route: 'DELETE /api/waitlist/:id/',
      expect: customerOnly(204),
      call: async () => ({ path: `/api/waitlist/${await freshWaitlistEntry()}/` }),
    },
    // The day board: every staff member, each seeing the columns their role reaches (day-board.test.ts).
    {
      route: 'GET /api/admin/day-board/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/day-board/?date=2030-02-01' }),
    },
    {
      route: 'GET /api/admin/waitlist/',
      expect: anyStaff(200),
      call: () => ({ path: '/api/admin/waitlist/?date=2030-03-20' }),
    },

    // カルテ (server/features/karte): a visit of A's, its photos and note; customers' reference images.
    {
      route: 'GET /api/admin/reservations/:reservationNumber/karte/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await completedVisitOfA()}/karte/` }),
    },
    {
      route: 'POST /api/admin/reservations/:reservationNumber/photos/',
      expect: scopedToA(201),
      call: async () => ({
        path: `/api/admin/reservations/${await completedVisitOfA()}/photos/`,
        form: await photoForm(),
      }),
    },
    {
      route: 'PUT /api/admin/reservations/:reservationNumber/visit-note/',
      expect: scopedToA(200),
      call: async () => ({
        path: `/api/admin/reservations/${await completedVisitOfA()}/visit-note/`,
        json: { note: 'ワンカラー、次回はフレンチ希望' },
      }),
    },
    {
      route: 'DELETE /api/admin/visit-photos/:id/',
      expect: scopedToA(204),
      call: async () => ({ path: `/api/admin/visit-photos/${await photoOfA()}/` }),
    },
    {
      route: 'GET /api/admin/customers/:id/visits/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/customers/${(await freshCustomerOfA()).id}/visits/` }),
    },
    {
      route: 'POST /api/reservations/:reservationNumber/photos/',
      expect: customerOnly(201),
      call: async () => ({ path: `/api/reservations/${await freshReservation()}/photos/`, form: await photoForm() }),
    },
    {
      route: 'GET /api/reservations/:reservationNumber/photos/',
      expect: customerOnly(200),
      call: async () => ({ path: `/api/reservations/${await freshReservation()}/photos/` }),
    },
    // The signed URL is the credential (an <img> sends no token): whoever holds one gets the photo.
    {
      route: 'GET /api/visit-photos/:id/:variant/',
      expect: everyone(200),
      call: async () => {
        const uploaded = await world.api(`/api/admin/reservations/${await completedVisitOfA()}/photos/`, {
          method: 'POST',
          token: staffA.token,
          form: await photoForm(),
        });
        return { path: uploaded.body.thumbnail_url as string };
      },
    },

    // The register (会計): staff read the products and check out what is in their scope; the superuser changes the
    // catalogue, voids, refunds, closes the day and reads the takings.
    { route: 'GET /api/admin/products/', expect: anyStaff(200), call: () => ({ path: '/api/admin/products/' }) },
    {
      route: 'POST /api/admin/products/',
      expect: superuserOnly(201),
      call: () => ({ path: '/api/admin/products/', json: { name: 'ハンドクリーム', price: 1650, tax_rate: 10 } }),
    },
    {
      route: 'PATCH /api/admin/products/:id/',
      expect: superuserOnly(200),
      call: async () => ({ path: `/api/admin/products/${await freshProduct()}/`, json: { price: 1760 } }),
    },
    {
      route: 'DELETE /api/admin/products/:id/',
      expect: superuserOnly(204),
      call: async () => ({ path: `/api/admin/products/${await freshProduct()}/` }),
    },
    {
      route: 'GET /api/admin/reservations/:reservationNumber/checkout-draft/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/reservations/${await freshReservation()}/checkout-draft/` }),
    },
    {
      route: 'POST /api/admin/checkouts/',
      expect: scopedToA(201),
      call: async () => ({ path: '/api/admin/checkouts/', json: checkoutOf(await freshReservation({ past: true })) }),
    },
    { route: 'GET /api/admin/checkouts/', expect: anyStaff(200), call: () => ({ path: '/api/admin/checkouts/' }) },
    {
      route: 'GET /api/admin/checkouts/:id/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/checkouts/${await checkoutOfA()}/` }),
    },
    {
      route: 'GET /api/admin/checkouts/:id/receipt/',
      expect: scopedToA(200),
      call: async () => ({ path: `/api/admin/checkouts/${await checkoutOfA()}/receipt/` }),
    },
    {
      route: 'POST /api/admin/checkouts/:id/send-receipt/',
      expect: scopedToA(202),
      call: async () => ({
        path: `/api/admin/checkouts/${await checkoutOfA()}/send-receipt/`,
        json: { channel: 'email' },
      }),
    },
    {
      route: 'POST /api/admin/checkouts/:id/void/',
      expect: superuserOnly(201),
      call: async () => ({ path: `/api/admin/checkouts/${await checkoutOfA()}/void/`, json: { reason: '打ち間違い' } }),
    },
    {
      route: 'POST /api/admin/checkouts/:id/refund/',
      expect: superuserOnly(201),
      call: async () => ({ path: `/api/admin/checkouts/${await checkoutOfA()}/refund/`, json: { reason: '返品' } }),
    },
    {
      // Past days far from every checkout here (today stays open for the checkout rows).
      route: 'POST /api/admin/register-closings/',
      expect: superuserOnly(201),
      call: () => ({
        path: '/api/admin/register-closings/',
        json: { date: addDaysToDate('2029-06-01', closingDay++), counted_cash: 0 },
      }),
    },
    {
      route: 'GET /api/admin/register-closings/',
      expect: superuserOnly(200),
      call: () => ({ path: '/api/admin/register-closings/?from=2029-06-01&to=2029-12-31' }),
    },
    {
      route: 'GET /api/admin/sales/',
      expect: superuserOnly(200),
      call: () => ({ path: '/api/admin/sales/?from=2030-01-01&to=2030-01-31&group=staff' }),
    },
    {
      route: 'GET /api/admin/sales/summary/',
      expect: superuserOnly(200),
      call: () => ({ path: '/api/admin/sales/summary/?from=2030-01-01&to=2030-01-31' }),
    },
    {
      route: 'GET /api/admin/checkouts.csv',
      expect: superuserOnly(200),
      call: () => ({ path: '/api/admin/checkouts.csv?from=2030-01-01&to=2030-01-31' }),
    },

    // Superuser only: staff management and statistics.
    { route: 'GET /api/statistics/', expect: superuserOnly(200), call: () => ({ path: '/api/statistics/' }) },
    { route: 'GET /api/admin/users/', expect: superuserOnly(200), call: () => ({ path: '/api/admin/users/' }) },
    {
      route: 'POST /api/admin/users/',
      expect: superuserOnly(201),
      call: () => ({
        path: '/api/admin/users/',
        json: {
          username: `staff${hour++}`,
          full_name: '新人 スタッフ',
          email: 'new@example.com',
          password: 'long-enough-password',
          is_superuser: false,
        },
      }),
    },
    {
      route: 'GET /api/admin/users/:id/',
      expect: superuserOnly(200),
      call: () => ({ path: `/api/admin/users/${staffB.id}/` }),
    },
    {
      route: 'PATCH /api/admin/users/:id/',
      expect: superuserOnly(200),
      call: () => ({ path: `/api/admin/users/${staffB.id}/`, json: { full_name: '佐藤 美咲' } }),
    },
    {
      route: 'POST /api/admin/users/:id/picture/',
      expect: superuserOnly(200),
      call: async () => ({ path: `/api/admin/users/${staffB.id}/picture/`, form: await photoForm() }),
    },
    {
      route: 'POST /api/admin/users/:id/generate-line-link/',
      expect: superuserOnly(201),
      call: () => ({ path: `/api/admin/users/${staffB.id}/generate-line-link/` }),
    },

    // The dev pages (LINE emulator, inbox, mailbox): public by nature, present only in LINE dev mode.
    { route: 'GET /dev/mail', expect: everyone(200), call: () => ({ path: '/dev/mail' }) },
    { route: 'GET /dev/line/inbox', expect: everyone(200), call: () => ({ path: '/dev/line/inbox' }) },
    { route: 'GET /dev/line/authorize', expect: everyone(400), call: () => ({ path: '/dev/line/authorize' }) },
    {
      route: 'POST /dev/line/oauth2/v2.1/token',
      expect: everyone(400),
      call: () => ({
        path: '/dev/line/oauth2/v2.1/token',
        body: 'grant_type=authorization_code&code=unknown',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    },
    { route: 'GET /dev/line/send', expect: everyone(200), call: () => ({ path: '/dev/line/send' }) },
    {
      route: 'POST /dev/line/send',
      expect: everyone(400),
      call: () => ({
        path: '/dev/line/send',
        body: 'user=&text=',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    },
  ];

  beforeAll(async () => {
    // No outbox worker in the background: what it writes after a booking (the event's messages, 100 ms later) would
    // land inside the next row's before-and-after digest, as if a refused request had written it.
    world = await startBookingApp({ notifications: { autoStart: false } });
    await world.setSalon({ max_upcoming_per_customer: 1000 });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await world.staff('matrix_a', 'スタッフ A');
    staffB = await world.staff('matrix_b', 'スタッフ B');
    frontDesk = await world.staff('matrix_desk', '受付 C', 'front_desk');
    customer = await world.customer({
      name: '山田 花子',
      furigana: 'ヤマダ ハナコ',
      email: 'hanako@example.com',
      assignedStaffId: staffA.id,
    });
    service = await world.service('ジェルネイル', 60, 6000);
    // Staff A is open every day the fixtures book, so customer bookings and availability have something to find.
    const days = Array.from({ length: 30 }, (_, i) => addDaysToDate('2030-02-01', i));
    await world.openSlotsDirect(staffA.id, days, times('10:00', '20:00'));
  });
  afterAll(() => world?.close());

  it('has exactly one row for every registered route', () => {
    const registered = world.t.app.registeredRoutes.map((route) => `${route.method} ${route.url}`).sort();
    const covered = rows.map((row) => row.route).sort();
    expect({
      missing: registered.filter((route) => !covered.includes(route)),
      stale: covered.filter((route) => !registered.includes(route)),
    }).toEqual({
      missing: [],
      stale: [],
    });
    expect(new Set(covered).size).toBe(covered.length);
  });

  for (const row of rows) {
    it(`${row.route}`, async () => {
      const [method] = row.route.split(' ') as [string];
      const outcomes: Record<string, number> = {};
      const unchanged: Record<string, boolean> = {};
      for (const principal of PRINCIPALS) {
        const call = await row.call(principal);
        const init: ApiInit = {
          method,
          token: tokenOf(principal),
          headers: call.headers,
          json: call.json,
          body: call.body,
          form: call.form,
        };
        const refused = [401, 403, 404].includes(row.expect[principal]);
        const before = refused ? await digest() : null;
        const result = await world.api(call.path, init);
        outcomes[principal] = result.status;
        if (before) unchanged[principal] = JSON.stringify(await digest()) === JSON.stringify(before);
        if (
          [401, 403, 404].includes(result.status) &&
          !row.route.startsWith('GET /dev/') &&
          !row.route.startsWith('GET /media/')
        ) {
          expect(result.body.detail, `${principal}: a refusal carries a Japanese detail`).toMatch(/[ぁ-んァ-ヶ一-龯]/);
        }
      }
      expect(outcomes).toEqual(row.expect);
      expect(
        Object.values(unchanged).every(Boolean),
        `refused requests changed the database: ${JSON.stringify(unchanged)}`,
      ).toBe(true);
    });
  }

  it('lists and counts never include another staff member’s data, and user_id from ordinary staff is ignored', async () => {
    // Staff B's own world: one customer and one reservation.
    const customerOfB = await world.customer({
      name: '高橋 由美',
      furigana: 'タカハシ ユミ',
      assignedStaffId: staffB.id,
    });
    await world.insertReservation({
      staffId: staffB.id,
      customer: customerOfB,
      service,
      start: freshStart(),
      status: 'confirmed',
    });
    const aReservation = await freshReservation();

    for (const query of ['', `?user_id=${staffA.id}`]) {
      const list = await world.api(`/api/admin/reservations/${query}`, { token: staffB.token });
      expect(list.status).toBe(200);
      const items = list.body as unknown as Array<{ staff_id: number; reservation_number: string }>;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((item) => item.staff_id === staffB.id)).toBe(true);
      expect(items.some((item) => item.reservation_number === aReservation)).toBe(false);
      expect(Number(list.headers.get('x-total-count'))).toBe(items.length);

      const customersList = await world.api(`/api/admin/customers/${query}`, { token: staffB.token });
      expect(customersList.status).toBe(200);
      const customerIds = (customersList.body as unknown as Array<{ id: number }>).map((item) => item.id);
      // B's customers: the one assigned to B, and walk-ins B booked in the rows above; never the customer principal.
      expect(customerIds).toContain(customerOfB.id);
      expect(customerIds).not.toContain(customer.id);
      const inScopeOfB = await world.db
        .select({ id: customers.id })
        .from(customers)
        .where(
          sql`${customers.assigned_staff_id} = ${staffB.id} or exists (select 1 from reservations r where r.customer_id = ${customers.id} and r.staff_id = ${staffB.id})`,
        );
      expect([...customerIds].sort((a, b) => a - b)).toEqual(inScopeOfB.map((row) => row.id).sort((a, b) => a - b));
      expect(Number(customersList.headers.get('x-total-count'))).toBe(customerIds.length);

      const history = await world.api(`/api/admin/line-history/${query}`, { token: staffB.token });
      expect(history.status).toBe(200);
      const messages = history.body as unknown as Array<{ customer_id: number | null }>;
      expect(messages.every((message) => message.customer_id === null || message.customer_id === customerOfB.id)).toBe(
        true,
      );
    }

    // The superuser's user_id does filter.
    const forA = await world.api(`/api/admin/reservations/?user_id=${staffA.id}`, { token: world.admin.token });
    const forAItems = forA.body as unknown as Array<{ staff_id: number }>;
    expect(forAItems.length).toBeGreaterThan(0);
    expect(forAItems.every((item) => item.staff_id === staffA.id)).toBe(true);

    // A's messages are not in B's history even when B asks for A's customer by id.
    const history = await world.api(`/api/admin/line-history/?customer_id=${customer.id}`, { token: staffB.token });
    expect([200, 404]).toContain(history.status);
    if (history.status === 200) expect(history.body).toEqual([]);
  });
});
