import { Button, Group, Text } from '@mantine/core';
import { showNotification } from '../lib/notify';
import { activateUpdate, onUpdateAvailable } from '../lib/pwa';

const UPDATE_NOTIFICATION_ID = 'pwa-update';

/**
 * Asks before a new version takes over (DESIGN.md §6): nothing reloads until the user presses the button. The
 * offline work adds the outbox and dirty-form checks in front of `activateUpdate`.
 */
export function promptForUpdates(): () => void {
  return onUpdateAvailable((available) => {
    if (!available) return;
    showNotification({
      id: UPDATE_NOTIFICATION_ID,
      title: '新しいバージョンがあります',
      autoClose: false,
      withCloseButton: true,
      message: (
        <Group justify="space-between" gap="xs" mt={4}>
          <Text size="sm">更新すると最新の画面になります。</Text>
          <Button size="xs" onClick={activateUpdate}>
            更新する
          </Button>
        </Group>
      ),
    });
  });
}
