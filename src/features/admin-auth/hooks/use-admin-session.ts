import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isApiError } from '#src/lib/api-errors';
import { MESSAGES } from '#src/shared/messages';
import { fetchAdminProfile } from '../api/admin-auth-api';
import { adminProfileQuery, SESSION_CHECK_INTERVAL_MS } from '../api/admin-auth-queries';
import { isAdminSignedIn, signOutAdmin, useAdminSignedIn } from '../session';
import { paths } from '#src/lib/paths';

/** Query roots kept across a logout: nothing in them belongs to a staff member. */
const KEPT_ON_LOGOUT = new Set(['config']);

/**
 * The staff session's lifecycle (docs/screens.md#admin-session):
 *   - at start, a lone token (one of the two missing) is cleared: signed out;
 *   - every 15 minutes and on each path change the profile is loaded again; a 401 then shows
 *     セッションが切れました。再度ログインしてください。 and signs out (the start-up load signs out without the alert);
 *   - whenever the session ends (logout, refused refresh, another tab), the staff data is dropped from the cache and
 *     the browser goes to /admin, where the login screen shows.
 * Returns whether the staff member is signed in.
 */
export function useAdminSession(): boolean {
  const signedIn = useAdminSignedIn();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    if (!isAdminSignedIn()) signOutAdmin();
  }, []);

  const wasSignedIn = useRef(signedIn);
  useEffect(() => {
    if (wasSignedIn.current && !signedIn) {
      queryClient.removeQueries({ predicate: (query) => !KEPT_ON_LOGOUT.has(String(query.queryKey[0])) });
      void navigate(paths.admin, { replace: true });
    }
    wasSignedIn.current = signedIn;
  }, [signedIn, queryClient, navigate]);

  const running = useRef<Promise<void> | null>(null);
  const check = useCallback(() => {
    // One check at a time: the timer and a navigation at the same moment must not alert twice.
    running.current ??= (async () => {
      try {
        // Outside the query cache: a refused refresh ends the session and empties the cache mid-request, which
        // would turn this 401 into a silent cancellation.
        queryClient.setQueryData(adminProfileQuery.queryKey, await fetchAdminProfile());
      } catch (error) {
        if (isApiError(error, 401)) {
          window.alert(MESSAGES.sessionExpired);
          signOutAdmin();
        }
        // Anything else (offline, a 5xx) keeps the session: the next check tries again.
      } finally {
        running.current = null;
      }
    })();
    return running.current;
  }, [queryClient]);

  useEffect(() => {
    if (!signedIn) return;
    const timer = setInterval(() => void check(), SESSION_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [signedIn, check]);

  const lastPath = useRef(pathname);
  useEffect(() => {
    if (lastPath.current === pathname) return;
    lastPath.current = pathname;
    if (signedIn) void check();
  }, [pathname, signedIn, check]);

  return signedIn;
}
