// Named .test.tsx so that the jsdom "components" project runs it: the client reads cookies and localStorage.
import 'fake-indexeddb/auto';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../tests/setup/msw-server';
import { api, ApiError, REQUEST_TIME_LIMITS, setOfflineAdapter, setRequestTimeLimitsForTests } from './api-client';
import { getConnectionSnapshot, resetConnectionForTests } from './connection-state';
import { db } from './db';
import { flushOutbox, resetOutboxForTests, sendOrQueue } from './outbox';
import '#src/app/offline/staff-changes';

/**
 * The transport's own time limit (src/lib/api-transport.ts): a server that never answers (a phone with signal and
 * nothing coming back) costs a read its limit, not the browser's minute, and then counts as no answer at all.
 */

let restoreLimits: () => void;
beforeEach(async () => {
  restoreLimits = setRequestTimeLimitsForTests({ readMs: 150, writeMs: 300 });
  resetConnectionForTests();
  resetOutboxForTests();
  await db.outbox.clear();
});
afterEach(() => {
  restoreLimits();
  setOfflineAdapter(null);
});

const neverAnswers = () => delay('infinite').then(() => HttpResponse.json({}));

describe('the transport’s time limit', () => {
  it('production limits: a read about 5 s, a write about 10 s, an upload two minutes', () => {
    restoreLimits();
    expect(REQUEST_TIME_LIMITS).toEqual({ readMs: 5_000, writeMs: 10_000, uploadMs: 120_000 });
  });

  it('a read with no answer fails as no answer (status 0, timeout) at its limit, and marks the connection unstable', async () => {
    server.use(http.get('/api/services/', neverAnswers));
    const started = performance.now();
    const error = await api.get('/api/services/').catch((caught: unknown) => caught);
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isNetworkError).toBe(true);
    expect((error as ApiError).code).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(1_500);
    expect(getConnectionSnapshot().unstable).toBe(true);

    // Any answer, even a refusal, says the server is reachable again.
    server.use(
      http.get('/api/services/', () => HttpResponse.json({ detail: 'x', code: 'not_found' }, { status: 404 })),
    );
    await api.get('/api/services/').catch(() => undefined);
    expect(getConnectionSnapshot().unstable).toBe(false);
  });

  it('a read that runs out answers from the device’s copy; while unstable the copy answers at once', async () => {
    let asked = 0;
    server.use(
      http.get('/api/admin/customers/', () => {
        asked += 1;
        return neverAnswers();
      }),
    );
    setOfflineAdapter({ read: async () => [{ id: 1, name: '端末の顧客' }], observe: () => {} });
    expect(await api.get('/api/admin/customers/')).toEqual([{ id: 1, name: '端末の顧客' }]);
    expect(getConnectionSnapshot().unstable).toBe(true);
    const started = performance.now();
    expect(await api.get('/api/admin/customers/')).toEqual([{ id: 1, name: '端末の顧客' }]);
    expect(performance.now() - started).toBeLessThan(100);
    // The request still went out (its answer would end the unstable state).
    await vi.waitFor(() => expect(asked).toBe(2));
  });

  it('a write runs to the write limit, not the read limit', async () => {
    server.use(http.post('/api/admin/reservations/:number/confirm/', neverAnswers));
    const started = performance.now();
    await expect(api.post('/api/admin/reservations/R/confirm/', {})).rejects.toMatchObject({ code: 'timeout' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('the caller’s own abort still aborts, and is not a timeout', async () => {
    server.use(http.get('/api/services/', neverAnswers));
    const controller = new AbortController();
    const request = api.get('/api/services/', { signal: controller.signal });
    controller.abort();
    const error = await request.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(getConnectionSnapshot().unstable).toBe(false);
  });

  it('a change whose send runs out is queued with the key it was sent with: a late first answer counts once', async () => {
    window.localStorage.setItem('adminAccessToken', 'a.eyJzdWIiOiI3In0.s');
    const keys: string[] = [];
    let hang = true;
    server.use(
      http.patch('/api/admin/customers/:id/', async ({ request }) => {
        keys.push(request.headers.get('idempotency-key') ?? '');
        if (hang) return neverAnswers();
        return HttpResponse.json({ id: 5, notes: 'メモ' });
      }),
    );
    const result = await sendOrQueue({ kind: 'customer-notes', customerId: 5, notes: 'メモ' });
    expect(result).toEqual({ queued: true });
    const [entry] = await db.outbox.toArray();
    expect(entry?.idempotencyKey).toBe(keys[0]);
    hang = false;
    await flushOutbox('button');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await db.outbox.count()).toBe(0);
  });
});
