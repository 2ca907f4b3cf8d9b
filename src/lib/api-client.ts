import { MESSAGES } from '../shared/messages';
import type { ApiError as ApiErrorBody } from '../shared/schemas/common';
import {
  accessTokenOf,
  expireSession,
  refreshTokenOf,
  sessionOf,
  storeTokens,
  tokenClaims,
  type TokenAudience,
  type TokenSession,
} from './token-session';

/**
 * The one way the browser talks to the API. Every call, the screens', the outbox's, the sync's and the event
 * stream's, goes through here: this module alone attaches the bearer token, refreshes it (one refresh at a time
 * per session, shared by every call that needs it), replays a refused call once, and turns every failure into an
 * ApiError with a Japanese message. The staff app's offline layer plugs in as an OfflineAdapter.
 */

export { ADMIN_ACCESS_TOKEN_KEY, CUSTOMER_ACCESS_TOKEN_KEY, type TokenAudience } from './token-session';
export type { ApiErrorBody };

/**
 * Called when a call that carried `audience`'s token got a 401. Resolve true when a fresh access token is stored:
 * the call is then replayed once with it. Resolve false to let the 401 through. Throw (an ApiError with status 0)
 * when the refresh got no answer: the call then fails as a network failure and the session is kept.
 * Without an installed handler, `refreshOnUnauthorized` below is the rule.
 */
export type UnauthorizedHandler = (error: ApiError) => Promise<boolean>;
const unauthorizedHandlers: Partial<Record<TokenAudience, UnauthorizedHandler>> = {};

/** Installs (or with null removes) the 401 handler of one audience; returns a function that removes it again. */
export function setUnauthorizedHandler(audience: TokenAudience, handler: UnauthorizedHandler | null): () => void {
  if (handler) unauthorizedHandlers[audience] = handler;
  else delete unauthorizedHandlers[audience];
  return () => {
    if (unauthorizedHandlers[audience] === handler) delete unauthorizedHandlers[audience];
  };
}

const ADMIN_PATH_PREFIX = '/api/admin/';
const REFRESH_PATH = '/api/token/refresh/';

/** Every failed call throws this. `status` 0 means no HTTP answer arrived (offline, DNS, CORS). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.detail);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get code(): string {
    return this.body.code;
  }

  get fields(): Record<string, string[]> | undefined {
    return this.body.fields;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }

  /**
   * The server's own Japanese message, else `fallback`. Answers that did not come from this API (a proxy's bare
   * 5xx page: code `http_<status>`) carry no message of ours; a request that got no answer says so.
   */
  detailOr(fallback: string): string {
    return this.code.startsWith('http_') || !this.body.detail ? fallback : this.body.detail;
  }

  /** The first message of each field the server refused, for the form's inline errors. */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const [name, messages] of Object.entries(this.fields ?? {})) if (messages[0]) errors[name] = messages[0];
    return errors;
  }
}

