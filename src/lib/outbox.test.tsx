import 'fake-indexeddb/auto';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { server } from '../../tests/setup/msw-server';
import '#src/app/offline/staff-changes';
import { db } from './db';
import {
  canRetry,
  discardOutboxEntry,
  flushOutbox,
  MAX_SERVER_ATTEMPTS,
  reloadOutbox,
  resetOutboxForTests,
  retryOutboxEntry,
  sendOrQueue,
} from './outbox';
import { getOutboxSnapshot, outboxMayHoldChanges } from './outbox-state';

/**
 * The outbox of docs/architecture.md#offline-design against a mock server (MSW) and a real IndexedDB implementation (fake-indexeddb):
 * order per target, conflicts, Idempotency-Key, refresh before replay, and that nothing is ever dropped by itself.
 */

const R1 = '11111111-1111-4111-8111-111111111111';
const R2 = '22222222-2222-4222-8222-222222222222';
/** The start the staff member saw when they pressed the button (sent as expected_start_time). */
const SEEN = '2030-01-15T14:00:00';

/** An unsigned JWT with the claims the outbox reads (the mock server does not verify it). */
function jwt(sub: number, expiresInSeconds: number, tag = 'a'): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'none' })}.${part({ sub: String(sub), exp: Math.floor(Date.now() / 1000) + expiresInSeconds, tag })}.sig`;
}

let online = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });

interface Received {
  method: string;
  path: string;
  key: string | null;
  auth: string | null;
  body: unknown;
}

/** Records every change request the mock server receives; `answer` decides the reply per request. */
function recordChanges(answer: (request: Received, index: number) => Response | 'network-error' = () => ok()) {
  const received: Received[] = [];
  const handle = async ({ request }: { request: Request }) => {
    const text = await request.text();
    const entry: Received = {
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get('idempotency-key'),
      auth: request.headers.get('authorization'),
      body: text ? JSON.parse(text) : undefined,
    };
    received.push(entry);
    const reply = answer(entry, received.length - 1);
    return reply === 'network-error' ? HttpResponse.error() : reply;
  };
  server.use(
    http.post('/api/admin/reservations/:number/:action/', handle),
    http.patch('/api/admin/customers/:id/', handle),
  );
  return received;
}

const ok = (body: object = { ok: true }) => HttpResponse.json(body);
const reservation = (number: string, status: string) => ({
  reservation_number: number,
  status,
  customer_name: '山田 花子',
});

function staffSignedIn(token = jwt(7, 900)) {
  window.localStorage.setItem('adminAccessToken', token);
  window.localStorage.setItem('adminRefreshToken', 'refresh-1');
}

async function queueOffline(...changes: Parameters<typeof sendOrQueue>[0][]) {
  online = false;
  for (const change of changes) expect(await sendOrQueue(change)).toEqual({ queued: true });
  online = true;
}

beforeEach(async () => {
  online = true;
  resetOutboxForTests();
  await db.outbox.clear();
  staffSignedIn();
});

afterEach(() => {
  online = true;
});

describe('queueing', () => {
  it('sends at once when online, with an Idempotency-Key, and queues nothing', async () => {
    const received = recordChanges(() => ok(reservation(R1, 'confirmed')));
    const result = await sendOrQueue({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    expect(result).toEqual({ queued: false, data: reservation(R1, 'confirmed') });
    expect(received).toHaveLength(1);
    expect(received[0]!.key).toMatch(/^[\w-]{16,}$/);
    expect(await db.outbox.count()).toBe(0);
  });

  it('offline, keeps each change in IndexedDB with its own key, in order, and sends nothing', async () => {
    const received = recordChanges();
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
      { kind: 'customer-notes', customerId: 5, notes: 'ジェル希望', customerName: '山田 花子' },
    );
    expect(received).toHaveLength(0);
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((entry) => [entry.kind, entry.state, entry.staffId])).toEqual([
      ['reservation-confirm', 'pending', 7],
      ['reservation-cancel', 'pending', 7],
      ['customer-notes', 'pending', 7],
    ]);
    expect(new Set(entries.map((entry) => entry.idempotencyKey)).size).toBe(3);
    expect(getOutboxSnapshot().entries).toHaveLength(3);
  });

  it('queues a send that got no answer under the key it was sent with, and replays it with that key', async () => {
    const received = recordChanges((_request, index) =>
      index === 0 ? 'network-error' : ok(reservation(R1, 'confirmed')),
    );
    expect(await sendOrQueue({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN })).toEqual({
      queued: true,
    });
    const [entry] = await db.outbox.toArray();
    expect(entry!.idempotencyKey).toBe(received[0]!.key);

    const result = await flushOutbox();
    expect(result).toMatchObject({ sent: 1, remaining: 0 });
    expect(received.map((request) => request.key)).toEqual([entry!.idempotencyKey, entry!.idempotencyKey]);
  });

  it('puts a change behind a waiting one of the same reservation even when online', async () => {
    const received = recordChanges((request) => (request.path.endsWith('/confirm/') ? 'network-error' : ok()));
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    // Online again but the confirm cannot get through: the cancel must not overtake it.
    expect(await sendOrQueue({ kind: 'reservation-cancel', reservationNumber: R1, expectedStartTime: SEEN })).toEqual({
      queued: true,
    });
    await flushOutbox();
    expect(received.map((request) => request.path)).toEqual([`/api/admin/reservations/${R1}/confirm/`]);
    expect((await db.outbox.toArray()).map((entry) => entry.kind)).toEqual([
      'reservation-confirm',
      'reservation-cancel',
    ]);
  });
});

describe('replay order', () => {
  it('replays every entry once, in the order made, with the stored keys and a body for the memo', async () => {
    const received = recordChanges();
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'customer-notes', customerId: 5, notes: '爪が薄い' },
      { kind: 'reservation-cancel', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
    );
    const keys = (await db.outbox.orderBy('seq').toArray()).map((entry) => entry.idempotencyKey);
    expect(await flushOutbox()).toMatchObject({ sent: 4, remaining: 0 });
    expect(received.map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /api/admin/reservations/${R1}/confirm/`,
      'PATCH /api/admin/customers/5/',
      `POST /api/admin/reservations/${R1}/cancel/`,
      `POST /api/admin/reservations/${R2}/cancel/`,
    ]);
    expect(received.map((request) => request.key)).toEqual(keys);
    expect(received[1]!.body).toEqual({ notes: '爪が薄い' });
    // A second flush has nothing left to send.
    await flushOutbox();
    expect(received).toHaveLength(4);
  });

  it('tells the login screen whether to look: the device remembers that changes wait, and forgets once sent', async () => {
    recordChanges();
    expect(outboxMayHoldChanges()).toBe(false);
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    expect(outboxMayHoldChanges()).toBe(true);
    expect(await flushOutbox()).toMatchObject({ sent: 1, remaining: 0 });
    expect(outboxMayHoldChanges()).toBe(false);
  });

  it('stops at the first network failure and resumes from that entry with the same key', async () => {
    let down = true;
    const received = recordChanges(() => (down ? 'network-error' : ok()));
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
    );
    expect(await flushOutbox()).toMatchObject({ sent: 0, remaining: 2, stopped: 'offline' });
    expect(received).toHaveLength(1);
    down = false;
    expect(await flushOutbox()).toMatchObject({ sent: 2, remaining: 0 });
    expect(received.map((request) => request.path)).toEqual([
      `/api/admin/reservations/${R1}/confirm/`,
      `/api/admin/reservations/${R1}/confirm/`,
      `/api/admin/reservations/${R2}/cancel/`,
    ]);
    expect(received[0]!.key).toBe(received[1]!.key);
  });

  it('a flush asked for while one fails for want of a network runs once more (a 今すぐ送信 is never swallowed)', async () => {
    let down = true;
    let answered: () => void = () => {};
    const failing = new Promise<void>((resolve) => (answered = resolve));
    const received = recordChanges((_, index) => {
      if (index === 0) answered();
      return down ? 'network-error' : ok();
    });
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    // An automatic flush is on its way to failing when the connection comes back and the button is pressed.
    const automatic = flushOutbox('after-success');
    await failing;
    down = false;
    const pressed = flushOutbox('button');
    expect(await automatic).toMatchObject({ sent: 1, remaining: 0 });
    expect(await pressed).toMatchObject({ sent: 1, remaining: 0 });
    expect(received).toHaveLength(2);
    expect(received[0]!.key).toBe(received[1]!.key);
  });

  it('keeps entries across a reload (state re-read from IndexedDB) and sends them then', async () => {
    const received = recordChanges();
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    resetOutboxForTests();
    expect(getOutboxSnapshot().entries).toHaveLength(0);
    expect(await reloadOutbox()).toHaveLength(1);
    await flushOutbox('start');
    expect(received).toHaveLength(1);
  });

  it('replays an entry left "sending" by a crash with its original key', async () => {
    const received = recordChanges();
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    const [entry] = await db.outbox.toArray();
    await db.outbox.update(entry!.seq!, { state: 'sending' });
    await flushOutbox('start');
    expect(received.map((request) => request.key)).toEqual([entry!.idempotencyKey]);
  });
});

