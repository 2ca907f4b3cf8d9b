import { ApiError, errorBodyFor, readBody } from './api-error';
import { ensureFreshToken, handlerOf } from './api-session';
import { audienceFor, buildUrl, fetchOnce, withTimeLimit } from './api-transport';
import { getConnectionSnapshot } from './connection-state';
import { accessTokenOf, sessionOf, type TokenAudience } from './token-session';

/**
 * The one way the browser talks to the API. Every call, the screens', the outbox's, the sync's and the event
 * stream's, goes through here: this module alone attaches the bearer token, refreshes it (one refresh at a time
 * per session, shared by every call that needs it), replays a refused call once, and turns every failure into an
 * ApiError with a Japanese message. The staff app's offline layer plugs in as an OfflineAdapter.
 */

export { ADMIN_ACCESS_TOKEN_KEY, CUSTOMER_ACCESS_TOKEN_KEY, type TokenAudience } from './token-session';
export { ApiError, errorDetail, isNotFound } from './api-error';
export { ensureFreshToken, refreshOnUnauthorized, setUnauthorizedHandler } from './api-session';
export { buildUrl, REQUEST_TIME_LIMITS, setRequestTimeLimitsForTests } from './api-transport';

/** Anything with zod's `parse` (kept structural so that zod stays out of the entry chunk unless a caller brings it). */
interface ResponseParser<T> {
  parse(data: unknown): T;
}

export interface ApiRequestOptions<T = unknown> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart with the browser's own content type. */
  body?: unknown;
  /** Appended as a query string; undefined, null and '' are left out, arrays repeat the key. */
  query?: Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Validates and types the successful answer. */
  schema?: ResponseParser<T>;
  /**
   * Which token to send when the path alone does not say it: staff calls outside /api/admin/ (POST/PATCH/DELETE
   * /api/services/, /api/statistics/) pass 'admin'; logins pass 'none' so that no stale token rides along.
   */
  auth?: TokenAudience | 'none';
  /** Send this access token instead of the stored one, and never refresh (a login checking its new tokens). */
  accessToken?: string;
  /** Refresh first when the stored token expires within this many milliseconds (replays after a long offline). */
  refreshAhead?: number;
  /** false: bypass the offline layer (the outbox and the sync talk to the server only). */
  offline?: boolean;
}

/**
 * The staff app's offline layer (src/app/offline): answers a GET from local data when there is no network (`read`
 * resolves undefined when it holds nothing for that URL), and sees every successful answer so that its copy stays
 * current. Installed only while a staff member is signed in.
 */
export interface OfflineAdapter {
  read(url: URL): Promise<unknown>;
  observe(method: string, url: URL, data: unknown): void;
}
let offlineAdapter: OfflineAdapter | null = null;

export function setOfflineAdapter(adapter: OfflineAdapter | null): void {
  offlineAdapter = adapter;
}

/** One call to the API on this origin. Resolves with the (optionally validated) JSON body, or throws ApiError. */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  const adapter = options.offline === false ? null : offlineAdapter;
  const call = async () => (await apiResponse(path, options)).data;
  if (!adapter) return call();
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  const readLocal = async () => {
    const data = method === 'GET' ? await adapter.read(url).catch(() => undefined) : undefined;
    return data === undefined ? undefined : options.schema ? options.schema.parse(data) : (data as T);
  };
  // Offline, local data answers at once instead of after a failed request. So it does while the server does not
  // answer (src/lib/connection-state.ts): the request still goes out, and its answer, if one comes, is kept and
  // tells the shell that the connection is back (the screens then reload).
  const unstable = getConnectionSnapshot().unstable;
  if (navigator.onLine === false || (unstable && method === 'GET')) {
    const local = await readLocal();
    if (local !== undefined) {
      if (unstable)
        call().then(
          (data) => adapter.observe(method, url, data),
          () => {},
        );
      return local;
    }
  }
  let data: T;
  try {
    data = await call();
  } catch (error) {
    const local = error instanceof ApiError && error.isNetworkError ? await readLocal() : undefined;
    if (local !== undefined) return local;
    throw error;
  }
  adapter.observe(method, url, data);
  return data;
}

/** Like apiRequest, with the answer's headers (paging totals, the server's clock); never answered locally. */
export function apiResponse<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<{ data: T; headers: Headers }> {
  return withSession(path, options, async () => {
    // The time limit covers the answer's body too: a connection that stalls half way counts as no answer.
    const { response, data } = await withTimeLimit(options, async (signal) => {
      const response = await fetchOnce(path, { ...options, signal });
      return { response, data: await readBody(response) };
    });
    if (!response.ok) throw new ApiError(response.status, errorBodyFor(response.status, data));
    return { data: options.schema ? options.schema.parse(data) : (data as T), headers: response.headers };
  });
}

/**
 * A streaming answer (server-sent events): the open Response, its body unread. Failures throw ApiError. A 401 is
 * not refreshed here: a stream is long-lived, and its owner reconnects after any ordinary call has refreshed.
 */
export async function apiStream(
  path: string,
  options: Omit<ApiRequestOptions, 'body' | 'schema'> = {},
): Promise<Response> {
  const response = await withTimeLimit(options, (signal) => fetchOnce(path, { ...options, signal }, 'no-store'));
  if (response.ok) return response;
  const data = await readBody(response).catch(() => undefined);
  throw new ApiError(response.status, errorBodyFor(response.status, data));
}

/**
 * Sends with the audience's token and, on a 401, asks the audience's handler once; a call refused again is not
 * replayed a second time. Only tokens this module attached itself are refreshed.
 */
async function withSession<R>(path: string, options: ApiRequestOptions, attempt: () => Promise<R>): Promise<R> {
  const audience = options.auth === 'none' || options.accessToken ? null : audienceFor(path, options.auth);
  if (audience && options.refreshAhead !== undefined) await ensureFreshToken(audience, options.refreshAhead);
  const session = audience ? sessionOf(audience) : null;
  const sentToken = session ? accessTokenOf(session) : null;
  try {
    return await attempt();
  } catch (error) {
    if (!audience || !session || !(error instanceof ApiError) || error.status !== 401) throw error;
    const stored = accessTokenOf(session);
    if (!stored) throw error;
    // Refreshed by another call while this one was on its way: replay with that token, no second refresh.
    if (error.code === 'token_not_valid' && sentToken && stored !== sentToken) return attempt();
    if (!(await handlerOf(audience)(error))) throw error;
    return attempt();
  }
}

type Options<T> = Omit<ApiRequestOptions<T>, 'method' | 'body'>;

export const api = {
  get: <T = unknown>(path: string, options?: Options<T>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Options<T>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: Options<T>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
