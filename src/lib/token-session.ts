import { MESSAGES } from '../shared/messages';
import { ADMIN_ACCESS_TOKEN_KEY, ApiError, CUSTOMER_ACCESS_TOKEN_KEY, setUnauthorizedHandler } from './api-client';

/**
 * A pair of stored bearer tokens (SPEC.md §3 "stored session values"): the customer's, and the staff member's
 * that the shared reservation detail page only reads.
 */
export interface TokenSession {
  readonly name: 'customer' | 'staff';
  readonly accessKey: string;
  readonly refreshKey: string;
}

export const CUSTOMER_REFRESH_TOKEN_KEY = 'refresh_token';
/** SPEC.md §3 admin keys; the admin area stores them, the shared detail page only reads and refreshes them. */
export const STAFF_REFRESH_TOKEN_KEY = 'adminRefreshToken';

export const customerSession: TokenSession = {
  name: 'customer',
  accessKey: CUSTOMER_ACCESS_TOKEN_KEY,
  refreshKey: CUSTOMER_REFRESH_TOKEN_KEY,
};

export const staffSession: TokenSession = {
  name: 'staff',
  accessKey: ADMIN_ACCESS_TOKEN_KEY,
  refreshKey: STAFF_REFRESH_TOKEN_KEY,
};

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

const changeListeners = new Set<() => void>();

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Blocked storage: the user is signed out again on reload; nothing better is possible.
  }
  for (const listener of changeListeners) listener();
}

/** Token changes in this tab (and, through the storage event, in others). Fits useSyncExternalStore. */
export function subscribeToTokens(listener: () => void): () => void {
  changeListeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    changeListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function accessTokenOf(session: TokenSession): string | null {
  return read(session.accessKey);
}

export function hasTokens(session: TokenSession): boolean {
  return Boolean(read(session.accessKey));
}

export function storeTokens(session: TokenSession, tokens: { access: string; refresh?: string | null }): void {
  write(session.accessKey, tokens.access);
  if (tokens.refresh) write(session.refreshKey, tokens.refresh);
}

export function clearTokens(session: TokenSession): void {
  write(session.accessKey, null);
  write(session.refreshKey, null);
}

type ExpiredListener = (session: TokenSession) => void;
const expiredListeners = new Set<ExpiredListener>();

/** Called when a refresh was refused and the tokens were cleared. Returns the unsubscribe function. */
export function onSessionExpired(listener: ExpiredListener): () => void {
  expiredListeners.add(listener);
  return () => expiredListeners.delete(listener);
}

// Several calls failing at once share one refresh: a rotated refresh token is only good once.
const inFlight = new Map<string, Promise<boolean>>();

/** true when a new access token was stored. A network failure rethrows (the tokens may still be good). */
export function refreshSession(session: TokenSession): Promise<boolean> {
  const running = inFlight.get(session.name);
  if (running) return running;
  const attempt = (async () => {
    const refresh = read(session.refreshKey);
    if (!refresh) return false;
    // Plain fetch: through the API client a refused refresh (401) would come back to this handler.
    let response: Response;
    try {
      response = await fetch('/api/token/refresh/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ refresh }),
        credentials: 'include',
      });
    } catch {
      throw new ApiError(0, { detail: MESSAGES.networkError, code: 'network_error' });
    }
    if (response.status >= 500) throw new ApiError(response.status, { detail: MESSAGES.serverError, code: `http_${response.status}` });
    if (!response.ok) return false;
    const pair = (await response.json().catch(() => null)) as { access?: unknown; refresh?: unknown } | null;
    if (typeof pair?.access !== 'string' || !pair.access) return false;
    storeTokens(session, { access: pair.access, refresh: typeof pair.refresh === 'string' ? pair.refresh : null });
    return true;
  })().finally(() => inFlight.delete(session.name));
  inFlight.set(session.name, attempt);
  return attempt;
}

/**
 * Lets the API client refresh the customer session silently (SPEC.md §8, the same rule as the admin side): a
 * 401 `token_not_valid` on a call that carried the customer token trades the refresh token for a new access
 * token and the client replays the call once. A refused refresh clears the tokens and tells the listeners.
 * Returns the uninstall function.
 */
export function installCustomerRefresh(): () => void {
  return setUnauthorizedHandler('customer', async (error) => {
    if (error.code !== 'token_not_valid') return false;
    if (await refreshSession(customerSession)) return true;
    expire(customerSession);
    return false;
  });
}

function expire(session: TokenSession) {
  clearTokens(session);
  for (const listener of expiredListeners) listener(session);
}
