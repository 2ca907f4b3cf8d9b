/**
 * A customer's LINE link is a superuser's to make and to remove (server/features/customers/customer-line-link.ts):
 * ordinary staff could bind a customer to any LINE account, their own included, and nobody could undo a binding.
 * A removal ends the customer's sessions and leaves a record of which LINE account it was, who removed it and when.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerLineUnlinks, customers } from '#server/db/schema';
import { startBookingApp, type BookingWorld, type StaffMember } from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { MESSAGES } from '#src/shared/messages';
import { SERVER_MESSAGES } from '#src/shared/server-messages';

const LINE_ID = 'U' + 'c'.repeat(32);

describe(`a customer's LINE link on ${testEngine}`, () => {
  let w: BookingWorld;
  let staff: StaffMember;

  const generate = (token: string, id: number) =>
    w.api(`/api/admin/customers/${id}/generate-line-link/`, { method: 'POST', token });
  const unlink = (token: string, id: number) =>
    w.api(`/api/admin/customers/${id}/line-link/`, { method: 'DELETE', token });
  const customerRow = async (id: number) => (await w.db.select().from(customers).where(eq(customers.id, id)))[0]!;

  beforeAll(async () => {
    w = await startBookingApp({ env: { PUBLIC_URL: 'https://salon.example.jp' } });
    staff = await w.staff('line-staff', '佐藤 美咲');
  });
  afterAll(() => w?.close());

  it('only a superuser makes a link URL, even for the staff member’s own customer', async () => {
    const mine = await w.customer({ name: '山田 花子', assignedStaffId: staff.id });
    const refused = await generate(staff.token, mine.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'permission_denied' });
    expect((await generate(w.admin.token, mine.id)).status).toBe(201);
  });

  it('a superuser removes a link: recorded, the customer’s sessions end, and a new link can be made', async () => {
    const linked = await w.customer({ name: '鈴木 一郎', assignedStaffId: staff.id, lineUserId: LINE_ID });
    await w.db.update(customers).set({ line_display_name: 'いちろう' }).where(eq(customers.id, linked.id));
    const session = await w.t.auth.issueTokenPair('customer', linked.id);

    const byStaff = await unlink(staff.token, linked.id);
    expect(byStaff.status).toBe(403);
    expect((await customerRow(linked.id)).line_user_id).toBe(LINE_ID);
    expect(await w.db.select().from(customerLineUnlinks)).toEqual([]);

    expect((await unlink(w.admin.token, linked.id)).status).toBe(204);
    expect(await customerRow(linked.id)).toMatchObject({
      line_user_id: null,
      line_display_name: '',
      line_picture_url: '',
      name: '鈴木 一郎',
    });
    expect(await w.db.select().from(customerLineUnlinks)).toEqual([
      {
        id: expect.any(Number),
        salon_id: w.t.salonId,
        customer_id: linked.id,
        line_user_id: LINE_ID,
        line_display_name: 'いちろう',
        unlinked_by_staff_id: w.admin.id,
        unlinked_at: expect.any(Date),
      },
    ]);
    const refreshed = await w.api('/api/token/refresh/', { method: 'POST', json: { refresh: session.refresh } });
    expect(refreshed.status).toBe(401);

    const customerView = await w.api(`/api/admin/customers/${linked.id}/`, { token: w.admin.token });
    expect(customerView.body).toMatchObject({ is_line_linked: false });
    expect((await generate(w.admin.token, linked.id)).status).toBe(201);
  });

  it('answers 409 for a customer not linked and 404 for an unknown one, recording nothing', async () => {
    const unlinked = await w.customer({ name: '高橋 三郎' });
    const before = (await w.db.select().from(customerLineUnlinks)).length;
    const notLinked = await unlink(w.admin.token, unlinked.id);
    expect(notLinked.status).toBe(409);
    expect(notLinked.body).toEqual({ detail: SERVER_MESSAGES.customerNotLinked, code: 'not_linked' });
    const unknown = await unlink(w.admin.token, 999_999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ detail: MESSAGES.customerNotFound });
    expect(await w.db.select().from(customerLineUnlinks)).toHaveLength(before);
  });
});
