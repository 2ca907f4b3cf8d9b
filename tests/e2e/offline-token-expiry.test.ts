import { describe, expect, it } from 'vitest';
import {
  insertCustomer,
  insertReservation,
  openProfile,
  outboxBadge,
  salonDate,
  shows,
  signInAndSync,
  transitionInPage,
  useOfflineWorld,
} from './helpers/offline-e2e';

/**
 * Issue 7 acceptance, token expiry: the server runs with a 1-minute access token (ACCESS_TOKEN_TTL_SECONDS=60 in
 * its environment). Changes queued offline wait for longer than that, in real time (no fake clock: the server's
 * own clock decides expiry), then replay after exactly one refresh, none of them refused with a 401.
 */
const TTL_SECONDS = 60;

const expiryOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).exp as number;

describe('replay after the access token expired (1-minute tokens)', () => {
  const world = useOfflineWorld({ ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) });

  it('refreshes once, then replays every queued change with the new token', async () => {
    const customer = await insertCustomer(world, { name: '中村 玲奈', email: 'rena@example.com', notes: '' });
    const reservation = await insertReservation(world, {
      customerId: customer,
      customerName: '中村 玲奈',
      date: salonDate(4),
      time: '14:00',
      email: 'rena@example.com',
    });
    const { context, page } = await openProfile(world, world.newProfile());
    const changeStatuses: number[] = [];
    context.on('response', (response) => {
      const request = response.request();
      if (/\/(confirm|cancel)\/$/.test(request.url()) || request.method() === 'PATCH')
        changeStatuses.push(response.status());
    });
    await signInAndSync(world, page);

    await context.setOffline(true);
    await transitionInPage(page, world, reservation.number, '確定する');
    await page.goto(`${world.url}/admin/customers/${customer}/memo`);
    await page.getByRole('textbox', { name: 'メモ' }).fill('長さはショート。');
    await page.getByRole('button', { name: '保存する' }).click();
    await expect.poll(() => outboxBadge(page)).toBe(2);

    const queuedWith = (await page.evaluate<string | null>(`localStorage.getItem('adminAccessToken')`))!;
    const waitMs = expiryOf(queuedWith) * 1000 - Date.now() + 3000;
    console.log(`waiting ${Math.round(waitMs / 1000)} s offline for the ${TTL_SECONDS}-second access token to expire`);
    expect(waitMs).toBeGreaterThan(0);
    await page.waitForTimeout(waitMs);
    expect(expiryOf(queuedWith) * 1000).toBeLessThan(Date.now());

    const refreshesBefore = world.proxy.seen.filter((line) => line.startsWith('POST /api/token/refresh/')).length;
    await context.setOffline(false);
    await expect.poll(() => outboxBadge(page), { timeout: 20_000 }).toBe(0);
    // Let any other caller (live updates, sync, queries) that also met the expired token finish too.
    await page.waitForTimeout(2000);
    const refreshes =
      world.proxy.seen.filter((line) => line.startsWith('POST /api/token/refresh/')).length - refreshesBefore;
    console.log(`refreshes after going online: ${refreshes}; change answers: ${changeStatuses.join(', ')}`);
    expect(refreshes).toBe(1);
    expect(changeStatuses).toEqual([200, 200]);

    const stored = await page.evaluate<string | null>(`localStorage.getItem('adminAccessToken')`);
    expect(stored).not.toBe(queuedWith);
    expect(expiryOf(stored!) * 1000).toBeGreaterThan(Date.now());
    const { rows } = await world.db.query<{ status: string; notes: string }>(
      'select r.status, c.notes from reservations r join customers c on c.id = r.customer_id where r.id = $1',
      [reservation.id],
    );
    expect(rows[0]).toEqual({ status: 'confirmed', notes: '長さはショート。' });
    // The session goes on: no login screen, the shell is there.
    await shows(page.getByRole('button', { name: 'ログアウト' }));
    await context.close();
  });
});
