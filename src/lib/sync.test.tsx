import 'fake-indexeddb/auto';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signInAs } from '#tests/setup/admin-fixtures';
import { server } from '#tests/setup/msw-server';
import '#src/app/offline/staff-offline';
import { syncNow } from './sync';
import { getSyncSnapshot } from './sync-state';

/** Every list the sync reads answers 500: the server is failing. */
function failingServer() {
  const failure = () => HttpResponse.json({ detail: 'サーバーエラー', code: 'server_error' }, { status: 500 });
  server.use(http.get('/api/admin/*', failure), http.get('/api/services/', failure));
}

describe('a sync against a failing server', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('resolves null and marks the sync failed, leaving no page’s failure unhandled', async () => {
    signInAs();
    failingServer();
    // A full sync asks for its first pages of reservations and of customers at once: all of them fail.
    await expect(syncNow({ force: true })).resolves.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getSyncSnapshot().failed).toBe(true);
    expect(unhandled).toEqual([]);
  });
});
