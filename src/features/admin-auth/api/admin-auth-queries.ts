import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { fetchAdminProfile, loginWithPassword } from './admin-auth-api';
import { signInAdmin } from '../session';
import { adminAuthKeys } from '#src/lib/query-keys';

/** docs/screens.md#admin-session: the admin profile is loaded again every 15 minutes. */
export const SESSION_CHECK_INTERVAL_MS = 15 * 60_000;

export const adminProfileQuery = queryOptions({
  queryKey: adminAuthKeys.me(),
  queryFn: ({ signal }) => fetchAdminProfile(signal),
  // The periodic and per-navigation checks refresh it explicitly (see useSessionCheck).
  staleTime: Infinity,
  retry: false,
});

export function useAdminProfile(enabled = true) {
  return useQuery({ ...adminProfileQuery, enabled });
}

export function usePasswordLogin() {
  return useMutation({
    mutationFn: loginWithPassword,
    onSuccess: (tokens) => signInAdmin(tokens),
  });
}
