import type { ReactNode } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { useAdminProfile } from '#src/features/admin-auth/api/admin-auth-queries';
import { MESSAGES } from '#src/shared/messages';
import { ForbiddenPage } from './forbidden-page';

/** Shows `children` to superusers only; everyone else gets the 403 page (docs/screens.md#admin-navigation: 社員管理, 統計, settings). */
export function RequireSuperuser({ children }: { children: ReactNode }) {
  const profile = useAdminProfile();
  if (profile.isPending) return <LoadingState />;
  if (profile.isError) {
    return <RetryAlert title={MESSAGES.initialLoadFailed} onRetry={() => void profile.refetch()} />;
  }
  return profile.data.is_superuser ? children : <ForbiddenPage />;
}
