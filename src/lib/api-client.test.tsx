// Named .test.tsx so that the jsdom "components" project runs it: the client reads cookies and localStorage.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../tests/setup/msw-server';
import { MESSAGES } from '../shared/messages';
import { ADMIN_ACCESS_TOKEN_KEY, api, ApiError, CUSTOMER_ACCESS_TOKEN_KEY, setUnauthorizedHandler } from './api-client';

function captureRequests() {
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(request.clone());
  });
  return requests;
}

describe('api client', () => {
  it('sends JSON with credentials, the CSRF cookie and the customer token', async () => {
    document.cookie = 'csrftoken=abc%3D123';
    window.localStorage.setItem(CUSTOMER_ACCESS_TOKEN_KEY, 'customer-token');
    window.localStorage.setItem(ADMIN_ACCESS_TOKEN_KEY, 'admin-token');
    const requests = captureRequests();
    server.use(
      http.post('/api/reservations/', async ({ request }) =>
        HttpResponse.json({ echo: await request.json() }, { status: 201 }),
      ),
    );

    const answer = await api.post<{ echo: unknown }>('/api/reservations/', { service_id: 1 });

    expect(answer).toEqual({ echo: { service_id: 1 } });
    const [request] = requests;
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('x-csrftoken')).toBe('abc=123');
    expect(request?.headers.get('authorization')).toBe('Bearer customer-token');
    expect(request?.credentials).toBe('include');
  });

  it('uses the admin token for /api/admin/ paths and builds query strings', async () => {
    window.localStorage.setItem(CUSTOMER_ACCESS_TOKEN_KEY, 'customer-token');
    window.localStorage.setItem(ADMIN_ACCESS_TOKEN_KEY, 'admin-token');
    const requests = captureRequests();
    server.use(http.get('/api/admin/reservations/', () => HttpResponse.json([])));

    await api.get('/api/admin/reservations/', {
      query: { start_date: '2025-01-01', status: ['pending', 'confirmed'], user_id: undefined, q: '' },
    });

    const url = new URL(requests[0]!.url);
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer admin-token');
    expect(url.searchParams.getAll('status')).toEqual(['pending', 'confirmed']);
    expect(url.searchParams.has('user_id')).toBe(false);
    expect(url.searchParams.has('q')).toBe(false);
  });

  it('sends no bearer header without a token, and leaves the content type of FormData to the browser', async () => {
    const requests = captureRequests();
    server.use(http.post('/api/admin/send-bulk-message/', () => new HttpResponse(null, { status: 204 })));
    const form = new FormData();
    form.append('text', 'こんにちは');

    await expect(api.post('/api/admin/send-bulk-message/', form)).resolves.toBeUndefined();

    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(requests[0]?.headers.get('content-type')).not.toBe('application/json');
  });

  it('throws ApiError with the status and the server error body', async () => {
    server.use(
      http.post('/api/token/', () =>
        HttpResponse.json(
          { detail: MESSAGES.passwordLoginFailed, code: 'invalid_credentials', fields: { username: ['x'] } },
          { status: 401 },
        ),
      ),
    );

    const error = await api.post('/api/token/', { username: 'a', password: 'b' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_credentials', message: MESSAGES.passwordLoginFailed });
    expect((error as ApiError).fields).toEqual({ username: ['x'] });
  });

  it('gives a Japanese error for answers without the error shape and for network failures', async () => {
    server.use(
      http.get('/api/broken/', () => new HttpResponse('<html>Bad Gateway</html>', { status: 502 })),
      http.get('/api/offline/', () => HttpResponse.error()),
    );

    await expect(api.get('/api/broken/')).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      message: MESSAGES.serverError,
    });
    await expect(api.get('/api/offline/')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      isNetworkError: true,
    });
  });

  it('validates the answer with a schema when given one', async () => {
    server.use(http.get('/api/config/', () => HttpResponse.json({ salon_name: 'A' })));
    const schema = {
      parse(data: unknown) {
        if (typeof data !== 'object' || data === null || !('salon_name' in data)) throw new Error('bad');
        return { name: String(data.salon_name) };
      },
    };
    await expect(api.get('/api/config/', { schema })).resolves.toEqual({ name: 'A' });
  });
  it('sends the admin token to staff calls outside /api/admin/ when asked, and no token with auth none', async () => {
    window.localStorage.setItem(CUSTOMER_ACCESS_TOKEN_KEY, 'customer-token');
    window.localStorage.setItem(ADMIN_ACCESS_TOKEN_KEY, 'admin-token');
    const requests = captureRequests();
    server.use(
      http.post('/api/services/', () => HttpResponse.json({}, { status: 201 })),
      http.post('/api/token/', () => HttpResponse.json({ access: 'a', refresh: 'r' })),
    );
    await api.post('/api/services/', { name: 'ケア' }, { auth: 'admin' });
    await api.post('/api/token/', { username: 'a', password: 'b' }, { auth: 'none' });
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer admin-token');
    expect(requests[1]?.headers.get('authorization')).toBeNull();
  });

  it('replays a call once after the 401 handler of its audience stored a fresh token', async () => {
    window.localStorage.setItem(ADMIN_ACCESS_TOKEN_KEY, 'old-token');
    const seen: Array<string | null> = [];
    server.use(
      http.get('/api/admin/me/', ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return HttpResponse.json({ detail: MESSAGES.tokenNotValid, code: 'token_not_valid' }, { status: 401 });
      }),
    );
    let calls = 0;
    const remove = setUnauthorizedHandler('admin', async (error) => {
      calls += 1;
      expect(error.code).toBe('token_not_valid');
      window.localStorage.setItem(ADMIN_ACCESS_TOKEN_KEY, 'new-token');
      return true;
    });
    try {
      // The replay is refused too: it is not retried again.
      await expect(api.get('/api/admin/me/')).rejects.toMatchObject({ status: 401 });
      expect(seen).toEqual(['Bearer old-token', 'Bearer new-token']);
      expect(calls).toBe(1);
      // Without a token the handler is not asked at all.
      window.localStorage.removeItem(ADMIN_ACCESS_TOKEN_KEY);
      await expect(api.get('/api/admin/me/')).rejects.toMatchObject({ status: 401 });
      expect(calls).toBe(1);
    } finally {
      remove();
    }
  });
});
