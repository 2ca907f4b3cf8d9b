import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, notificationsOutbox, reservations, services } from '#server/db/schema';
import { isLinePayload } from '#server/outbox/outbox';
import { enqueueDueRebookingPrompts } from '#server/outbox/rebooking';
import { MESSAGES } from '#src/shared/messages';
import type { Reservation } from '#src/shared/schemas/reservations';
import { localDateTimeToInstant } from '#src/shared/time';
import {
  at,
  startBookingApp,
  TZ,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { lineTexts } from '#tests/helpers/line-text';

const PUBLIC_URL = 'https://salon.example.jp';
const sweepAt = (date: string, time: string, db: BookingWorld['db']) =>
  enqueueDueRebookingPrompts(db, {
    now: localDateTimeToInstant(at(date, time), TZ),
    timeZone: TZ,
    publicUrl: PUBLIC_URL,
  });

/**
 * 再来店のご案内 (server/outbox/rebooking.ts): one LINE message per completed visit, on the day its service's cycle
 * comes, only to a LINE-linked customer who has not opted out and has not booked again. The fixed clock of the app
 * (2030-01-10) does not matter here: each sweep is given its own instant.
 */
describe(`rebooking prompts on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;
  let gel: ServiceRow;
  let noCycle: ServiceRow;
  /** One customer per case, each with a completed gel visit on 2029-12-20 (due 2030-01-10 with a 21-day cycle). */
  let due: CustomerMember;
  let futureBooking: CustomerMember;
  let laterVisit: CustomerMember;
  let optedOut: CustomerMember;
  let withoutCycle: CustomerMember;
  let notLinked: CustomerMember;
  let dueVisit: typeof reservations.$inferSelect;

  const visit = (customer: CustomerMember, service: ServiceRow, start: string, status: 'completed' | 'pending') =>
    w.insertReservation({ staffId: staff.id, customer, service, start, status });
  const prompts = () => w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.kind, 'rebook_prompt'));

  beforeAll(async () => {
    w = await startBookingApp();
    staff = await w.staff('rebook-staff', '佐藤 美咲');
    gel = await w.service('ハンドジェル', 90, 6600);
    noCycle = await w.service('ネイルケア', 30, 3300);
    await w.db.update(services).set({ rebook_cycle_days: 21 }).where(eq(services.id, gel.id));
    const linked = (name: string, n: number) => w.customer({ name, lineUserId: `U${String(n).padStart(32, '0')}` });
    [due, futureBooking, laterVisit, optedOut, withoutCycle] = await Promise.all([
      linked('山田 花子', 1),
      linked('高橋 結衣', 2),
      linked('伊藤 美緒', 3),
      linked('渡辺 彩', 4),
      linked('小林 舞', 5),
    ]);
    notLinked = await w.customer({ name: '加藤 葵' });
    dueVisit = await visit(due, gel, '2029-12-20T10:00:00', 'completed');
    await visit(futureBooking, gel, '2029-12-20T12:00:00', 'completed');
    await visit(futureBooking, gel, '2030-01-20T10:00:00', 'pending');
    await visit(laterVisit, gel, '2029-12-20T14:00:00', 'completed');
    await visit(laterVisit, noCycle, '2030-01-05T10:00:00', 'completed');
    await visit(optedOut, gel, '2029-12-20T16:00:00', 'completed');
    await w.db.update(customers).set({ rebook_prompts_enabled: false }).where(eq(customers.id, optedOut.id));
    await visit(withoutCycle, noCycle, '2029-12-20T10:00:00', 'completed');
    await visit(notLinked, gel, '2029-12-20T10:00:00', 'completed');
  });
  afterAll(() => w?.close());

  it('is not sent before the cycle, nor at night', async () => {
    expect(await sweepAt('2030-01-09', '11:00', w.db)).toBe(0);
    expect(await sweepAt('2030-01-10', '08:00', w.db)).toBe(0);
    expect(await prompts()).toEqual([]);
  });

  it('is sent once at the cycle, only to the customer who has not rebooked, with the rebook link', async () => {
    // Two instances at once, then again later that day and the next day: one message.
    const counts = await Promise.all([sweepAt('2030-01-10', '10:00', w.db), sweepAt('2030-01-10', '10:00', w.db)]);
    expect(counts[0]! + counts[1]!).toBe(1);
    expect(await sweepAt('2030-01-10', '15:00', w.db)).toBe(0);
    expect(await sweepAt('2030-01-11', '10:00', w.db)).toBe(0);

    const rows = await prompts();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      channel: 'line',
      recipient: due.line_user_id,
      reservation_id: dueVisit.id,
      status: 'pending',
    });
    expect(isLinePayload(row!.payload)).toBe(true);
    const text = lineTexts(row!.payload as { messages: unknown[] });
    expect(text).toContain(`${PUBLIC_URL}/reserve?rebook=${dueVisit.reservation_number}`);
    expect(text).toContain('山田 花子 様');
    expect(text).toContain('ハンドジェル');
    // The visit's own page, where the customer can switch these messages off.
    expect(text).toContain(`${PUBLIC_URL}/reservations/${dueVisit.reservation_number}`);

    const [marked] = await w.db
      .select({ at: reservations.rebook_prompted_at })
      .from(reservations)
      .where(eq(reservations.id, dueVisit.id));
    expect(marked!.at).toEqual(localDateTimeToInstant('2030-01-10T10:00:00', TZ));
  });

  it('is not sent again after the customer books and the visit is done, and a later visit gets its own', async () => {
    // The customer came back on 2030-01-12 (completed); that visit's own cycle ends 2030-02-02.
    await visit(due, gel, '2030-01-12T10:00:00', 'completed');
    expect(await sweepAt('2030-02-01', '10:00', w.db)).toBe(0);
    expect(await sweepAt('2030-02-02', '10:00', w.db)).toBe(1);
    expect(await prompts()).toHaveLength(2);
  });

  it('is not sent for a visit whose cycle passed long ago (a cycle given to a service today)', async () => {
    const old = await w.customer({ name: '松本 楓', lineUserId: `U${'9'.repeat(32)}` });
    await visit(old, gel, '2029-06-01T10:00:00', 'completed');
    expect(await sweepAt('2030-02-02', '11:00', w.db)).toBe(0);
  });

  it('staff set the cycle on the menu (7 to 180 days, blank for none)', async () => {
    const patch = (json: Record<string, unknown>) =>
      w.api(`/api/services/${noCycle.id}/`, { method: 'PATCH', token: w.admin.token, json });
    const set = await patch({ rebook_cycle_days: 28 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: noCycle.id, rebook_cycle_days: 28 });
    // An edit that does not send it leaves it as it is.
    expect((await patch({ price: 3500 })).body).toMatchObject({ price: '3500', rebook_cycle_days: 28 });
    for (const bad of [6, 181, 'abc', 14.5]) {
      const refused = await patch({ rebook_cycle_days: bad });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ fields: { rebook_cycle_days: [MESSAGES.rebookCycleInvalid] } });
    }
    const cleared = await patch({ rebook_cycle_days: '' });
    expect(cleared.body).toMatchObject({ rebook_cycle_days: null });
    const menu = await w.api('/api/services/');
    expect(menu.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: gel.id, rebook_cycle_days: 21 })]));
  });

  it('staff switch a customer’s prompts off and on', async () => {
    const patch = (json: Record<string, unknown>) =>
      w.api(`/api/admin/customers/${due.id}/`, { method: 'PATCH', token: w.admin.token, json });
    expect((await patch({ rebook_prompts_enabled: false })).body).toMatchObject({ rebook_prompts_enabled: false });
    expect((await patch({ rebook_prompts_enabled: 'no' })).status).toBe(400);
    const [row] = await w.db.select().from(customers).where(eq(customers.id, due.id));
    expect(row!.rebook_prompts_enabled).toBe(false);
    expect((await patch({ rebook_prompts_enabled: true })).body).toMatchObject({ rebook_prompts_enabled: true });
  });

  it('the customer switches them off themselves (PUT /api/me/rebook-prompts/), and gets none after that', async () => {
    const self = await w.customer({ name: '斎藤 凛', lineUserId: `U${'8'.repeat(32)}` });
    await visit(self, gel, '2030-02-10T10:00:00', 'completed');
    const off = await w.api('/api/me/rebook-prompts/', { method: 'PUT', token: self.token, json: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ enabled: false });
    expect((await w.api('/api/me/', { token: self.token })).body).toMatchObject({ rebook_prompts_enabled: false });
    expect(
      (await w.api('/api/me/rebook-prompts/', { method: 'PUT', token: self.token, json: { enabled: 'no' } })).status,
    ).toBe(400);
    expect(await sweepAt('2030-03-03', '10:00', w.db)).toBe(0);
    // Switched on again, it goes out (still within the days after the cycle).
    await w.api('/api/me/rebook-prompts/', { method: 'PUT', token: self.token, json: { enabled: true } });
    expect(await sweepAt('2030-03-04', '10:00', w.db)).toBe(1);
  });

  it('the link’s visit is what the customer reads to book it again (their own visit only)', async () => {
    const own = await w.api(`/api/reservations/${dueVisit.reservation_number}/`, { token: due.token });
    expect(own.status).toBe(200);
    const body = own.body as unknown as Reservation;
    expect(body).toMatchObject({ status: 'completed', service: { id: gel.id }, staff_id: staff.id });
    const other = await w.api(`/api/reservations/${dueVisit.reservation_number}/`, { token: optedOut.token });
    expect(other.status).toBe(404);
  });
});
