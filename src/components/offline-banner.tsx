import { Alert } from '@mantine/core';
import { useOnline } from '../lib/online';
import { MESSAGES } from '../shared/messages';

/** docs/architecture.md#offline-design: the customer pages are online-only and say so instead of failing silently. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <Alert color="dark" variant="filled" radius={0} role="alert" title="オフライン">
      {MESSAGES.offlineNotice}
    </Alert>
  );
}
