import type { Page } from 'playwright-core';
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
  type OfflineWorld,
  type SeededReservation,
} from './helpers/offline-e2e';
import { MESSAGES } from '../../src/shared/messages';

/**
 * Issue 34: poor signal is not offline. A phone that shows signal while nothing comes back (navigator.onLine stays
 * true) must not wait on dead requests: the transport's time limits (src/lib/api-transport.ts, a read 5 s, a
 * write 10 s) make a read answer from the device's copy and a change go to the outbox as 未送信, with the banner
 * 接続が不安定です (not オフライン); and the outbox sends by itself once the network answers again
 * (src/lib/outbox-retry.ts), with the page left open, each change once (Idempotency-Key), in order, even though
 * the first tries arrive late at the server too.
 */

const WRITE_LIMIT_MS = 10_000;
const MARGIN_MS = 1_000;

const statusOf = async (world: OfflineWorld, id: number) =>
  (await world.db.query<{ status: string }>('select status from reservations where id = $1', [id])).rows[0]!.status;

const notesOf = async (world: OfflineWorld, id: number) =>
  (await world.db.query<{ notes: string }>('select notes from customers where id = $1', [id])).rows[0]!.notes;

/** The idempotency records of these changes, first arrival first. */
const changeKeys = (world: OfflineWorld, paths: string[]) =>
  world.db
    .query<{ method: string; path: string; state: string }>(
      `select method, path, state from idempotency_keys where caller = $1 and path = any($2) order by created_at`,
      [`staff:${world.adminId}`, paths],
    )
    .then((result) => result.rows);

const mailsOf = (world: OfflineWorld, ids: number[]) =>
  world.db
    .query<{ reservation_id: number; kind: string; count: number }>(
      `select reservation_id, kind, count(*)::int as count from notifications_outbox
       where channel = 'email' and reservation_id = any($1) group by reservation_id, kind order by reservation_id`,
      [ids],
    )
    .then((result) => result.rows);

/** How long `step` took until `done` resolved. */
async function timed(step: () => Promise<unknown>, done: () => Promise<unknown>): Promise<number> {
  await step();
  const started = Date.now();
  await done();
  return Date.now() - started;
}

async function saveMemo(page: Page, world: OfflineWorld, customerId: number, text: string) {
  await page.goto(`${world.url}/admin/customers/${customerId}/memo`);
  const area = page.getByRole('textbox', { name: 'メモ' });
  await area.waitFor({ timeout: 15_000 });
  await area.fill(text);
  await page.getByRole('button', { name: '保存する' }).click();
}

/** Confirms one booking, cancels another and saves a memo; each must show its outcome within the write limit. */
async function threeChanges(
  page: Page,
  world: OfflineWorld,
  [toConfirm, toCancel]: SeededReservation[],
  customer: number,
  memo: string,
) {
  const limit = WRITE_LIMIT_MS + MARGIN_MS;
  const confirmTook = await timed(
    () => transitionInPage(page, world, toConfirm!.number, '確定する'),
    () => shows(page.locator('[data-status="confirmed"]'), limit),
  );
  const cancelTook = await timed(
    () => transitionInPage(page, world, toCancel!.number, 'キャンセル'),
    () => shows(page.locator('[data-status="cancelled"]'), limit),
  );
  // The detail's other actions are usable again at once: no reload holds them.
  const memoTook = await timed(
    () => saveMemo(page, world, customer, memo),
    () =>
      Promise.race([
        shows(page.getByText('メモを端末に保存しました。接続が戻ると送信します。'), limit),
        shows(page.getByText(MESSAGES.adminMemoSaved), limit),
      ]),
  );
  console.log(`poor signal: confirm ${confirmTook} ms, cancel ${cancelTook} ms, memo ${memoTook} ms`);
  for (const took of [confirmTook, cancelTook, memoTook]) expect(took).toBeLessThanOrEqual(limit);
}

async function expectEachOnceInOrder(
  world: OfflineWorld,
  [toConfirm, toCancel]: SeededReservation[],
  customer: number,
  memo: string,
) {
  expect(await statusOf(world, toConfirm!.id)).toBe('confirmed');
  expect(await statusOf(world, toCancel!.id)).toBe('cancelled');
  expect(await notesOf(world, customer)).toBe(memo);
  const paths = [
    `/api/admin/reservations/${toConfirm!.number}/confirm/`,
    `/api/admin/reservations/${toCancel!.number}/cancel/`,
    `/api/admin/customers/${customer}/`,
  ];
  const keys = await changeKeys(world, paths);
  expect(keys.map((row) => [row.method, row.path, row.state])).toEqual([
    ['POST', paths[0], 'done'],
    ['POST', paths[1], 'done'],
    ['PATCH', paths[2], 'done'],
  ]);
  expect(await mailsOf(world, [toConfirm!.id, toCancel!.id])).toEqual([
    { reservation_id: toConfirm!.id, kind: 'reservation_confirmed', count: 1 },
    { reservation_id: toCancel!.id, kind: 'reservation_cancelled', count: 1 },
  ]);
}

