import { Alert, Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadingState } from '../../../components/loading-state';
import { useAdminProfile } from '../../../features/admin-auth/api/admin-auth-queries';
import { MESSAGES } from '../../../shared/messages';
import { ForbiddenPage } from './forbidden-page';

/** Shows `children` to superusers only; everyone else gets the 403 page (SPEC.md §6: 社員管理, 統計, settings). */
export function RequireSuperuser({ children }: { children: ReactNode }) {
  const profile = useAdminProfile();
  if (profile.isPending) return <LoadingState />;
  if (profile.isError) {
    return (
      <Alert color="red" role="alert" title={MESSAGES.initialLoadFailed}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void profile.refetch()}>
          再読み込み
        </Button>
      </Alert>
    );
  }
  return profile.data.is_superuser ? children : <ForbiddenPage />;
}
