import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsOutbox, staffPushSubscriptions } from '#server/db/schema';
import {
  at,
  startBookingApp,
  times,
  type BookingWorld,
  type CustomerMember,
  type ServiceRow,
  type StaffMember,
} from '#tests/helpers/booking-fixtures';
import { testEngine } from '#tests/helpers/database';
import { fakeBrowser, startFakePushService, type FakePushService } from '#tests/helpers/fake-push-service';
import { SERVER_MESSAGES } from '#src/shared/server-messages';

const DAY = '2030-01-15';

/**
 * Push endpoints on a production server (NODE_ENV=production): only the browsers' push services and the hosts of
 * WEB_PUSH_HOSTS (server/integrations/web-push/endpoint.ts). Names that lead to this machine or an internal
 * service are refused when subscribed, and a subscription stored before this rule is never contacted.
 */
describe(`push endpoints in production on ${testEngine}`, () => {
  let w: BookingWorld;
  let push: FakePushService;
  let staff: StaffMember;
  let hanako: CustomerMember;
  let gel: ServiceRow;

  const subscribe = (endpoint: string) =>
    w.api('/api/admin/push-subscriptions/', {
      method: 'POST',
      token: staff.token,
      json: fakeBrowser(endpoint).subscription,
    });

  beforeAll(async () => {
    push = await startFakePushService();
    w = await startBookingApp({
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://salon.example.jp', WEB_PUSH_HOSTS: 'push.example.org' },
      notifications: { autoStart: false, backoffBaseMs: 0, backoffMaxMs: 0 },
    });
    staff = await w.staff('push-prod', '佐藤 美咲');
    hanako = await w.customer({ name: '山田 花子' });
    gel = await w.service('ジェルネイル', 60, 6600);
    await w.openSlots(staff.id, DAY, times('10:00', '18:00'));
  });
  afterAll(async () => {
    await w?.close();
    await push?.close();
  });

  it('refuses names that resolve to this machine or internal services, and loopback http, with a 400', async () => {
    for (const endpoint of [
      'https://localhost.:9/push',
      'https://localhost/push',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://push.example.com/x',
      `${push.origin}/push/1`,
      'http://localhost:9/push',
    ]) {
      const refused = await subscribe(endpoint);
      expect(refused.status, endpoint).toBe(400);
      expect(refused.body).toMatchObject({
        detail: SERVER_MESSAGES.pushEndpointRefused,
        code: 'invalid',
        fields: { endpoint: [SERVER_MESSAGES.pushEndpointRefused] },
      });
    }
    expect(await w.db.select().from(staffPushSubscriptions)).toEqual([]);
  });

  it('takes the browsers’ push services and the WEB_PUSH_HOSTS ones', async () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/abc',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://push.example.org/abc',
    ]) {
      expect((await subscribe(endpoint)).status, endpoint).toBe(201);
    }
    await w.db.delete(staffPushSubscriptions);
  });

  it('never contacts a loopback subscription stored before the rule: removed, the notice goes by LINE next', async () => {
    const { subscription } = fakeBrowser(`${push.origin}/push/old`);
    await w.db.insert(staffPushSubscriptions).values({
      salon_id: w.t.salonId,
      staff_id: staff.id,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      user_agent: 'old browser',
    });
    await w.booked(hanako, gel.id, at(DAY, '10:00'));
    expect(await w.t.app.notifications.worker.drainOnce()).toMatchObject({ failed: 0, retried: 0 });
    expect(push.requests).toEqual([]);
    const [row] = await w.db.select().from(notificationsOutbox).where(eq(notificationsOutbox.channel, 'webpush'));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: expect.stringContaining('refused') });
    expect(await w.db.select().from(staffPushSubscriptions)).toEqual([]);
  });
});
