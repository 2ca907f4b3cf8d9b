import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { snap } from './helpers/admin-e2e';
import {
  adminToken,
  idbCount,
  insertCustomer,
  insertReservation,
  openProfile,
  outboxBadge,
  salonDate,
  shows,
  signInAndSync,
  useOfflineWorld,
} from './helpers/offline-e2e';

/**
 * Issue 16 acceptance (カルテ photos), in Chromium against `npm start` on PostgreSQL: a photo picked for a completed
 * visit without a connection waits on the device (送信待ち) and reaches the server exactly once after reconnecting.
 */
describe('カルテ photos taken offline', () => {
  const world = useOfflineWorld();

  /** The photos the server holds for the reservation, as the API answers them. */
  async function serverPhotos(number: string): Promise<unknown[]> {
    const response = await fetch(`${world.server.url}/api/admin/reservations/${number}/karte/`, {
      headers: { authorization: `Bearer ${await adminToken(world)}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { photos: unknown[] }).photos;
  }

  it('a photo picked offline is uploaded once when the connection is back', async () => {
    const customerId = await insertCustomer(world, { name: '山田 花子', email: 'hanako@example.com' });
    const visit = await insertReservation(world, {
      customerId,
      customerName: '山田 花子',
      date: salonDate(-1),
      time: '11:00',
      status: 'completed',
    });
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#f06292' } })
      .jpeg()
      .toBuffer();

    const { context, page } = await openProfile(world, world.newProfile());
    await signInAndSync(world, page);
    // On a phone, where photos are taken.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${world.url}/admin/reservations/${visit.number}`);
    await shows(page.getByRole('heading', { name: 'カルテ' }));
    await shows(page.getByText('まだ写真はありません。'));

    await context.setOffline(true);
    await page.getByLabel('写真を追加').setInputFiles({ name: 'nail.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await shows(page.getByTestId('karte-pending'));
    await shows(page.getByRole('img', { name: '送信待ち 1' }));
    await expect.poll(() => outboxBadge(page)).toBe(1);
    // Queued is done: the button is free for the next photo.
    await expect.poll(() => page.getByRole('button', { name: '写真を追加' }).getAttribute('data-loading')).toBeNull();
    expect(await idbCount(page, 'outbox')).toBe(1);
    expect(await serverPhotos(visit.number)).toHaveLength(0);
    await snap(page, 'karte-photo-queued');

    await context.setOffline(false);
    await expect.poll(() => idbCount(page, 'outbox'), { timeout: 30_000 }).toBe(0);
    await shows(page.getByRole('img', { name: '来店写真 1' }), 20_000);
    expect(await page.getByTestId('karte-pending').count()).toBe(0);

    // Reloads and further online events send nothing more: the server holds exactly one photo.
    await page.reload();
    await shows(page.getByRole('img', { name: '来店写真 1' }));
    await page.evaluate(`window.dispatchEvent(new Event('online'))`);
    await page.waitForTimeout(1500);
    expect(await serverPhotos(visit.number)).toHaveLength(1);
    const uploads = world.proxy.seen.filter((line) => line === `POST /api/admin/reservations/${visit.number}/photos/`);
    expect(uploads).toHaveLength(1);
    await snap(page, 'karte-photo-sent');
    await context.close();
  });
});