/** `error.detailOr(fallback)` for any thrown value (a non-ApiError gets the fallback). */
export function errorDetail(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.detailOr(fallback) : fallback;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** Anything with zod's `parse` (kept structural so that zod stays out of the entry chunk unless a caller brings it). */
export interface ResponseParser<T> {
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

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export function audienceFor(path: string, auth?: TokenAudience): TokenAudience {
  return auth ?? (path.startsWith(ADMIN_PATH_PREFIX) ? 'admin' : 'customer');
}

export function buildUrl(path: string, query?: ApiRequestOptions['query']): URL {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null || item === '') continue;
      url.searchParams.append(key, String(item));
    }
  }
  return url;
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.detail === 'string' && typeof candidate.code === 'string';
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  if (response.headers.get('content-type')?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function errorBodyFor(status: number, data: unknown): ApiErrorBody {
  if (isApiErrorBody(data)) return data;
  // Proxies and crashed upstreams answer without our error shape; still give the UI a Japanese sentence.
  return { detail: status >= 500 ? MESSAGES.serverError : MESSAGES.invalidInput, code: `http_${status}` };
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
  // Offline, local data answers at once instead of after a failed request.
  if (navigator.onLine === false) {
    const local = await readLocal();
    if (local !== undefined) return local;
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
    const response = await fetchOnce(path, options);
    const data = await readBody(response);
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
  const response = await fetchOnce(path, options, 'no-store');
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

function handlerOf(audience: TokenAudience): UnauthorizedHandler {
  return unauthorizedHandlers[audience] ?? ((error) => refreshOnUnauthorized(sessionOf(audience), error));
}

/**
 * Makes sure the audience's stored access token is good for at least `marginMs` more: refreshes it when it is
 * missing or about to expire. Throws the 401 when the session is over, a status-0 ApiError when the refresh got no
 * answer (the tokens may still be good once the server is reachable).
 */
export async function ensureFreshToken(audience: TokenAudience, marginMs: number): Promise<void> {
  const token = accessTokenOf(sessionOf(audience));
  const { expiresAt } = tokenClaims(token);
  if (token && (expiresAt === null || expiresAt - Date.now() > marginMs)) return;
  // Treated as the server's refusal of that token, which is what it would answer.
  const expired = new ApiError(401, { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' });
  if (!(await handlerOf(audience)(expired))) throw expired;
}

/**
 * The default 401 rule: an expired access token (`token_not_valid`) is traded for a new one; a refused refresh ends
 * the session (the tokens are cleared and the screens told). Any other 401 is left to the caller.
 */
export async function refreshOnUnauthorized(session: TokenSession, error: ApiError): Promise<boolean> {
  if (error.code !== 'token_not_valid') return false;
  if (await refreshSession(session)) return true;
  expireSession(session);
  return false;
}

// Several calls failing at once share one refresh: a rotated refresh token is only good once.
const refreshesInFlight = new Map<string, Promise<boolean>>();

/** true when a new access token was stored. No answer (or a 5xx) rethrows: the tokens may still be good. */
export function refreshSession(session: TokenSession): Promise<boolean> {
  const running = refreshesInFlight.get(session.name);
  if (running) return running;
  const attempt = (async () => {
    const refresh = refreshTokenOf(session);
    if (!refresh) return false;
    let pair: { access?: unknown; refresh?: unknown } | undefined;
    try {
      const response = await fetchOnce(REFRESH_PATH, { method: 'POST', body: { refresh }, auth: 'none' });
      const data = await readBody(response);
      if (response.status >= 500) throw new ApiError(response.status, errorBodyFor(response.status, data));
      if (!response.ok) return false;
      pair = data as typeof pair;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      return false;
    }
    if (typeof pair?.access !== 'string' || !pair.access) return false;
    storeTokens(session, { access: pair.access, refresh: typeof pair.refresh === 'string' ? pair.refresh : null });
    return true;
  })().finally(() => refreshesInFlight.delete(session.name));
  refreshesInFlight.set(session.name, attempt);
  return attempt;
}

/** One HTTP exchange: the only place a bearer token is put on a request. No answer at all is an ApiError(0). */
async function fetchOnce(path: string, options: ApiRequestOptions, cache?: RequestCache): Promise<Response> {
  const { method = 'GET', body, query, signal } = options;
  const headers = new Headers({ Accept: 'application/json', ...options.headers });

  const isFormData = typeof FormData !== 'undefined' && body instanceof FormData;
  let payload: BodyInit | undefined;
  if (isFormData) payload = body;
  else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  const csrf = readCookie('csrftoken');
  if (csrf) headers.set('X-CSRFToken', csrf);
  const token =
    options.accessToken ?? (options.auth === 'none' ? null : accessTokenOf(sessionOf(audienceFor(path, options.auth))));
  if (token) headers.set('Authorization', `Bearer ${token}`);

  try {
    return await fetch(buildUrl(path, query), {
      method,
      headers,
      body: payload,
      credentials: 'include',
      cache,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, { detail: MESSAGES.networkError, code: 'network_error' });
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
