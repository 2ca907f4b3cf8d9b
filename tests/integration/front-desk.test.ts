import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, devMail, notificationsOutbox, reservations, services } from '../../server/db/schema';
import { MESSAGES } from '../../src/shared/messages';
import {
  detailedSlots,
  startBookingApp,
  times,
  type BookingWorld,
  type ServiceRow,
  type StaffMember,
} from '../helpers/booking-fixtures';
import { testEngine } from '../helpers/database';
import { lineTexts } from '#tests/helpers/line-text';
import { bookingMessagesQueued } from '#tests/helpers/booking-events';

interface Mail {
  subject: string;
  text: string;
}

/** Issue 18, front desk: what staff-made bookings send, whose time the dialogs offer, the salon's contact details. */
describe(`front desk on ${testEngine}`, () => {
  let w: BookingWorld;
  let staffA: StaffMember;
  let gel: ServiceRow;

  beforeAll(async () => {
    w = await startBookingApp();
    staffA = await w.staff('desk-a', '佐藤 A');
    gel = await w.service('ジェルネイル', 90);
    await w.openSlots(staffA.id, '2030-02-04', times('10:00', '18:00'));
  });
  afterAll(() => w?.close());

  /** The outbox rows a reservation queued, by channel and kind. */
  async function outboxOf(reservationId: number) {
    await bookingMessagesQueued(w.t);
    return w.db
      .select({
        channel: notificationsOutbox.channel,
        kind: notificationsOutbox.kind,
        payload: notificationsOutbox.payload,
      })
      .from(notificationsOutbox)
      .where(eq(notificationsOutbox.reservation_id, reservationId));
  }

  async function customerMail(reservationId: number): Promise<Mail> {
    const rows = await outboxOf(reservationId);
    const mail = rows.find((row) => row.channel === 'email');
    if (!mail) throw new Error(`no e-mail for reservation ${reservationId}`);
    return mail.payload as Mail;
  }

  describe('item 1: a booking staff make sends the confirmation, never the acceptance', () => {
    it('for a known customer: the confirmation mail and LINE message', async () => {
      const known = await w.customer({ name: '中村 奈々', email: 'nana@example.com', assignedStaffId: staffA.id });
      await w.db.update(customers).set({ line_user_id: 'U-front-desk-nana' }).where(eq(customers.id, known.id));
      const created = await w.api('/api/admin/reservations/create-for-customer/', {
        method: 'POST',
        token: staffA.token,
        json: { service_id: gel.id, customer_id: known.id, start_time: '2030-02-04T10:00' },
      });
      expect(created.status).toBe(201);
      const id = (created.body as { id: number }).id;
      const rows = await outboxOf(id);
      expect(rows.map((row) => `${row.channel}:${row.kind}`).sort()).toEqual([
        'email:reservation_confirmed',
        'line:reservation_confirmed',
      ]);
      const mail = await customerMail(id);
      expect(mail.subject).toContain('ご予約が確定しました');
      expect(mail.text).toContain('以下のご予約が確定しました。');
      expect(mail.text).not.toContain('確定しましたら改めてご連絡いたします');
      const line = lineTexts(rows.find((row) => row.channel === 'line')!.payload as { messages: unknown[] });
      expect(line).toContain('ご予約が確定しました。');
      expect(line).not.toContain('確定しましたら');
    });

    it('for a new customer typed in at the desk: the confirmation mail', async () => {
      const created = await w.api('/api/admin/reservations/create-with-new-customer/', {
        method: 'POST',
        token: staffA.token,
        json: { name: '小林 舞', email: 'mai@example.com', service_id: gel.id, start_time: '2030-02-04T13:00' },
      });
      expect(created.status).toBe(201);
      const mail = await customerMail((created.body as { id: number }).id);
      expect(mail.subject).toContain('ご予約が確定しました');
      expect(mail.text).not.toContain('確定しましたら改めてご連絡いたします');
    });

    it("a customer's own online booking still gets the acceptance", async () => {
      const online = await w.customer({ name: '山田 花子', email: 'hanako@example.com' });
      await w.booked(online, gel.id, '2030-02-04T16:00:00');
      // Sent from the booking's event, and stored after it without its text (decision 0025): as the customer got it.
      await bookingMessagesQueued(w.t);
      const [mail] = await w.db.select().from(devMail).where(eq(devMail.to, 'hanako@example.com'));
      expect(mail!.subject).toContain('ご予約を受け付けました');
      expect(mail!.text).toContain('確定しましたら改めてご連絡いたします');
    });
  });

  describe('item 2: a superuser without opening slots books for a staff member who has them', () => {
    it("labels only the chosen staff member's closed times (営業時間外)", async () => {
      // The admin has no slots: asked for their own day, every time of the salon's hours is outside.
      const own = await w.api('/api/admin/detailed-time-slots/?date=2030-02-05', { token: w.admin.token });
      expect(own.status).toBe(200);
      expect((own.body as { available_times: string[] }).available_times).toEqual([]);

      await w.openSlots(staffA.id, '2030-02-05', times('10:00', '18:00'));
      const chosen = await detailedSlots(w, '2030-02-05', staffA.id);
      expect(chosen.available_times).toEqual(times('10:00', '18:00'));
      expect(chosen.outside_business_hours).toEqual([...times('09:00', '10:00'), ...times('18:00', '21:00')]);
      expect(chosen.booked_times).toEqual([]);
    });

    it('books the chosen staff member; an ordinary staff member always books for themselves', async () => {
      const regular = await w.customer({ name: '伊藤 彩', email: 'aya@example.com' });
      const byAdmin = await w.api('/api/admin/reservations/create-for-customer/', {
        method: 'POST',
        token: w.admin.token,
        json: { service_id: gel.id, customer_id: regular.id, start_time: '2030-02-05T10:00', staff_id: staffA.id },
      });
      expect(byAdmin.status).toBe(201);
      expect(byAdmin.body).toMatchObject({ staff_id: staffA.id, status: 'confirmed' });
      expect((await detailedSlots(w, '2030-02-05', staffA.id)).booked_times).toEqual(times('10:00', '11:30'));

      const walkIn = await w.api('/api/admin/reservations/create-with-new-customer/', {
        method: 'POST',
        token: w.admin.token,
        json: { name: '加藤 優', service_id: gel.id, start_time: '2030-02-05T12:00', staff_id: staffA.id },
      });
      expect(walkIn.status).toBe(201);
      expect(walkIn.body).toMatchObject({ staff_id: staffA.id });

      const staffB = await w.staff('desk-b', '鈴木 B');
      const own = await w.api('/api/admin/reservations/create-with-new-customer/', {
        method: 'POST',
        token: staffB.token,
        json: { name: '松本 光', service_id: gel.id, start_time: '2030-02-05T12:00', staff_id: staffA.id },
      });
      expect(own.status).toBe(201);
      expect(own.body).toMatchObject({ staff_id: staffB.id });
    });
  });

  describe('item 6: the salon contact details', () => {
    const contact = {
      phone_number: '03-1234-5678',
      address: '東京都渋谷区神南1-2-3 桜ビル2F',
      map_url: 'https://maps.example.com/?q=sakura',
      opening_hours_text: '10:00〜20:00（火曜定休）',
    };

    it('are checked: digits and hyphens for the phone, https for the map link', async () => {
      const patch = (json: Record<string, unknown>) =>
        w.api('/api/admin/settings/', { method: 'PATCH', token: w.admin.token, json });
      const phone = await patch({ phone_number: '03 1234 abcd' });
      expect(phone.status).toBe(400);
      expect(phone.body).toMatchObject({ fields: { phone_number: [MESSAGES.salonPhoneInvalid] } });
      for (const url of ['http://maps.example.com/', 'javascript:alert(1)', 'maps.example.com']) {
        const map = await patch({ map_url: url });
        expect(map.status).toBe(400);
        expect(map.body).toMatchObject({ fields: { map_url: [MESSAGES.mapUrlInvalid] } });
      }
      // Ordinary staff may not change them.
      expect(
        (await w.api('/api/admin/settings/', { method: 'PATCH', token: staffA.token, json: contact })).status,
      ).toBe(403);
    });

    it('are saved by the superuser, public in GET /api/config/, and signed under every e-mail', async () => {
      const saved = await w.api('/api/admin/settings/', { method: 'PATCH', token: w.admin.token, json: contact });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject(contact);
      expect((await w.api('/api/admin/settings/', { token: staffA.token })).body).toMatchObject(contact);

      const config = await w.api('/api/config/');
      expect(config.status).toBe(200);
      expect((config.body as { settings: object }).settings).toMatchObject(contact);

      const regular = await w.customer({ name: '井上 恵', email: 'megumi@example.com', assignedStaffId: staffA.id });
      const created = await w.api('/api/admin/reservations/create-for-customer/', {
        method: 'POST',
        token: staffA.token,
        json: { service_id: gel.id, customer_id: regular.id, start_time: '2030-02-04T14:30' },
      });
      expect(created.status).toBe(201);
      const mail = await customerMail((created.body as { id: number }).id);
      expect(mail.text).toContain('電話: 03-1234-5678');
      expect(mail.text).toContain(`住所: ${contact.address}`);
      expect(mail.text).toContain(`地図: ${contact.map_url}`);
      expect(mail.text).toContain(`営業時間: ${contact.opening_hours_text}`);

      // Cleared again, the lines go away.
      const cleared = await w.api('/api/admin/settings/', {
        method: 'PATCH',
        token: w.admin.token,
        json: { phone_number: '', address: '', map_url: '', opening_hours_text: '' },
      });
      expect(cleared.status).toBe(200);
      const [row] = await w.db
        .select({ id: reservations.id })
        .from(reservations)
        .where(and(eq(reservations.customer_id, regular.id), eq(reservations.status, 'confirmed')));
      await w.api(
        `/api/admin/reservations/${(created.body as { reservation_number: string }).reservation_number}/cancel/`,
        {
          method: 'POST',
          token: staffA.token,
        },
      );
      const cancelMail = (await outboxOf(row!.id)).find((r) => r.kind === 'reservation_cancelled')!.payload as Mail;
      expect(cancelMail.text).not.toContain('電話:');
    });
  });

  describe('item 8: the menu order', () => {
    it('lists a new menu item after the existing ones, also on a menu numbered from 0 as the seed numbers it', async () => {
      await w.db.update(services).set({ sort_order: 5 }).where(eq(services.id, gel.id));
      await w.service('ケア', 30);
      await w.db.update(services).set({ sort_order: 0 }).where(eq(services.name, 'ケア'));
      w.t.app.bookingReads.clear();
      const created = await w.api('/api/services/', {
        method: 'POST',
        token: w.admin.token,
        json: { name: '季節のアート', price: 8000, duration_minutes: 120, salon: w.t.salonId },
      });
      expect(created.status).toBe(201);
      const listed = await w.api('/api/services/');
      const names = (listed.body as unknown as Array<{ name: string }>).map((service) => service.name);
      expect(names).toEqual(['ケア', 'ジェルネイル', '季節のアート']);
    });
  });
});
