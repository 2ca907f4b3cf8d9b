import { Alert, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useOnline } from '../lib/online';
import { MESSAGES } from '../shared/messages';

const FIELDSET_RESET = { border: 0, padding: 0, margin: 0, minWidth: 0 };

/**
 * A screen whose actions need the server (messages, staff management, settings): offline, its controls are
 * disabled and the reason is shown above it, instead of each action failing (docs/architecture.md#offline-design). What was typed stays:
 * the screen is not unmounted, only its fieldset is disabled.
 */
export function OnlineOnly({ what, children }: { what: string; children: ReactNode }) {
  const online = useOnline();
  return (
    <>
      {!online && (
        <Alert color="gray" variant="light" mb="md" title="オフライン">
          {MESSAGES.offlineUnavailable(what)}
        </Alert>
      )}
      <fieldset disabled={!online} style={FIELDSET_RESET}>
        {children}
      </fieldset>
    </>
  );
}

/** The reason beside a single action that is disabled offline. */
export function OfflineReason({ what }: { what: string }) {
  const online = useOnline();
  if (online) return null;
  return (
    <Text size="sm" c="dimmed">
      {MESSAGES.offlineUnavailable(what)}
    </Text>
  );
}
