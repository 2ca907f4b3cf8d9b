import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { signInAs, superuserProfile } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import { clearStaffData } from '#src/lib/db';
import { getSyncSnapshot, updateSyncSnapshot } from '#src/lib/sync-state';
import { startOfflineLayer, syncRetryDelayMs } from './offline-layer';

/** The lists and small things a sync reads (src/lib/sync.ts), all empty; `failing` answers 500 instead. */
function syncServer(state: { failing: boolean; requests: number }) {
  const answer = (body: object) => () => {
    state.requests += 1;
    return state.failing
      ? HttpResponse.json({ detail: 'サーバーエラー', code: 'server_error' }, { status: 500 })
      : HttpResponse.json(body);
  };
  server.use(
    http.get('/api/admin/me/', answer(superuserProfile)),
    http.get('/api/admin/reservations/', answer([])),
    http.get('/api/admin/customers/', answer([])),
    http.get('/api/admin/configured-dates/', answer([])),
    http.get('/api/admin/users/', answer([])),
    http.get('/api/services/', answer([])),
  );
}

const waitUntil = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check(), what).toBe(true);
};

describe('the offline layer after a failed sync', () => {
  let stop: (() => void) | undefined;
  afterEach(async () => {
    stop?.();
    stop = undefined;
    await clearStaffData();
    updateSyncSnapshot({ lastSyncAt: null, window: null, failed: false, syncing: false });
  });

  it('tries again by itself, without waiting for focus or `online`, until a sync succeeds', async () => {
    signInAs();
    const state = { failing: true, requests: 0 };
    syncServer(state);
    const delays: number[] = [];
    stop = await startOfflineLayer(new QueryClient(), {
      retryDelayMs: (failures) => {
        delays.push(failures);
        return 20;
      },
    });

    // The sync at start fails, and so do the tries after it while the server fails.
    await waitUntil(() => delays.length >= 2, 'two tries after the failed start');
    expect(getSyncSnapshot().failed).toBe(true);
    expect(getSyncSnapshot().lastSyncAt).toBeNull();
    expect(delays.slice(0, 2)).toEqual([1, 2]);

    state.failing = false;
    await waitUntil(() => getSyncSnapshot().lastSyncAt !== null, 'a successful sync');
    expect(getSyncSnapshot().failed).toBe(false);
    // Once a sync succeeded, nothing is scheduled: no more requests.
    const requestsAfterSuccess = state.requests;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(state.requests).toBe(requestsAfterSuccess);
  });

  it('waits 5 s after the first failure, twice as long after each next one, and never more than a minute', () => {
    expect([1, 2, 3, 4, 5, 6].map(syncRetryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
  });
});
