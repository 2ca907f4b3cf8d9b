import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  adminToken,
  flushMarks,
  idbRows,
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
} from './helpers/offline-e2e';
import { snap } from './helpers/admin-e2e';

/**
 * Issue 7 acceptance, the outbox, in Chromium against `npm start` on PostgreSQL (the server's rows are read with
 * SQL):
 *   - a confirm, a cancel and a memo edit made offline survive two reloads and a browser restart, then reach the
 *     server exactly once each, in the order they were made, and the 未送信 marks clear;
 *   - a confirm made offline on a reservation the superuser cancelled meanwhile becomes a visible conflict with
 *     both states, is not retried by itself, and goes only when discarded.
 */

interface KeyRow {
  key: string;
  method: string;
  path: string;
  state: string;
  response_status: number;
}

const keyRows = (world: OfflineWorld) =>
  world.db
    .query<KeyRow>(
      `select key, method, path, state, response_status from idempotency_keys
       where caller = $1 and (path like '%/confirm/' or path like '%/cancel/' or method = 'PATCH')
       order by created_at, key`,
      [`staff:${world.adminId}`],
    )
    .then((result) => result.rows);

const statusOf = async (world: OfflineWorld, id: number) =>
  (await world.db.query<{ status: string }>('select status from reservations where id = $1', [id])).rows[0]!.status;

/** Every POST/PATCH of a change that left the page (through the proxy, i.e. reached the server). */
const changeRequests = (world: OfflineWorld) =>
  world.proxy.seen.filter((line) =>
    /^(POST \/api\/admin\/reservations\/.+\/(confirm|cancel)\/|PATCH \/api\/admin\/customers\/)/.test(line),
  );

async function editMemo(page: Page, world: OfflineWorld, customerId: number, text: string) {
  await page.goto(`${world.url}/admin/customers/${customerId}/memo`);
  const area = page.getByRole('textbox', { name: 'メモ' });
  await area.waitFor();
  await area.fill(text);
  await page.getByRole('button', { name: '保存する' }).click();
}