describe('poor signal is not offline', () => {
  const world = useOfflineWorld();

  async function seed(name: string, email: string, inDays: number) {
    const customer = await insertCustomer(world, { name, email, notes: '旧メモ' });
    const bookings: SeededReservation[] = [];
    for (const time of ['10:00', '13:00']) {
      bookings.push(
        await insertReservation(world, {
          customerId: customer,
          customerName: name,
          date: salonDate(inDays),
          time,
          email,
        }),
      );
    }
    return { customer, bookings };
  }

  it('a black hole: each change shows 未送信 within the time limit, then reaches the server by itself, once', async () => {
    const { customer, bookings } = await seed('高橋 優子', 'yuko@example.com', 4);
    const { context, page } = await openProfile(world, world.newProfile());
    await signInAndSync(world, page);

    // Every API request now goes out and gets nothing back; the device still believes it is online.
    world.proxy.hold((_method, url) => url.startsWith('/api/'));
    await threeChanges(page, world, bookings, customer, '黒い穴のメモ');
    expect(await page.evaluate('navigator.onLine')).toBe(true);
    await shows(page.getByText('接続が不安定です'));
    expect(await page.getByText('オフライン', { exact: true }).count()).toBe(0);
    expect(await outboxBadge(page)).toBe(3);
    await shows(page.getByTestId('outbox-last-attempt'));

    // A pending booking's カルテ says plainly that it is not kept on the device.
    await page.goto(`${world.url}/admin/reservations/${bookings[0]!.number}`);
    await shows(page.getByTestId('karte-not-kept'));
    expect(await page.getByText('カルテを読み込めませんでした').count()).toBe(0);

    // The network answers again (the held first tries arrive late, too); the page is left alone.
    world.proxy.hold(null);
    await expect.poll(() => outboxBadge(page), { timeout: 15_000, interval: 250 }).toBe(0);
    await expectEachOnceInOrder(world, bookings, customer, '黒い穴のメモ');
    await expect.poll(() => page.getByText('接続が不安定です').count(), { timeout: 10_000 }).toBe(0);
    await context.close();
  });

  it('slow 3G (DevTools profile): each change shows its outcome within the time limit and reaches the server once', async () => {
    const { customer, bookings } = await seed('中村 由美', 'yumi@example.com', 5);
    const { context, page } = await openProfile(world, world.newProfile());
    await signInAndSync(world, page);

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Chromium DevTools' "Slow 3G": 2 s round trips, 400 kbit/s each way.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 2000,
      downloadThroughput: (400 * 1024) / 8,
      uploadThroughput: (400 * 1024) / 8,
    });
    const probe = await page.evaluate<number>(
      `(async () => { const started = performance.now(); await fetch('/api/health/', { cache: 'no-store' }); return performance.now() - started; })()`,
    );
    expect(probe).toBeGreaterThanOrEqual(1_900);

    await threeChanges(page, world, bookings, customer, '遅い回線のメモ');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect.poll(() => outboxBadge(page), { timeout: 15_000, interval: 250 }).toBe(0);
    await expectEachOnceInOrder(world, bookings, customer, '遅い回線のメモ');
    await context.close();
  });

  it('on a phone the detail page’s actions are on screen without scrolling', async () => {
    const { bookings } = await seed('小川 葵', 'aoi@example.com', 6);
    const { context, page } = await openProfile(world, world.newProfile());
    await signInAndSync(world, page);
    await page.setViewportSize({ width: 390, height: 664 });
    await page.goto(`${world.url}/admin/reservations/${bookings[0]!.number}`);
    const confirm = page.getByRole('button', { name: '確定する', exact: true });
    const cancel = page.getByRole('button', { name: 'キャンセル', exact: true });
    await confirm.waitFor();
    for (const button of [confirm, cancel]) {
      const box = (await button.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(664);
    }
    expect(await page.evaluate('window.scrollY')).toBe(0);
    await context.close();
  });
});
