import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  flushMarks,
  insertCustomer,
  insertReservation,
  openProfile,
  outboxBadge,
  salonDate,
  signInAndSync,
  startOfflineWorld,
  transitionInPage,
  type OfflineWorld,
  type SeededReservation,
} from './helpers/offline-e2e';

/**
 * Issue 7 acceptance, what sends the outbox:
 *   - where the browser has Background Sync (Chromium), the service worker's `sync` event does: a change is queued
 *     by a network failure while the device believes it is online (the proxy resets the connections, so no
 *     `online` event will come), then the sync event is dispatched through the DevTools protocol, as the browser
 *     does when connectivity returns, and the page's flush is the one that sends it;
 *   - with Background Sync removed (as on Safari and Firefox), replay still happens on `online` and on start.
 * Which trigger sent a change is read from the outbox's User Timing marks.
 */

const statusOf = async (world: OfflineWorld, reservation: SeededReservation) =>
  (await world.db.query<{ status: string }>('select status from reservations where id = $1', [reservation.id])).rows[0]!
    .status;

const NO_BACKGROUND_SYNC = `
  delete ServiceWorkerRegistration.prototype.sync;
  delete window.SyncManager;
`;

describe('outbox triggers', () => {
  let world: OfflineWorld;
  const reservations: SeededReservation[] = [];

  beforeAll(async () => {
    world = await startOfflineWorld();
    const customer = await insertCustomer(world, { name: '小林 さくら', email: 'sakura@example.com' });
    for (const time of ['10:00', '12:00', '14:00']) {
      reservations.push(
        await insertReservation(world, { customerId: customer, customerName: '小林 さくら', date: salonDate(5), time }),
      );
    }
  });
  afterAll(async () => {
    await world?.stop();
  });

  it("sends a change queued by a network failure from the service worker's sync event", async () => {
    const { context, page } = await openProfile(world, world.newProfile());
    await signInAndSync(world, page);
    expect(await page.evaluate(`'sync' in ServiceWorkerRegistration.prototype`)).toBe(true);

    // The connection drops without the device noticing: every API call fails, navigator.onLine stays true.
    world.proxy.block((_method, url) => url.startsWith('/api/'));
    await transitionInPage(page, world, reservations[0]!.number, '確定する');
    await expect.poll(() => outboxBadge(page)).toBe(1);
    expect(await page.evaluate('navigator.onLine')).toBe(true);

    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => registrations.find((registration) => registration.scopeURL === `${world.url}/`))
      .toBeTruthy();
    const { registrationId } = registrations.find((registration) => registration.scopeURL === `${world.url}/`)!;

    world.proxy.block(null);
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: world.url,
      registrationId,
      tag: 'outbox-flush',
      lastChance: false,
    });
    await expect.poll(() => outboxBadge(page), { timeout: 20_000 }).toBe(0);
    expect(await statusOf(world, reservations[0]!)).toBe('confirmed');
    expect(await flushMarks(page)).toEqual([{ reason: 'background-sync', sent: 1 }]);
    await context.close();
  });

  it('without Background Sync (Safari, Firefox), replays on `online` and on start', async () => {
    const profile = world.newProfile();
    let { context, page } = await openProfile(world, profile, { initScript: NO_BACKGROUND_SYNC });
    await signInAndSync(world, page);
    expect(await page.evaluate(`'sync' in ServiceWorkerRegistration.prototype`)).toBe(false);

    // On `online`.
    await context.setOffline(true);
    await transitionInPage(page, world, reservations[1]!.number, '確定する');
    await expect.poll(() => outboxBadge(page)).toBe(1);
    await context.setOffline(false);
    await expect.poll(() => outboxBadge(page), { timeout: 20_000 }).toBe(0);
    expect(await statusOf(world, reservations[1]!)).toBe('confirmed');
    expect(await flushMarks(page)).toEqual([{ reason: 'online', sent: 1 }]);

    // On start: queued offline, the browser closed, opened again later with a connection.
    await context.setOffline(true);
    await transitionInPage(page, world, reservations[2]!.number, 'キャンセル');
    await expect.poll(() => outboxBadge(page)).toBe(1);
    await context.close();
    expect(await statusOf(world, reservations[2]!)).toBe('pending');

    ({ context, page } = await openProfile(world, profile, { initScript: NO_BACKGROUND_SYNC }));
    await page.goto(`${world.url}/admin`);
    await page.getByRole('heading', { name: '予約確認' }).waitFor();
    await expect.poll(() => statusOf(world, reservations[2]!), { timeout: 20_000 }).toBe('cancelled');
    await expect.poll(() => outboxBadge(page)).toBe(0);
    expect(await flushMarks(page)).toEqual([{ reason: 'start', sent: 1 }]);
    await context.close();
  });
});
