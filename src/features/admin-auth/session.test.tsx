import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '#tests/setup/msw-server';
import { isAdminSignedIn, logOutAdmin, signInAdmin } from './session';

describe('logOutAdmin', () => {
  it('signs out at once and asks the server to revoke the refresh token, without the access token', async () => {
    const received: Array<{ body: unknown; authorization: string | null }> = [];
    server.use(
      http.post('/api/admin/logout/', async ({ request }) => {
        received.push({ body: await request.json(), authorization: request.headers.get('authorization') });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    signInAdmin({ access: 'access-1', refresh: 'refresh-1' });

    logOutAdmin();
    expect(isAdminSignedIn()).toBe(false);
    expect(window.localStorage.getItem('adminRefreshToken')).toBeNull();
    await waitFor(() => expect(received).toEqual([{ body: { refresh: 'refresh-1' }, authorization: null }]));
  });

  it('still signs out when the server cannot be reached', async () => {
    let calls = 0;
    server.use(
      http.post('/api/admin/logout/', () => {
        calls += 1;
        return HttpResponse.error();
      }),
    );
    signInAdmin({ access: 'access-2', refresh: 'refresh-2' });

    logOutAdmin();
    expect(isAdminSignedIn()).toBe(false);
    await waitFor(() => expect(calls).toBe(1));
    // Nothing comes back: the failed revocation neither throws nor restores the session.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAdminSignedIn()).toBe(false);
  });
});
