/**
 * The staff calendar feed (GET /api/calendar/{token}.ics): a secret URL per staff member, shown in GET /api/admin/me/
 * and replaced by POST /api/admin/me/calendar-feed/. The feed is read here with a small RFC 5545 reader that
 * checks what calendar apps rely on: CRLF lines of at most 75 octets, balanced components, one VEVENT per active
 * booking with its UID and its start in the salon's zone.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations, staffCalendarFeeds } from '#server/db/schema';
import {
  at,
  startBookingApp,
  type BookingWorld,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import type { CustomerRow } from '#tests/helpers/factories';

const PUBLIC_URL = 'https://salon.example.jp';

interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}
interface Component {
  name: string;
  properties: Property[];
  components: Component[];
}

/** Reads an iCalendar stream, failing on anything a strict reader would refuse. */
function parseIcal(text: string): Component {
  expect(text.endsWith('\r\n'), 'the stream ends with CRLF').toBe(true);
  expect(text.replace(/\r\n/g, ''), 'no bare CR or LF').not.toMatch(/[\r\n]/);
  const physical = text.slice(0, -2).split('\r\n');
  for (const line of physical) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
  const logical: string[] = [];
  for (const line of physical) {
    if (line.startsWith(' ')) logical[logical.length - 1] += line.slice(1);
    else logical.push(line);
  }
  const root: Component = { name: '', properties: [], components: [] };
  const stack: Component[] = [root];
  for (const line of logical) {
    const colon = line.indexOf(':');
    expect(colon, line).toBeGreaterThan(0);
    const [name, ...params] = line.slice(0, colon).split(';') as [string, ...string[]];
    const value = line.slice(colon + 1);
    const current = stack.at(-1)!;
    if (name === 'BEGIN') {
      const child: Component = { name: value, properties: [], components: [] };
      current.components.push(child);
      stack.push(child);
    } else if (name === 'END') {
      expect(current.name, `END:${value} closes ${current.name}`).toBe(value);
      stack.pop();
    } else {
      current.properties.push({
        name,
        params: Object.fromEntries(params.map((param) => param.split('=') as [string, string])),
        value,
      });
    }
  }
  expect(stack, 'every BEGIN has its END').toHaveLength(1);
  expect(root.components.map((component) => component.name)).toEqual(['VCALENDAR']);
  return root.components[0]!;
}

const prop = (component: Component, name: string) => component.properties.find((property) => property.name === name);

