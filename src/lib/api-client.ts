import { MESSAGES } from '../shared/messages';
import type { ApiError as ApiErrorBody } from '../shared/schemas/common';

/** localStorage keys of the bearer tokens (SPEC.md §6: admin calls use the admin token, all others the customer's). */
export const ADMIN_ACCESS_TOKEN_KEY = 'adminAccessToken';
export const CUSTOMER_ACCESS_TOKEN_KEY = 'access_token';

/** Whose bearer token a call carries. By default /api/admin/* is 'admin' and every other path 'customer'. */
export type TokenAudience = 'admin' | 'customer';

/**
 * Called when a request that carried `audience`'s token got a 401 (SPEC.md §8 token handling). Resolve true when a
 * fresh access token is stored: the request is then replayed once with it. Resolve false to let the 401 through
 * (the handler clears the session and navigates as it sees fit).
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

export type { ApiErrorBody };

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
}

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

function readToken(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be blocked (private mode, disabled cookies): behave as signed out.
    return null;
  }
}

export function audienceFor(path: string, auth?: TokenAudience): TokenAudience {
  return auth ?? (path.startsWith(ADMIN_PATH_PREFIX) ? 'admin' : 'customer');
}

export function accessTokenKeyFor(path: string, auth?: TokenAudience): string {
  return audienceFor(path, auth) === 'admin' ? ADMIN_ACCESS_TOKEN_KEY : CUSTOMER_ACCESS_TOKEN_KEY;
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
 * The staff app's offline layer (DESIGN.md §6, src/app/offline): answers a GET from local data when there is no
 * network (`read` resolves undefined when it holds nothing for that URL), and sees every successful answer so that
 * its copy stays current. Installed only while a staff member is signed in.
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
  const adapter = offlineAdapter;
  if (!adapter) return requestWithRefresh(path, options);
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
    data = await requestWithRefresh(path, options);
  } catch (error) {
    const local = error instanceof ApiError && error.isNetworkError ? await readLocal() : undefined;
    if (local !== undefined) return local;
    throw error;
  }
  adapter.observe(method, url, data);
  return data;
}

async function requestWithRefresh<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  const tokenKey = accessTokenKeyFor(path, options.auth === 'none' ? undefined : options.auth);
  const sentToken = readToken(tokenKey);
  try {
    return await sendOnce(path, options);
  } catch (error) {
    // One replay at most (SPEC.md §9), and only for a token this client attached itself.
    if (
      !(error instanceof ApiError) ||
      error.status !== 401 ||
      options.auth === 'none' ||
      options.headers?.Authorization
    ) {
      throw error;
    }
    const audience = audienceFor(path, options.auth);
    const handler = unauthorizedHandlers[audience];
    const stored = readToken(tokenKey);
    if (!handler || !stored) throw error;
    // Refreshed by another call while this one was on its way: replay with that token, no second refresh.
    if (error.code === 'token_not_valid' && sentToken && stored !== sentToken) return sendOnce(path, options);
    if (!(await handler(error))) throw error;
    return sendOnce(path, options);
  }
}

async function sendOnce<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  const { method = 'GET', body, query, signal, schema } = options;
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
  const token = options.auth === 'none' ? null : readToken(accessTokenKeyFor(path, options.auth));
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), { method, headers, body: payload, credentials: 'include', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, { detail: MESSAGES.networkError, code: 'network_error' });
  }

  const data = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, errorBodyFor(response.status, data));
  return schema ? schema.parse(data) : (data as T);
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