describe('conflicts', () => {
  it('turns a 409 into a visible conflict with the server state, holds back the same reservation only, and never retries it by itself', async () => {
    const received = recordChanges((request) =>
      request.path === `/api/admin/reservations/${R1}/confirm/`
        ? HttpResponse.json({ detail: 'この予約はすでにキャンセルされています。', code: 'conflict' }, { status: 409 })
        : ok(),
    );
    server.use(http.get(`/api/admin/reservations/${R1}/`, () => HttpResponse.json(reservation(R1, 'cancelled'))));
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
    );
    expect(await flushOutbox()).toMatchObject({ sent: 1, remaining: 2 });
    expect(received.map((request) => request.path)).toEqual([
      `/api/admin/reservations/${R1}/confirm/`,
      `/api/admin/reservations/${R2}/cancel/`,
    ]);
    const [conflict, heldBack] = await db.outbox.orderBy('seq').toArray();
    expect(conflict).toMatchObject({
      state: 'conflict',
      error: { status: 409, code: 'conflict', detail: 'この予約はすでにキャンセルされています。' },
      serverState: { status: 'cancelled' },
    });
    expect(heldBack).toMatchObject({ state: 'pending', kind: 'reservation-cancel' });

    // Later flushes (online, focus, after requests) leave the conflict and what is behind it alone.
    for (let i = 0; i < 3; i += 1) await flushOutbox();
    expect(received).toHaveLength(2);
  });

  it('treats other 4xx answers (404, 403, 400) as conflicts too, never as success or silent loss', async () => {
    const statuses = [404, 403, 400];
    recordChanges((_request, index) =>
      HttpResponse.json({ detail: '不可', code: `e${index}` }, { status: statuses[index]! }),
    );
    server.use(
      http.get('/api/admin/reservations/:number/', () =>
        HttpResponse.json({ detail: 'x', code: 'not_found' }, { status: 404 }),
      ),
    );
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
      {
        kind: 'reservation-cancel',
        reservationNumber: '33333333-3333-4333-8333-333333333333',
        expectedStartTime: SEEN,
      },
    );
    await flushOutbox();
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((entry) => [entry.state, entry.error?.status, entry.serverState])).toEqual([
      ['conflict', 404, null],
      ['conflict', 403, null],
      ['conflict', 400, null],
    ]);
  });

  it('discards a conflict only when asked, and a retry goes out under a new key', async () => {
    let refuse = true;
    const received = recordChanges(() =>
      refuse ? HttpResponse.json({ detail: '変更できません。', code: 'conflict' }, { status: 409 }) : ok(),
    );
    server.use(http.get('/api/admin/reservations/:number/', () => HttpResponse.json(reservation(R1, 'pending'))));
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
    );
    await flushOutbox();
    const [first, second] = await db.outbox.orderBy('seq').toArray();
    expect([first!.state, second!.state]).toEqual(['conflict', 'conflict']);

    await discardOutboxEntry(second!.seq!);
    expect(await db.outbox.count()).toBe(1);

    refuse = false;
    const result = await retryOutboxEntry(first!.seq!);
    expect(result).toMatchObject({ sent: 1, remaining: 0 });
    const retried = received.at(-1)!;
    expect(retried.path).toBe(`/api/admin/reservations/${R1}/confirm/`);
    expect(retried.key).not.toBe(first!.idempotencyKey);
  });

  it('sends the start the staff member saw; a 409 rescheduled is a conflict that is never sent again', async () => {
    const moved = { ...reservation(R1, 'pending'), start_time: '2030-01-16T11:00:00' };
    const received = recordChanges(() =>
      HttpResponse.json(
        { detail: 'この予約の日時は変更されています。最新の内容を確認してから操作してください。', code: 'rescheduled' },
        { status: 409 },
      ),
    );
    server.use(http.get(`/api/admin/reservations/${R1}/`, () => HttpResponse.json(moved)));
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    expect((await db.outbox.toArray())[0]).toMatchObject({
      expectedStartTime: SEEN,
      body: { expected_start_time: SEEN },
    });

    expect(await flushOutbox()).toMatchObject({ sent: 0, remaining: 1 });
    expect(received.map((request) => request.body)).toEqual([{ expected_start_time: SEEN }]);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      state: 'conflict',
      error: { status: 409, code: 'rescheduled' },
      serverState: { start_time: '2030-01-16T11:00:00' },
    });
    expect(canRetry(entry!)).toBe(false);

    // Neither later flushes nor a "send again" send it: it would only ever be refused, or land on the new time.
    for (let i = 0; i < 3; i += 1) await flushOutbox();
    expect(await retryOutboxEntry(entry!.seq!)).toMatchObject({ sent: 0, remaining: 1 });
    expect(received).toHaveLength(1);
    expect((await db.outbox.toArray())[0]).toMatchObject({ state: 'conflict', idempotencyKey: entry!.idempotencyKey });
  });

  it('retries a 409 "still in flight" later with the same key instead of calling it a conflict', async () => {
    const received = recordChanges((_request, index) =>
      index === 0
        ? HttpResponse.json({ detail: '処理中です。', code: 'idempotency_in_flight' }, { status: 409 })
        : ok(),
    );
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    await flushOutbox();
    expect((await db.outbox.toArray())[0]).toMatchObject({ state: 'pending' });
    await flushOutbox();
    expect(await db.outbox.count()).toBe(0);
    expect(received[0]!.key).toBe(received[1]!.key);
  });

  it('after repeated 5xx stops and asks a person instead of retrying forever, keeping the entry', async () => {
    const received = recordChanges(() =>
      HttpResponse.json({ detail: 'サーバーエラー', code: 'server_error' }, { status: 503 }),
    );
    server.use(http.get('/api/admin/reservations/:number/', () => HttpResponse.json(reservation(R1, 'pending'))));
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    for (let i = 0; i < MAX_SERVER_ATTEMPTS + 3; i += 1) await flushOutbox();
    expect(received).toHaveLength(MAX_SERVER_ATTEMPTS);
    expect((await db.outbox.toArray())[0]).toMatchObject({
      state: 'failed',
      attempts: MAX_SERVER_ATTEMPTS,
      serverState: { status: 'pending' },
    });
  });
});

