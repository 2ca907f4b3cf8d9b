/**
 * The stored bearer tokens: the customer's pair and the staff member's pair, in localStorage under the keys the
 * product has always used (a deployed device keeps its session across an upgrade). This module only stores and
 * reads them; src/lib/api-client.ts is the one place that sends them and refreshes them.
 */
export const ADMIN_ACCESS_TOKEN_KEY = 'adminAccessToken';
export const CUSTOMER_ACCESS_TOKEN_KEY = 'access_token';
const CUSTOMER_REFRESH_TOKEN_KEY = 'refresh_token';
const STAFF_REFRESH_TOKEN_KEY = 'adminRefreshToken';

/** Whose bearer token a call carries. By default /api/admin/* is 'admin' and every other path 'customer'. */
export type TokenAudience = 'admin' | 'customer';

export interface TokenSession {
  readonly name: 'customer' | 'staff';
  readonly audience: TokenAudience;
  readonly accessKey: string;
  readonly refreshKey: string;
}

export const customerSession: TokenSession = {
  name: 'customer',
  audience: 'customer',
  accessKey: CUSTOMER_ACCESS_TOKEN_KEY,
  refreshKey: CUSTOMER_REFRESH_TOKEN_KEY,
};

export const staffSession: TokenSession = {
  name: 'staff',
  audience: 'admin',
  accessKey: ADMIN_ACCESS_TOKEN_KEY,
  refreshKey: STAFF_REFRESH_TOKEN_KEY,
};

export function sessionOf(audience: TokenAudience): TokenSession {
  return audience === 'admin' ? staffSession : customerSession;
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be blocked (private mode, disabled cookies): behave as signed out.
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

export function refreshTokenOf(session: TokenSession): string | null {
  return read(session.refreshKey);
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

/** Ends a session the server no longer accepts: the tokens go, and the screens are told. */
export function expireSession(session: TokenSession): void {
  clearTokens(session);
  for (const listener of expiredListeners) listener(session);
}

/** The JWT's subject and expiry, read without verifying (the server verifies; this only plans requests). */
export function tokenClaims(token: string | null): { staffId: number | null; expiresAt: number | null } {
  try {
    const part = token?.split('.')[1];
    if (!part) return { staffId: null, expiresAt: null };
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const payload = JSON.parse(json) as { sub?: unknown; exp?: unknown };
    const staffId = Number(payload.sub);
    return {
      staffId: Number.isSafeInteger(staffId) ? staffId : null,
      expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : null,
    };
  } catch {
    return { staffId: null, expiresAt: null };
  }
}

/** The signed-in staff member's id, from the stored access token. */
export function currentStaffId(): number | null {
  return tokenClaims(accessTokenOf(staffSession)).staffId;
}