describe(`staff calendar feed on ${testEngine}`, () => {
  let world: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let customer: CustomerRow;
  let gel: ServiceRow;

  const feedUrlOf = async (staff: StaffMember) => {
    const me = await world.api('/api/admin/me/', { token: staff.token });
    expect(me.status).toBe(200);
    return me.body.calendar_feed_url as string;
  };
  const fetchFeed = (url: string) => world.api(new URL(url).pathname);
  const events = (calendar: Component) => calendar.components.filter((component) => component.name === 'VEVENT');
  const uids = (calendar: Component) => events(calendar).map((event) => prop(event, 'UID')!.value);

  beforeAll(async () => {
    world = await startBookingApp({ env: { PUBLIC_URL } });
    staffA = await world.staff('cal-a', '佐藤 A');
    staffB = await world.staff('cal-b', '鈴木 B');
    customer = await world.customer({ name: '山田, 花子' });
    gel = await world.service('ジェルネイル', 90);
  });
  afterAll(() => world?.close());

  it('lists each active booking of the staff member once, in the salon zone, and nothing else', async () => {
    const confirmed = await world.insertReservation({
      staffId: staffA.id,
      customer,
      service: gel,
      start: at('2030-01-12', '10:00'),
      status: 'confirmed',
    });
    await world.db
      .update(reservations)
      .set({ customer_phone: '090-1234-5678' })
      .where(eq(reservations.id, confirmed.id));
    const pending = await world.insertReservation({
      staffId: staffA.id,
      customer,
      service: gel,
      start: at('2030-01-15', '14:30'),
    });
    // Ten days ago: still in the feed (the last 30 days stay).
    const recent = await world.insertReservation({
      staffId: staffA.id,
      customer,
      service: gel,
      start: at('2029-12-31', '11:00'),
      status: 'confirmed',
    });
    const absent = await Promise.all([
      world.insertReservation({
        staffId: staffA.id,
        customer,
        service: gel,
        start: at('2030-01-13', '10:00'),
        status: 'cancelled',
      }),
      world.insertReservation({
        staffId: staffA.id,
        customer,
        service: gel,
        start: at('2030-01-05', '10:00'),
        status: 'completed',
      }),
      world.insertReservation({
        staffId: staffA.id,
        customer,
        service: gel,
        start: at('2030-01-06', '10:00'),
        status: 'no_show',
      }),
      // More than 30 days ago.
      world.insertReservation({
        staffId: staffA.id,
        customer,
        service: gel,
        start: at('2029-12-01', '10:00'),
        status: 'confirmed',
      }),
      // Another staff member's.
      world.insertReservation({
        staffId: staffB.id,
        customer,
        service: gel,
        start: at('2030-01-12', '10:00'),
        status: 'confirmed',
      }),
    ]);

    const url = await feedUrlOf(staffA);
    expect(url).toMatch(/^https:\/\/salon\.example\.jp\/api\/calendar\/[A-Za-z0-9_-]{22}\.ics$/);
    const result = await fetchFeed(url);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const calendar = parseIcal(result.text);
    expect(prop(calendar, 'VERSION')?.value).toBe('2.0');
    expect(prop(calendar, 'PRODID')?.value).toBeTruthy();
    expect(prop(calendar, 'CALSCALE')?.value).toBe('GREGORIAN');
    const timezone = calendar.components.find((component) => component.name === 'VTIMEZONE');
    expect(prop(timezone!, 'TZID')?.value).toBe('Asia/Tokyo');

    const expected = [recent, confirmed, pending].map((row) => `${row.reservation_number}@salon.example.jp`);
    expect(uids(calendar)).toEqual(expected);
    for (const row of absent) expect(result.text).not.toContain(row.reservation_number);

    const byUid = new Map(events(calendar).map((event) => [prop(event, 'UID')!.value, event]));
    const first = byUid.get(`${confirmed.reservation_number}@salon.example.jp`)!;
    expect(prop(first, 'DTSTART')).toEqual({
      name: 'DTSTART',
      params: { TZID: 'Asia/Tokyo' },
      value: '20300112T100000',
    });
    expect(prop(first, 'DTEND')).toEqual({ name: 'DTEND', params: { TZID: 'Asia/Tokyo' }, value: '20300112T113000' });
    expect(prop(first, 'STATUS')?.value).toBe('CONFIRMED');
    // The customer's comma is escaped, so it does not split the value.
    expect(prop(first, 'SUMMARY')?.value).toBe('山田\\, 花子 様 ジェルネイル');
    // Phone numbers only in a feed made with them (calendar-feed-credentials.test.ts).
    expect(prop(first, 'DESCRIPTION')?.value).not.toContain('090-1234-5678');
    expect(prop(first, 'DESCRIPTION')?.value).toContain(
      `${PUBLIC_URL}/admin/reservations/${confirmed.reservation_number}`,
    );
    expect(prop(first, 'DTSTAMP')?.value).toMatch(/^\d{8}T\d{6}Z$/);
    const second = byUid.get(`${pending.reservation_number}@salon.example.jp`)!;
    expect(prop(second, 'DTSTART')?.value).toBe('20300115T143000');
    expect(prop(second, 'STATUS')?.value).toBe('TENTATIVE');

    // Staff B's feed has B's booking only.
    const feedOfB = parseIcal((await fetchFeed(await feedUrlOf(staffB))).text);
    expect(uids(feedOfB)).toEqual([`${absent[4].reservation_number}@salon.example.jp`]);
  });

  it('drops a booking once it is cancelled', async () => {
    const row = await world.insertReservation({
      staffId: staffA.id,
      customer,
      service: gel,
      start: at('2030-01-20', '13:00'),
      status: 'confirmed',
    });
    const url = await feedUrlOf(staffA);
    const uid = `${row.reservation_number}@salon.example.jp`;
    expect(uids(parseIcal((await fetchFeed(url)).text))).toContain(uid);

    const cancel = await world.api(`/api/admin/reservations/${row.reservation_number}/cancel/`, {
      method: 'POST',
      token: staffA.token,
    });
    expect(cancel.status).toBe(200);
    const after = parseIcal((await fetchFeed(url)).text);
    expect(uids(after)).not.toContain(uid);
    expect(uids(after).length).toBeGreaterThan(0);
  });

  it('keeps one URL per staff member until it is replaced; the old URL is 404 at once', async () => {
    const url = await feedUrlOf(staffA);
    expect(await feedUrlOf(staffA)).toBe(url);
    expect(await feedUrlOf(staffB)).not.toBe(url);

    const regenerated = await world.api('/api/admin/me/calendar-feed/', { method: 'POST', token: staffA.token });
    expect(regenerated.status).toBe(200);
    const fresh = regenerated.body.calendar_feed_url as string;
    expect(fresh).toMatch(/^https:\/\/salon\.example\.jp\/api\/calendar\/[A-Za-z0-9_-]{22}\.ics$/);
    expect(fresh).not.toBe(url);
    expect(await feedUrlOf(staffA)).toBe(fresh);

    const old = await fetchFeed(url);
    expect(old.status).toBe(404);
    expect(old.body).toMatchObject({ code: 'not_found' });
    expect((await fetchFeed(fresh)).status).toBe(200);

    // Only the token's hash and the key it is derived from are stored, never the token itself.
    const token = new URL(fresh).pathname
      .split('/')
      .at(-1)!
      .replace(/\.ics$/, '');
    const [row] = await world.db.select().from(staffCalendarFeeds).where(eq(staffCalendarFeeds.staff_id, staffA.id));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('makes one URL when a new staff member’s first reads arrive at once', async () => {
    const newcomer = await world.staff('cal-newcomer');
    const urls = await Promise.all(Array.from({ length: 5 }, () => feedUrlOf(newcomer)));
    expect(new Set(urls).size).toBe(1);
    expect((await fetchFeed(urls[0]!)).status).toBe(200);
  });

  it('answers a wrong token with 404, and a deactivated staff member’s URL too', async () => {
    for (const path of [
      '/api/calendar/AAAAAAAAAAAAAAAAAAAAAA.ics',
      '/api/calendar/not-a-token.ics',
      `/api/calendar/${'x'.repeat(64)}.ics`,
    ]) {
      const result = await world.api(path);
      expect(result.status, path).toBe(404);
      expect(result.body).toMatchObject({ code: 'not_found' });
    }

    const leaver = await world.staff('cal-leaver');
    const url = await feedUrlOf(leaver);
    expect((await fetchFeed(url)).status).toBe(200);
    await world.setStaff(leaver.id, { is_active: false });
    expect((await fetchFeed(url)).status).toBe(404);
  });
});