describe('tokens at replay', () => {
  it('refreshes an expired access token once before replaying, and replays every entry with the new one', async () => {
    staffSignedIn(jwt(7, -120));
    const fresh = jwt(7, 900, 'fresh');
    let refreshes = 0;
    server.use(
      http.post('/api/token/refresh/', async ({ request }) => {
        refreshes += 1;
        expect(await request.json()).toEqual({ refresh: 'refresh-1' });
        return HttpResponse.json({ access: fresh, refresh: 'refresh-2' });
      }),
    );
    const received = recordChanges();
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN },
    );
    expect(await flushOutbox()).toMatchObject({ sent: 2, remaining: 0 });
    expect(refreshes).toBe(1);
    expect(received.map((request) => request.auth)).toEqual([`Bearer ${fresh}`, `Bearer ${fresh}`]);
    expect(window.localStorage.getItem('adminRefreshToken')).toBe('refresh-2');
  });

  it('refreshes once on a 401 from a token that looked valid, then replays the entry', async () => {
    const fresh = jwt(7, 900, 'fresh');
    server.use(http.post('/api/token/refresh/', () => HttpResponse.json({ access: fresh })));
    const received = recordChanges((request) =>
      request.auth === `Bearer ${fresh}`
        ? ok()
        : HttpResponse.json({ detail: '期限切れ', code: 'token_not_valid' }, { status: 401 }),
    );
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    expect(await flushOutbox()).toMatchObject({ sent: 1, remaining: 0 });
    expect(received.map((request) => request.auth)).toEqual([expect.not.stringContaining(fresh), `Bearer ${fresh}`]);
    expect(received[0]!.key).toBe(received[1]!.key);
  });

  it('keeps the whole queue and asks for a login when the refresh is refused', async () => {
    staffSignedIn(jwt(7, -120));
    server.use(
      http.post('/api/token/refresh/', () =>
        HttpResponse.json({ detail: '無効', code: 'token_not_valid' }, { status: 401 }),
      ),
    );
    const received = recordChanges();
    await queueOffline(
      { kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN },
      { kind: 'customer-notes', customerId: 5, notes: 'メモ' },
    );
    expect(await flushOutbox()).toMatchObject({ sent: 0, remaining: 2, stopped: 'login' });
    expect(received).toHaveLength(0);
    expect(getOutboxSnapshot().needsLogin).toBe(true);
    expect(window.localStorage.getItem('adminAccessToken')).toBeNull();
    expect((await db.outbox.toArray()).map((entry) => entry.state)).toEqual(['pending', 'pending']);

    // The next login sends them.
    staffSignedIn();
    await flushOutbox('start');
    expect(received).toHaveLength(2);
    expect(getOutboxSnapshot().needsLogin).toBe(false);
  });

  it('keeps the queue when the refresh gets no answer (offline), without ending the session', async () => {
    staffSignedIn(jwt(7, -120));
    server.use(http.post('/api/token/refresh/', () => HttpResponse.error()));
    const received = recordChanges();
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    expect(await flushOutbox()).toMatchObject({ sent: 0, remaining: 1, stopped: 'offline' });
    expect(received).toHaveLength(0);
    expect(window.localStorage.getItem('adminRefreshToken')).toBe('refresh-1');
  });

  it("leaves another staff member's changes for their own session", async () => {
    const received = recordChanges();
    await queueOffline({ kind: 'reservation-confirm', reservationNumber: R1, expectedStartTime: SEEN });
    staffSignedIn(jwt(8, 900));
    await queueOffline({ kind: 'reservation-cancel', reservationNumber: R2, expectedStartTime: SEEN });
    await flushOutbox();
    expect(received.map((request) => request.path)).toEqual([`/api/admin/reservations/${R2}/cancel/`]);
    expect((await db.outbox.toArray()).map((entry) => entry.staffId)).toEqual([7]);
  });
});
