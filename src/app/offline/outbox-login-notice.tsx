import { Alert } from '@mantine/core';
import { useEffect } from 'react';
import { useOutbox } from '../../lib/outbox-hooks';
import { reloadOutbox } from '../../lib/outbox';
import { outboxCount, outboxMayHoldChanges } from '../../lib/outbox-state';
import { MESSAGES } from '../../shared/messages';

/**
 * On the login screen: changes made offline are still waiting (the session ended before they could be sent).
 * They are kept, and sent once the staff member signs in again (docs/architecture.md#offline-design: never dropped).
 */
export function OutboxLoginNotice() {
  const outbox = useOutbox();
  useEffect(() => {
    if (typeof indexedDB !== 'undefined' && outboxMayHoldChanges()) void reloadOutbox().catch(() => {});
  }, []);
  const count = outboxCount(outbox);
  if (count === 0) return null;
  return (
    <Alert color="orange" variant="light" radius={0} role="status" title={`未送信の変更が${count}件あります`}>
      {MESSAGES.offlineNeedsLogin}
    </Alert>
  );
}
