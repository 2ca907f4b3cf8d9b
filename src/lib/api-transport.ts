import { MESSAGES } from '../shared/messages';
import { ApiError } from './api-error';
import { noteAnswer, noteNoAnswer } from './connection-state';
import type { ApiRequestOptions } from './api-client';
import { accessTokenOf, sessionOf, type TokenAudience } from './token-session';

/** The HTTP exchange under the API client (src/lib/api-client.ts): URL, headers, the bearer token, no-answer errors. */

const ADMIN_PATH_PREFIX = '/api/admin/';
export const REFRESH_PATH = '/api/token/refresh/';

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

/**
 * The transport's own time limits (docs/architecture.md#offline-design): a request with no answer by then counts
 * as one with no answer at all (an ApiError with status 0, code `timeout`). A read then answers from the device's
 * copy; a change is queued with the Idempotency-Key it was sent with. Only tests change them.
 */
export const REQUEST_TIME_LIMITS = {
  readMs: 5_000,
  writeMs: 10_000,
  /** A multipart upload (a カルテ photo): its bytes need time on a slow link, or it would never get through. */
  uploadMs: 120_000,
};

/** For component tests: shorter limits (the values above stay the only production setting). */
export function setRequestTimeLimitsForTests(limits: Partial<typeof REQUEST_TIME_LIMITS>): () => void {
  const before = { ...REQUEST_TIME_LIMITS };
  Object.assign(REQUEST_TIME_LIMITS, limits);
  return () => Object.assign(REQUEST_TIME_LIMITS, before);
}

const timeoutError = () => new ApiError(0, { detail: MESSAGES.networkTimeout, code: 'timeout' });

/**
 * Runs one exchange under the time limit of its method (or `limitMs`): `work` gets the signal to pass to fetch
 * (aborted by the caller's signal or by the limit). Every exchange's outcome is noted for the connection state.
 * What `work` resolves with is under the limit: a stream's body read later is not.
 */
export async function withTimeLimit<R>(
  options: ApiRequestOptions,
  work: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const upload = typeof FormData !== 'undefined' && options.body instanceof FormData;
  const limitMs = upload
    ? REQUEST_TIME_LIMITS.uploadMs
    : (options.method ?? 'GET') === 'GET'
      ? REQUEST_TIME_LIMITS.readMs
      : REQUEST_TIME_LIMITS.writeMs;
  const controller = new AbortController();
  const callerSignal = options.signal;
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener('abort', () => controller.abort(callerSignal.reason), { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limitMs);
  try {
    const result = await work(controller.signal);
    noteAnswer();
    return result;
  } catch (error) {
    if (callerSignal?.aborted) throw error;
    if (timedOut || (error instanceof ApiError && error.isNetworkError)) {
      noteNoAnswer();
      throw timedOut ? timeoutError() : error;
    }
    if (error instanceof ApiError) noteAnswer();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** One HTTP exchange: the only place a bearer token is put on a request. No answer at all is an ApiError(0). */
export async function fetchOnce(path: string, options: ApiRequestOptions, cache?: RequestCache): Promise<Response> {
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
