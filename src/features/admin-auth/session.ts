import { useSyncExternalStore } from 'react';
import { refreshOnUnauthorized, setUnauthorizedHandler } from '../../lib/api-client';
import {
  accessTokenOf,
  clearTokens,
  refreshTokenOf,
  staffSession,
  storeTokens,
  subscribeToTokens,
} from '../../lib/token-session';
import type { TokenPair } from '../../shared/schemas/auth';
import { revokeAdminSession } from './api/admin-auth-api';

/**
 * The staff session of docs/screens.md#admin-session: adminAccessToken and adminRefreshToken in localStorage.
 * Signed in means both are present; one without the other is a broken session and counts as signed out.
 */

export function isAdminSignedIn(): boolean {
  return Boolean(accessTokenOf(staffSession) && refreshTokenOf(staffSession));
}

/** Kept current as tokens change in this tab or another one. */
export function useAdminSignedIn(): boolean {
  return useSyncExternalStore(subscribeToTokens, isAdminSignedIn, () => false);
}

export function signInAdmin(tokens: TokenPair): void {
  storeTokens(staffSession, tokens);
}

/** Clears both tokens; the admin entry then shows the login screen at /admin. */
export function signOutAdmin(): void {
  clearTokens(staffSession);
}

/**
 * The logout button: the session ends on this device at once, offline too, and the server is asked to revoke the
 * refresh token, best effort. Without an answer the token is gone from here all the same; only a copy taken
 * elsewhere would live on, until a password change or its expiry.
 */
export function logOutAdmin(): void {
  const refresh = refreshTokenOf(staffSession);
  signOutAdmin();
  if (refresh) revokeAdminSession(refresh).catch(() => {});
}

/**
 * docs/screens.md#admin-session, for every call that carried the admin token (/api/admin/* and the staff calls
 * made with `auth: 'admin'`): a 401 `token_not_valid` trades the refresh token for a new access token once and the
 * API client replays the call; a refused refresh, a missing refresh token or any other 401 ends the session. A
 * refresh that failed for want of a network keeps the session (the tokens may still be good once back online).
 */
export function installAdminTokenRefresh(): () => void {
  return setUnauthorizedHandler('admin', async (error) => {
    // A refresh with no answer throws out of here: the call fails as offline and the session stays.
    if (await refreshOnUnauthorized(staffSession, error)) return true;
    signOutAdmin();
    return false;
  });
}
