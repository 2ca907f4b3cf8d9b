import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitlistEntries, waitlistOffers } from '#server/db/schema';
import { listInbox } from '#server/integrations/line/inbox';
import { sweepWaitlist } from '#server/outbox/waitlist-offers';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';
import type { AdminWaitlistEntry, WaitlistEntry } from '#src/shared/schemas/waitlist';
import { addDaysToDate, localDateTimeToInstant } from '#src/shared/time';
import {
  at,
  startBookingApp,
  statusesOf,
  times,
  TODAY,
  TZ,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';

/** A full day: staff A works 10:00–11:00 only, so a 60-minute gel has one start (10:00), taken by the blocker. */
const DAY = '2030-01-20';
/** A day the reschedule test frees, and one with no working time until the salon opens it. */
const MOVE_DAY = '2030-01-21';
const OPEN_LATER_DAY = '2030-01-22';
const SPARE_DAY = '2030-01-25';
/** Two staff members free: a customer waits for it, then books one of them. */
const BOOKED_DAY = '2030-01-28';
const lineId = (n: number) => `U${String(n).padStart(32, '0')}`;

/**
 * キャンセル待ち (server/features/waitlist, server/outbox/waitlist-offers.ts): joining with the booking's checks, one
 * waiting entry per day and menu, withdrawing, the staff list scoped like reservations, offers by LINE (e-mail without
 * LINE) when a start frees up, each start offered once, and two offered customers racing for one start.
 * The app's clock is fixed at 2030-01-10 09:00 Tokyo; its worker is driven by hand (drainOnce sweeps, then sends).
 */
describe(`waitlist on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let staffB: StaffMember;
  let gel: ServiceRow;
  let long: ServiceRow;
  let retired: ServiceRow;
  let blocker: CustomerMember;
  let hanako: CustomerMember;
  let yui: CustomerMember;
  let mio: CustomerMember;
  let aya: CustomerMember;
  let nao: CustomerMember;
  let kei: CustomerMember;
  let blockedNumber: string;

  const join = (customer: CustomerMember, body: Record<string, unknown>) =>
    w.api('/api/waitlist/', { method: 'POST', token: customer.token, json: body });
  const joined = async (customer: CustomerMember, body: Record<string, unknown>) => {
    const result = await join(customer, body);
    if (result.status !== 201) throw new Error(`join failed: ${result.status} ${result.text}`);
    return result.body as unknown as WaitlistEntry;
  };
  const mine = async (customer: CustomerMember) =>
    (await w.api('/api/waitlist/', { token: customer.token })).body as unknown as WaitlistEntry[];
  const drain = () => w.t.app.notifications.worker.drainOnce();
  const inboxOf = (customer: CustomerMember) => listInbox(w.db, { to: customer.line_user_id! });
  const mails = async () =>
    (await w.api('/dev/mail?format=json')).body.messages as Array<{ to: string; subject: string; text: string }>;

  beforeAll(async () => {
    w = await startBookingApp({ notifications: { autoStart: false } });
    await w.setSalon({ max_upcoming_per_customer: 1000 });
    // One after the other, so that their ids come in this order (on PostgreSQL, side by side they need not).
    staffA = await w.staff('wait-a', '佐藤 A');
    staffB = await w.staff('wait-b', '鈴木 B');
    gel = await w.service('ジェルネイル', 60, 6000);
    long = await w.service('スカルプ', 90, 9000);
    retired = await w.service('終了したメニュー', 60, 3000, false);
    blocker = await w.customer({ name: '先約 様', email: 'first@example.com' });
    [hanako, yui, mio, aya, nao] = await Promise.all([
      w.customer({ name: '山田 花子', email: 'hanako@example.com', lineUserId: lineId(1) }),
      w.customer({ name: '高橋 結衣', email: 'yui@example.com', lineUserId: lineId(2) }),
      w.customer({ name: '伊藤 美緒', email: 'mio@example.com', lineUserId: lineId(3) }),
      w.customer({ name: '渡辺 彩', email: 'aya@example.com', lineUserId: lineId(4) }),
      w.customer({ name: '小林 奈央', email: 'nao@example.com', lineUserId: lineId(5) }),
    ]);
    kei = await w.customer({ name: '加藤 慶', email: 'kei@example.com' });
    await w.openSlotsDirect(staffA.id, [DAY, MOVE_DAY, SPARE_DAY], times('10:00', '11:00'));
    // Staff B can be named (works another day) but not on DAY.
    await w.openSlotsDirect(staffB.id, [SPARE_DAY], times('10:00', '11:00'));
    blockedNumber = (await w.booked(blocker, gel.id, at(DAY, '10:00'))).reservation_number;
  });
  afterAll(() => w?.close());

  it('joins with the checks of a booking: day, menu, 指名 and window, each a 400 on its field', async () => {
    const bad = async (body: Record<string, unknown>, field: string, detail?: string) => {
      const result = await join(hanako, { service_id: gel.id, date: DAY, ...body });
      expect(result.status, result.text).toBe(400);
      expect(Object.keys(result.body.fields as object)).toContain(field);
      if (detail) expect((result.body.fields as Record<string, string[]>)[field]).toContain(detail);
    };
    await bad({ date: addDaysToDate(TODAY, -1) }, 'date', SERVER_MESSAGES.waitlistDatePast);
    await bad({ date: addDaysToDate(TODAY, 93) }, 'date');
    await bad({ date: '2030-02-30' }, 'date', MESSAGES.invalidDate);
    await bad({ service_id: retired.id }, 'service_id', SERVER_MESSAGES.serviceNotFound);
    await bad({ option_ids: [999999] }, 'option_ids', MESSAGES.optionNotFound);
    await bad({ staff_id: 999999 }, 'staff_id', SERVER_MESSAGES.staffNotBookable);
    await bad({ time_from: '10:15' }, 'time_from', MESSAGES.waitlistTimeInvalid);
    await bad({ time_from: '25:00' }, 'time_from', MESSAGES.waitlistTimeInvalid);
    await bad({ time_from: '12:00', time_to: '11:00' }, 'time_to', MESSAGES.waitlistWindowOrder);
    expect(await w.db.select().from(waitlistEntries)).toEqual([]);

    const entry = await joined(hanako, { service_id: gel.id, date: DAY });
    expect(entry).toMatchObject({
      service_id: gel.id,
      service_name: 'ジェルネイル',
      staff_id: null,
      date: DAY,
      time_from: null,
      time_to: null,
      status: 'waiting',
      created_at: `${TODAY}T09:00:00`,
    });
  });

  it('refuses a second waiting entry for the same day, menu and staff with a 409, and allows it after withdrawing', async () => {
    const again = await join(hanako, { service_id: gel.id, date: DAY, time_from: '10:00' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'waitlist_duplicate', detail: SERVER_MESSAGES.waitlistDuplicate });

    // Another staff choice is another entry; withdrawn, the same one can be joined again.
    const named = await joined(hanako, { service_id: gel.id, date: DAY, staff_id: staffB.id });
    expect(named.staff_name).toBe('鈴木 B');
    expect((await mine(hanako)).map((entry) => entry.id)).toContain(named.id);

    // Someone else's entry is a 404 like a missing one, and stays as it was.
    const foreign = await w.api(`/api/waitlist/${named.id}/`, { method: 'DELETE', token: yui.token });
    expect(foreign.status).toBe(404);
    expect((await w.api(`/api/waitlist/${named.id}/`, { token: yui.token })).status).toBe(404);
    expect((await w.api(`/api/waitlist/${named.id}/`, { token: hanako.token })).status).toBe(200);

    const withdrawn = await w.api(`/api/waitlist/${named.id}/`, { method: 'DELETE', token: hanako.token });
    expect(withdrawn.status).toBe(204);
    expect((await w.api(`/api/waitlist/${named.id}/`, { method: 'DELETE', token: hanako.token })).status).toBe(404);
    expect((await mine(hanako)).map((entry) => entry.id)).not.toContain(named.id);
    const rejoined = await joined(hanako, { service_id: gel.id, date: DAY, staff_id: staffB.id });
    await w.api(`/api/waitlist/${rejoined.id}/`, { method: 'DELETE', token: hanako.token });

    // Two at once: the partial unique index lets one through.
    const racing = await Promise.all([
      join(yui, { service_id: long.id, date: SPARE_DAY }),
      join(yui, { service_id: long.id, date: SPARE_DAY }),
    ]);
    expect(statusesOf(racing)).toEqual([201, 409]);
    const spare = (await mine(yui)).find((entry) => entry.date === SPARE_DAY)!;
    await w.api(`/api/waitlist/${spare.id}/`, { method: 'DELETE', token: yui.token });
  });

  it('refuses to register a window that still has a free start (409): it is booked, not waited for', async () => {
    // SPARE_DAY: staff A and B are free 10:00–11:00, so a 60-minute gel can start at 10:00.
    for (const body of [{}, { time_to: '10:00' }, { staff_id: staffB.id }]) {
      const free = await join(kei, { service_id: gel.id, date: SPARE_DAY, ...body });
      expect(free.status, free.text).toBe(409);
      expect(free.body).toMatchObject({ code: 'waitlist_times_free', detail: MESSAGES.waitlistTimesFree });
    }
    expect(await mine(kei)).toEqual([]);
    // From 10:30 nothing fits before 11:00: that window is waited for.
    const later = await joined(kei, { service_id: gel.id, date: SPARE_DAY, time_from: '10:30' });
    expect(later.time_from).toBe('10:30');
    await w.api(`/api/waitlist/${later.id}/`, { method: 'DELETE', token: kei.token });
  });

  it('lists a day for staff: a superuser sees all, a staff member the entries naming them or no one', async () => {
    await joined(yui, { service_id: gel.id, date: DAY, time_from: '09:00', time_to: '10:00' });
    await joined(mio, { service_id: long.id, date: DAY });
    await joined(aya, { service_id: gel.id, date: DAY, time_from: '13:00', time_to: '15:00' });
    await joined(nao, { service_id: gel.id, date: DAY, staff_id: staffB.id });
    await joined(kei, { service_id: gel.id, date: DAY });

    const list = async (token: string) => {
      const result = await w.api(`/api/admin/waitlist/?date=${DAY}`, { token });
      expect(result.status, result.text).toBe(200);
      return result.body as unknown as AdminWaitlistEntry[];
    };
    const everyone = await list(w.admin.token);
    expect(everyone.map((entry) => entry.customer_name)).toEqual([
      '山田 花子',
      '高橋 結衣',
      '伊藤 美緒',
      '渡辺 彩',
      '小林 奈央',
      '加藤 慶',
    ]);
    expect(everyone.find((entry) => entry.customer_name === '高橋 結衣')).toMatchObject({
      time_from: '09:00',
      time_to: '10:00',
      offers: 0,
      last_offered_at: null,
    });
    expect((await list(staffA.token)).map((entry) => entry.customer_name)).not.toContain('小林 奈央');
    expect((await list(staffB.token)).map((entry) => entry.customer_name)).toContain('小林 奈央');
    expect(await list(staffA.token)).toHaveLength(5);
    const badDate = await w.api('/api/admin/waitlist/?date=2030-13-01', { token: staffA.token });
    expect(badDate.status).toBe(400);
  });

  it('a cancel offers the start by LINE to each matching customer once, by e-mail without LINE, to no one else', async () => {
    // The bookings' own notices go out; nothing is free on the day yet, so nobody is offered anything.
    await drain();
    expect(await w.db.select().from(waitlistOffers)).toEqual([]);

    const cancelled = await w.api(`/api/reservations/${blockedNumber}/cancel/`, {
      method: 'POST',
      token: blocker.token,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await drain();

    const [hanakoEntry] = (await mine(hanako)).filter((entry) => entry.date === DAY && entry.staff_id === null);
    const [yuiEntry] = (await mine(yui)).filter((entry) => entry.date === DAY);
    for (const [customer, entry] of [
      [hanako, hanakoEntry!],
      [yui, yuiEntry!],
    ] as const) {
      const inbox = await inboxOf(customer);
      expect(inbox).toHaveLength(1);
      const sent = JSON.stringify(inbox[0]!.messages);
      expect(sent).toContain(`/reserve?waitlist=${entry.id}`);
      expect(sent).toContain('10:00');
      expect(sent).toContain('ジェルネイル');
      expect(sent).toContain(`${customer.name} 様`);
    }
    // Another service that does not fit, a window elsewhere, a staff member who does not work that day: nothing.
    for (const customer of [mio, aya, nao]) expect(await inboxOf(customer)).toEqual([]);
    const keiMail = (await mails()).filter((mail) => mail.to === 'kei@example.com');
    expect(keiMail).toHaveLength(1);
    expect(keiMail[0]!.subject).toContain(SERVER_MESSAGES.waitlistOfferTitle);
    const keiEntry = (await mine(kei))[0]!;
    expect(keiMail[0]!.text).toContain(`/reserve?waitlist=${keiEntry.id}`);

    // The next drains offer nothing again.
    await drain();
    await drain();
    expect(await inboxOf(hanako)).toHaveLength(1);
    expect(await inboxOf(yui)).toHaveLength(1);
    expect((await mails()).filter((mail) => mail.to === 'kei@example.com')).toHaveLength(1);
    const staffView = (await w.api(`/api/admin/waitlist/?date=${DAY}`, { token: w.admin.token }))
      .body as unknown as AdminWaitlistEntry[];
    expect(staffView.find((entry) => entry.customer_name === '山田 花子')).toMatchObject({
      offers: 1,
      last_offered_at: `${TODAY}T09:00:00`,
    });
  });

  it('two offered customers booking the freed start at once: one gets it, the other a clear 409 and keeps waiting', async () => {
    const results = await Promise.all([
      w.book(hanako, gel.id, at(DAY, '10:00')),
      w.book(yui, gel.id, at(DAY, '10:00')),
    ]);
    expect(statusesOf(results)).toEqual([201, 409]);
    const loser = results.find((result) => result.status === 409)!;
    expect(loser.body).toMatchObject({ code: 'slot_unavailable', detail: MESSAGES.slotUnavailable });
    expect(await w.activeRows(at(DAY, '00:00'), at(DAY, '23:59'))).toHaveLength(1);

    await drain();
    const winner = results[0]!.status === 201 ? hanako : yui;
    const other = winner === hanako ? yui : hanako;
    const statusOf = async (customer: CustomerMember) =>
      (
        await w.db
          .select({ status: waitlistEntries.status })
          .from(waitlistEntries)
          .where(eq(waitlistEntries.customer_id, customer.id))
      )
        .map((row) => row.status)
        .filter((status) => status !== 'withdrawn');
    expect(await statusOf(winner)).toEqual(['booked']);
    expect(await statusOf(other)).toEqual(['waiting']);
    expect((await mine(other)).map((entry) => entry.date)).toEqual([DAY]);
  });

  it('a reschedule away from a full day offers its start', async () => {
    const moving = await w.booked(blocker, gel.id, at(MOVE_DAY, '10:00'));
    await joined(mio, { service_id: gel.id, date: MOVE_DAY });
    await drain();
    expect(await inboxOf(mio)).toEqual([]);

    const moved = await w.api(`/api/reservations/${moving.reservation_number}/reschedule/`, {
      method: 'POST',
      token: blocker.token,
      json: { start_time: at(SPARE_DAY, '10:00') },
    });
    expect(moved.status, moved.text).toBe(200);
    await drain();
    const inbox = await inboxOf(mio);
    expect(inbox).toHaveLength(1);
    expect(JSON.stringify(inbox[0]!.messages)).toContain('2030年1月21日(月)');
  });

  it('a new opening (working time added by the salon) offers its starts', async () => {
    await joined(aya, { service_id: gel.id, date: OPEN_LATER_DAY, time_from: '14:00' });
    await drain();
    expect(await inboxOf(aya)).toEqual([]);

    await w.openSlots(staffA.id, OPEN_LATER_DAY, times('13:00', '16:00'));
    await drain();
    const inbox = await inboxOf(aya);
    expect(inbox).toHaveLength(1);
    const sent = JSON.stringify(inbox[0]!.messages);
    // Only starts inside the window: 14:00 up to 15:00 for a 60-minute booking ending by 16:00.
    expect(sent).toContain('14:00、14:30、15:00');
    expect(sent).not.toContain('13:30');
  });

  it('an entry whose customer booked that day is marked booked and offered nothing in the same sweep', async () => {
    // Joined while the day had no working time (a day with a free start is booked, not waited for).
    await joined(nao, { service_id: gel.id, date: BOOKED_DAY });
    await w.openSlotsDirect(staffA.id, [BOOKED_DAY], times('10:00', '11:00'));
    await w.openSlotsDirect(staffB.id, [BOOKED_DAY], times('10:00', '11:00'));
    // Booked with one of the two: the other's 10:00 stays free, a start the entry would match.
    await w.booked(nao, gel.id, at(BOOKED_DAY, '10:00'));
    await drain();
    // The booking's own notice, and no offer.
    const inbox = await inboxOf(nao);
    expect(inbox).toHaveLength(1);
    expect(JSON.stringify(inbox[0]!.messages)).toContain('ご予約を受け付けました');
    const entries = await w.db
      .select({ status: waitlistEntries.status })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.customer_id, nao.id), eq(waitlistEntries.date, BOOKED_DAY)));
    expect(entries.map((entry) => entry.status)).toEqual(['booked']);
  });

  it('expires entries of past days', async () => {
    const later = localDateTimeToInstant(at(addDaysToDate(OPEN_LATER_DAY, 1), '09:00'), TZ);
    await sweepWaitlist(w.db, { now: later, timeZone: TZ, publicUrl: 'http://x', findOpenStarts: async () => null });
    const rows = await w.db.select().from(waitlistEntries).where(eq(waitlistEntries.date, OPEN_LATER_DAY));
    expect(rows.map((row) => row.status)).toEqual(['expired']);
  });
});
