import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { showNotification } from '#src/lib/notify';
import { formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Service, ServiceOption } from '#src/shared/schemas/booking';
import { useDeleteOption } from '../api/menu-queries';
import { OptionFormDialog } from './option-form';

/** "+30分・¥1,100": what an option adds to the booking's time and price. */
const optionSummary = (option: ServiceOption) => `+${option.duration_minutes}分・${formatYen(Number(option.price))}`;

/**
 * The options (オプション) of one service on the menu screen, with add, edit and delete. They arrive with the menu
 * (GET /api/services/ lists each service's active options), so the page's loading and error states cover them; a
 * change refetches the menu (menu-queries.ts).
 */
export function ServiceOptions({ service }: { service: Service }) {
  const remove = useDeleteOption();
  const [editing, setEditing] = useState<ServiceOption | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServiceOption | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    setDeleting(null);
    remove.mutate(
      { serviceId: service.id, optionId: target.id },
      {
        onSuccess: () => showNotification({ color: 'green', message: `「${target.name}」を削除しました。` }),
        onError: () => showNotification({ color: 'red', message: MESSAGES.adminDeleteFailed }),
      },
    );
  };

  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={700}>
          オプション
        </Text>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => setEditing('new')}
          aria-label={`${service.name}にオプションを追加`}
        >
          オプションを追加
        </Button>
      </Group>
      {service.options.length === 0 ? (
        <Text size="sm" c="dimmed">
          オプションはありません。
        </Text>
      ) : (
        <Stack
          gap={4}
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={`${service.name}のオプション`}
        >
          {service.options.map((option) => (
            <Group component="li" key={option.id} justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {option.name}
                <Text component="span" size="sm" c="dimmed" ml="xs">
                  {optionSummary(option)}
                </Text>
              </Text>
              <Group gap={4} wrap="nowrap">
                <Button
                  variant="light"
                  size="xs"
                  onClick={() => setEditing(option)}
                  aria-label={`オプション「${option.name}」を編集`}
                >
                  編集
                </Button>
                <Button
                  variant="outline"
                  color="red"
                  size="xs"
                  loading={remove.isPending && remove.variables?.optionId === option.id}
                  onClick={() => setDeleting(option)}
                  aria-label={`オプション「${option.name}」を削除`}
                >
                  削除
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      )}

      {editing && (
        <OptionFormDialog
          service={service}
          option={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        cancelLabel="戻る"
        opened={deleting !== null}
        message={MESSAGES.adminOptionDeleteQuestion}
        confirmLabel="削除する"
        color="red"
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
