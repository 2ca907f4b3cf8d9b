import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { MESSAGES } from '../shared/messages';
import type { CustomerProfile, TokenPair } from '../shared/schemas/auth';
import { api, ApiError } from './api-client';
import {
  clearTokens,
  customerSession,
  hasTokens,
  onSessionExpired,
  storeTokens,
  subscribeToTokens,
  type TokenSession,
} from './token-session';

/**
 * The customer session of docs/screens.md#customer-session, shared by every customer page:
 * stored tokens, the profile (GET /api/me/), sign-in after the LINE callback, and logout to /login.
 */

const CUSTOMER_QUERY_KEY = ['customer'] as const;

export const customerProfileQuery = queryOptions({
  queryKey: [...CUSTOMER_QUERY_KEY, 'me'] as const,
  queryFn: ({ signal }) => api.get<CustomerProfile>('/api/me/', { signal }),
  staleTime: 5 * 60_000,
  retry: false,
});

/** Whether this browser holds an access token of the session, kept current as tokens change. */
export function useHasTokens(session: TokenSession): boolean {
  return useSyncExternalStore(
    subscribeToTokens,
    () => hasTokens(session),
    () => false,
  );
}

export interface LoginPageState {
  /** A message the login page shows, e.g. why the session ended. */
  notice?: string;
}

interface CustomerAuth {
  signedIn: boolean;
  /** null while signed out, or when the profile could not be loaded for a reason other than the session. */
  profile: CustomerProfile | null;
  /** Stores the tokens of a LINE login and loads the profile; on failure nothing stays stored. */
  signIn(tokens: TokenPair): Promise<CustomerProfile>;
  /** docs/screens.md#customer-session: clears tokens and profile and goes to /login. */
  logout(notice?: string): void;
}

const CustomerAuthContext = createContext<CustomerAuth | null>(null);

/** Only a refused session ends it; a network error or a 5xx keeps the tokens for the next try. */
function sessionRefused(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404);
}

export function CustomerAuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // An expired access token is refreshed by the API client itself (refreshOnUnauthorized in src/lib/api-client.ts).
  const signedIn = useHasTokens(customerSession);
  const profile = useQuery({ ...customerProfileQuery, enabled: signedIn });

  // A refused refresh ends the session wherever it happens (docs/screens.md#customer-session names the booking case): back to /login
  // with the reason. The callback page is left alone: it is replacing the session with a new one.
  const onCallback = pathname === '/callback';
  useEffect(
    () =>
      onSessionExpired((session) => {
        if (session.name !== 'customer') return;
        queryClient.removeQueries({ queryKey: CUSTOMER_QUERY_KEY });
        const state: LoginPageState = { notice: MESSAGES.customerSessionExpired };
        if (!onCallback) void navigate('/login', { replace: true, state });
      }),
    [queryClient, navigate, onCallback],
  );

  // docs/screens.md#customer-session: failure to fetch the user clears the session and goes to /login (not from the callback page).
  const refused = signedIn && profile.isError && sessionRefused(profile.error);
  useEffect(() => {
    if (!refused) return;
    console.warn('ユーザー情報の取得に失敗したため、ログアウトしました。', profile.error);
    clearTokens(customerSession);
    queryClient.removeQueries({ queryKey: CUSTOMER_QUERY_KEY });
    if (!onCallback) void navigate('/login', { replace: true });
  }, [refused, profile.error, queryClient, navigate, onCallback]);

  const signIn = useCallback(
    async (tokens: TokenPair) => {
      // The profile is loaded with the new token before anything is stored, so that the session appears
      // complete (tokens and profile together) and a failure leaves no half-signed-in state.
      const me = await api.get<CustomerProfile>('/api/me/', { accessToken: tokens.access });
      queryClient.setQueryData(customerProfileQuery.queryKey, me);
      storeTokens(customerSession, tokens);
      return me;
    },
    [queryClient],
  );

  const logout = useCallback(
    (notice?: string) => {
      clearTokens(customerSession);
      queryClient.removeQueries({ queryKey: CUSTOMER_QUERY_KEY });
      const state: LoginPageState = notice ? { notice } : {};
      void navigate('/login', { state });
    },
    [queryClient, navigate],
  );

  const value = useMemo<CustomerAuth>(
    () => ({ signedIn, profile: signedIn ? (profile.data ?? null) : null, signIn, logout }),
    [signedIn, profile.data, signIn, logout],
  );

  // docs/screens.md#customer-session: nothing is rendered until the startup check is done.
  if (signedIn && (profile.isPending || refused)) return null;

  return <CustomerAuthContext value={value}>{children}</CustomerAuthContext>;
}

/** docs/screens.md#customer-session: using the hook outside its provider is an error (in Japanese). */
export function useCustomerAuth(): CustomerAuth {
  const value = use(CustomerAuthContext);
  if (!value) throw new Error('useCustomerAuth は CustomerAuthProvider の内側で使用してください。');
  return value;
}
