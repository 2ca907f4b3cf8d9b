/**
 * The staff calendar feed follows its staff member's credentials and choices
 * (server/features/calendar-feed/calendar-feed.service.ts): a password reset or a deactivation ends the URL (the
 * next look makes a new one; reactivating does not bring the old one back), and customers' phone numbers are in
 * the feed only when the staff member made the URL with them.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations } from '#server/db/schema';
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
const PHONE = '090-1234-5678';

describe(`the calendar feed and its staff member’s credentials on ${testEngine}`, () => {
  let world: BookingWorld;
  let customer: CustomerRow;
  let gel: ServiceRow;

  /** A fresh session of the staff member (after a reset their old tokens no longer work). */
  const session = async (staff: StaffMember) => (await world.t.auth.issueTokenPair('staff', staff.id)).access;
  const profileOf = async (staff: StaffMember) => {
    const me = await world.api('/api/admin/me/', { token: await session(staff) });
    expect(me.status).toBe(200);
    return me.body as { calendar_feed_url: string; calendar_feed_includes_phone: boolean };
  };
  const feedStatus = async (url: string) => (await world.api(new URL(url).pathname)).status;
  /** The feed's text with its folded lines joined again (RFC 5545 folds at 75 octets). */
  const feedText = async (url: string) => (await world.api(new URL(url).pathname)).text.replace(/\r\n /g, '');
  const patchStaff = (staff: StaffMember, json: Record<string, unknown>) =>
    world.api(`/api/admin/users/${staff.id}/`, { method: 'PATCH', token: world.admin.token, json });
  const regenerate = async (staff: StaffMember, json?: unknown) =>
    world.api('/api/admin/me/calendar-feed/', { method: 'POST', token: await session(staff), json });

  beforeAll(async () => {
    world = await startBookingApp({ env: { PUBLIC_URL } });
    customer = await world.customer({ name: '山田 花子' });
    gel = await world.service('ジェルネイル', 60);
  });
  afterAll(() => world?.close());

  it('a password reset ends the URL; the next look gives a new one that works', async () => {
    const staff = await world.staff('feed-reset');
    const before = (await profileOf(staff)).calendar_feed_url;
    expect(await feedStatus(before)).toBe(200);

    expect((await patchStaff(staff, { password: 'a-new-password-123' })).status).toBe(200);
    expect(await feedStatus(before)).toBe(404);
    const after = (await profileOf(staff)).calendar_feed_url;
    expect(after).not.toBe(before);
    expect(await feedStatus(after)).toBe(200);
    expect((await profileOf(staff)).calendar_feed_url).toBe(after);
  });

  it('a deactivation ends the URL, and reactivating the account does not bring it back', async () => {
    const staff = await world.staff('feed-leaver');
    const before = (await profileOf(staff)).calendar_feed_url;
    expect((await patchStaff(staff, { is_active: false })).status).toBe(200);
    expect(await feedStatus(before)).toBe(404);
    expect((await patchStaff(staff, { is_active: true })).status).toBe(200);
    expect(await feedStatus(before)).toBe(404);

    const after = (await profileOf(staff)).calendar_feed_url;
    expect(after).not.toBe(before);
    expect(await feedStatus(after)).toBe(200);
  });

  it('leaves customers’ phone numbers out unless the staff member makes a URL with them', async () => {
    const staff = await world.staff('feed-phone');
    const booking = await world.insertReservation({
      staffId: staff.id,
      customer,
      service: gel,
      start: at('2030-01-12', '10:00'),
      status: 'confirmed',
    });
    await world.db.update(reservations).set({ customer_phone: PHONE }).where(eq(reservations.id, booking.id));

    const plain = await profileOf(staff);
    expect(plain.calendar_feed_includes_phone).toBe(false);
    const plainFeed = await feedText(plain.calendar_feed_url);
    expect(plainFeed).toContain(booking.reservation_number);
    expect(plainFeed).not.toContain(PHONE);
    expect(plainFeed).not.toContain('電話番号');

    const withPhone = await regenerate(staff, { include_phone: true });
    expect(withPhone.status).toBe(200);
    expect(withPhone.body).toEqual({ calendar_feed_url: expect.any(String), calendar_feed_includes_phone: true });
    const phoneUrl = withPhone.body.calendar_feed_url as string;
    // The URL handed out without phone numbers never starts showing them: the choice comes with a new URL.
    expect(phoneUrl).not.toBe(plain.calendar_feed_url);
    expect(await feedStatus(plain.calendar_feed_url)).toBe(404);
    expect(await feedText(phoneUrl)).toContain(`電話番号: ${PHONE}`);
    expect(await profileOf(staff)).toMatchObject({ calendar_feed_url: phoneUrl, calendar_feed_includes_phone: true });

    // URLを再発行 without a choice keeps the current one; choosing false leaves them out again.
    const again = await regenerate(staff);
    expect(again.body.calendar_feed_includes_phone).toBe(true);
    const off = await regenerate(staff, { include_phone: false });
    expect(off.body.calendar_feed_includes_phone).toBe(false);
    expect(await feedText(off.body.calendar_feed_url as string)).not.toContain(PHONE);
    expect((await regenerate(staff, { include_phone: 'yes' })).status).toBe(400);
  });
});
