import { Button, Group, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { hasDirtyForms, subscribeToDirtyForms } from '../lib/dirty-forms';
import { showNotification } from '../lib/notify';
import { getOutboxSnapshot, outboxCount, subscribeToOutbox } from '../lib/outbox-state';
import { activateUpdate, onUpdateAvailable } from '../lib/pwa';

const UPDATE_NOTIFICATION_ID = 'pwa-update';

/**
 * Asks before a new version takes over (docs/architecture.md#offline-design): nothing reloads until the user presses the button, and
 * not even then while the outbox holds changes (waiting or refused) or a form has unsaved input: the update is
 * then made the moment both are clear. (The outbox itself survives a reload; the point is that the version that
 * queued a change is the one that sends it, and that nobody loses what they were typing.)
 */

let requested = false;

function blocker(): string | null {
  const count = outboxCount(getOutboxSnapshot());
  if (count > 0) return `未送信の変更が${count}件あります。送信が終わると更新します。`;
  if (hasDirtyForms()) return '保存していない入力があります。保存すると更新します。';
  return null;
}

let activating = false;

const requestListeners = new Set<() => void>();
const subscribeToRequest = (listener: () => void) => {
  requestListeners.add(listener);
  return () => requestListeners.delete(listener);
};

/** Records whether the person asked for the update, and redraws the button that shows it. */
function setRequested(value: boolean) {
  requested = value;
  for (const listener of requestListeners) listener();
}

/** Activates the waiting version once asked and safe; with no worker waiting, the request waits for the next one. */
function activateWhenSafe() {
  if (!requested || activating || blocker() !== null) return;
  activating = true;
  void activateUpdate()
    .then((started) => {
      if (started) setRequested(false);
    })
    .finally(() => {
      activating = false;
    });
}

const subscribe = (listener: () => void) => {
  const stopOutbox = subscribeToOutbox(listener);
  const stopForms = subscribeToDirtyForms(listener);
  return () => {
    stopOutbox();
    stopForms();
  };
};

function UpdatePrompt() {
  const waitingFor = useSyncExternalStore(subscribe, blocker, blocker);
  const isRequested = useSyncExternalStore(
    subscribeToRequest,
    () => requested,
    () => requested,
  );
  return (
    <Stack gap={4} mt={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">更新すると最新の画面になります。</Text>
        <Button
          size="xs"
          disabled={isRequested}
          onClick={() => {
            setRequested(true);
            activateWhenSafe();
          }}
        >
          {isRequested ? '更新を待っています' : '更新する'}
        </Button>
      </Group>
      {waitingFor && (
        <Text size="sm" fw={700} data-testid="update-waiting">
          {waitingFor}
        </Text>
      )}
    </Stack>
  );
}

export function promptForUpdates(): () => void {
  const stopSafe = subscribe(activateWhenSafe);
  const stopUpdates = onUpdateAvailable((available) => {
    if (!available) return;
    showNotification({
      id: UPDATE_NOTIFICATION_ID,
      title: '新しいバージョンがあります',
      autoClose: false,
      withCloseButton: true,
      message: <UpdatePrompt />,
    });
    activateWhenSafe();
  });
  return () => {
    stopSafe();
    stopUpdates();
    requested = false;
    requestListeners.clear();
  };
}