describe('offline changes through the outbox (persistent profile)', () => {
  const world = useOfflineWorld();

  it('keeps a confirm, a cancel and a memo edit across reloads and a restart, then applies each once, in order', async () => {
    const hanako = await insertCustomer(world, { name: '山田 花子', email: 'hanako@example.com', notes: '旧メモ' });
    const yui = await insertCustomer(world, { name: '高橋 結衣', email: 'yui@example.com' });
    const toConfirm = await insertReservation(world, {
      customerId: hanako,
      customerName: '山田 花子',
      date: salonDate(2),
      time: '10:00',
      email: 'hanako@example.com',
    });
    const toCancel = await insertReservation(world, {
      customerId: yui,
      customerName: '高橋 結衣',
      date: salonDate(2),
      time: '12:00',
      status: 'confirmed',
      email: 'yui@example.com',
    });
    const newMemo = '次回はフレンチ希望。甘皮ケアは控えめに。';
    const profile = world.newProfile();
    let { context, page } = await openProfile(world, profile);
    await signInAndSync(world, page);

    await context.setOffline(true);
    await transitionInPage(page, world, toConfirm.number, '確定する');
    await shows(page.getByText('未送信', { exact: true }));
    await shows(page.locator('[data-status="confirmed"]'));
    await transitionInPage(page, world, toCancel.number, 'キャンセル');
    await shows(page.locator('[data-status="cancelled"]'));
    await editMemo(page, world, hanako, newMemo);
    await shows(page.getByText('メモを端末に保存しました。接続が戻ると送信します。'));
    await expect.poll(() => outboxBadge(page)).toBe(3);
    await snap(page, 'offline-memo-queued');

    // Two reloads and a browser restart, all offline: the queue and its marks survive.
    for (let i = 0; i < 2; i += 1) {
      await page.reload();
      await page.getByRole('heading', { name: `山田 花子様のメモ` }).waitFor();
      await expect.poll(() => page.getByRole('textbox', { name: 'メモ' }).inputValue()).toBe(newMemo);
      await expect.poll(() => outboxBadge(page)).toBe(3);
    }
    await context.close();
    ({ context, page } = await openProfile(world, profile, { offline: true }));
    await page.goto(`${world.url}/admin/reservations`);
    await page.getByRole('table', { name: '予約一覧' }).waitFor();
    await expect.poll(() => outboxBadge(page)).toBe(3);
    const queued = await idbRows<{ kind: string; idempotencyKey: string; state: string }>(page, 'outbox');
    expect(queued.map((entry) => [entry.kind, entry.state])).toEqual([
      ['reservation-confirm', 'pending'],
      ['reservation-cancel', 'pending'],
      ['customer-notes', 'pending'],
    ]);
    // The list shows the changes as made, each marked 未送信.
    const table = page.getByRole('table', { name: '予約一覧' });
    await expect.poll(() => table.getByText('未送信', { exact: true }).count()).toBe(2);
    expect(changeRequests(world)).toEqual([]);
    expect(await keyRows(world)).toEqual([]);
    expect(await statusOf(world, toConfirm.id)).toBe('pending');

    // Back online: everything goes, once, in order, and the marks clear.
    await context.setOffline(false);
    await expect.poll(() => outboxBadge(page), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => table.getByText('未送信', { exact: true }).count()).toBe(0);
    expect(await statusOf(world, toConfirm.id)).toBe('confirmed');
    expect(await statusOf(world, toCancel.id)).toBe('cancelled');
    const { rows } = await world.db.query<{ notes: string }>('select notes from customers where id = $1', [hanako]);
    expect(rows[0]!.notes).toBe(newMemo);

    const keys = await keyRows(world);
    expect(keys.map((row) => [row.method, row.path, row.state, row.response_status])).toEqual([
      ['POST', `/api/admin/reservations/${toConfirm.number}/confirm/`, 'done', 200],
      ['POST', `/api/admin/reservations/${toCancel.number}/cancel/`, 'done', 200],
      ['PATCH', `/api/admin/customers/${hanako}/`, 'done', 200],
    ]);
    expect(keys.map((row) => row.key)).toEqual(queued.map((entry) => entry.idempotencyKey));
    // Exactly once on the server's side too: one confirmation e-mail, one cancellation e-mail.
    const { rows: mails } = await world.db.query<{ reservation_id: number; kind: string; count: number }>(
      `select reservation_id, kind, count(*)::int as count from notifications_outbox
       where channel = 'email' and reservation_id = any($1) group by reservation_id, kind order by reservation_id`,
      [[toConfirm.id, toCancel.id]],
    );
    expect(mails).toEqual([
      { reservation_id: toConfirm.id, kind: 'reservation_confirmed', count: 1 },
      { reservation_id: toCancel.id, kind: 'reservation_cancelled', count: 1 },
    ]);
    expect(await flushMarks(page)).toEqual([expect.objectContaining({ reason: 'online', sent: 3 })]);
    console.log(`replayed through the proxy: ${changeRequests(world).join(' | ')}`);
    await context.close();
  });

  it('shows a conflict with both states when the superuser cancelled meanwhile, and never retries it by itself', async () => {
    const customer = await insertCustomer(world, { name: '佐藤 美咲', email: 'misaki@example.com' });
    const reservation = await insertReservation(world, {
      customerId: customer,
      customerName: '佐藤 美咲',
      date: salonDate(3),
      time: '15:00',
      email: 'misaki@example.com',
    });
    const { context, page } = await openProfile(world, world.newProfile());
    await signInAndSync(world, page);
    const confirmPath = `/api/admin/reservations/${reservation.number}/confirm/`;

    await context.setOffline(true);
    await transitionInPage(page, world, reservation.number, '確定する');
    await expect.poll(() => outboxBadge(page)).toBe(1);

    // Meanwhile, at the front desk's other device, the superuser cancels it.
    const cancelled = await fetch(`${world.server.url}/api/admin/reservations/${reservation.number}/cancel/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await adminToken(world)}` },
    });
    expect(cancelled.status).toBe(200);

    await context.setOffline(false);
    const conflict = page.getByTestId('outbox-conflict');
    await shows(conflict, 20_000);
    const text = (await conflict.textContent()) ?? '';
    expect(text).toContain('送信できなかった変更があります');
    expect(text).toMatch(/この端末での変更\s*確定/);
    expect(text).toMatch(/サーバーの状態\s*キャンセル/);
    expect(text).toContain('佐藤 美咲');
    await shows(page.getByText('送信エラー', { exact: true }));
    await snap(page, 'offline-conflict');

    // Online, reloads and focus bring no second attempt: the server saw it once.
    await page.reload();
    await shows(page.getByTestId('outbox-conflict'));
    await page.evaluate(`window.dispatchEvent(new Event('online'))`);
    await page.waitForTimeout(1500);
    expect(world.proxy.seen.filter((line) => line === `POST ${confirmPath}`)).toHaveLength(1);
    const stored = (await keyRows(world)).filter((row) => row.path === confirmPath);
    expect(stored.map((row) => [row.state, row.response_status])).toEqual([['done', 409]]);
    expect(await statusOf(world, reservation.id)).toBe('cancelled');

    // The person decides: discard. The device then shows the server's state.
    await page.getByRole('button', { name: '変更を破棄' }).click();
    await page.getByTestId('outbox-conflict').waitFor({ state: 'detached' });
    await expect.poll(() => outboxBadge(page)).toBe(0);
    await page.goto(`${world.url}/admin/reservations/${reservation.number}`);
    await shows(page.locator('[data-status="cancelled"]'));
    expect(world.proxy.seen.filter((line) => line === `POST ${confirmPath}`)).toHaveLength(1);
    await context.close();
  });
});
