import { MESSAGES } from '../shared/messages';
import { ApiError } from './api-error';
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
