import { Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { formatDuration, formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import { useDeleteService, useMenu } from '../api/menu-queries';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ServiceFormDialog } from './service-form';
import { SalonOptions } from './salon-options';
import { ServiceOptions } from './service-options';

/**
 * docs/screens.md#menu-management (メニュー管理): the list with edit and delete, and the add form; under each service
 * the options it allows (service-options.tsx), and below the list the salon's options (オプション), each shared by
 * the menus that allow it, with their own add, edit and delete (salon-options.tsx).
 */
export function MenuPage() {
  const menu = useMenu();
  const remove = useDeleteService();
  const [editing, setEditing] = useState<Service | 'new' | null>(null);
  const deleting = useConfirmedDelete<Service>(remove);

  return (
    <Stack gap="md">
      <title>メニュー管理 | スタッフ管理画面</title>
      <Group justify="space-between">
        <Title order={1} size="h2">
          メニュー管理
        </Title>
        <Button onClick={() => setEditing('new')}>メニューを追加</Button>
      </Group>

      {menu.isPending ? (
        <LoadingState />
      ) : menu.isError ? (
        <RetryAlert title={MESSAGES.adminMenuLoadFailed} onRetry={() => void menu.refetch()} />
      ) : menu.data.length === 0 ? (
        <Text c="dimmed">メニューがまだありません。「メニューを追加」から登録してください。</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="メニュー一覧">
          {menu.data.map((service) => (
            <Paper component="li" key={service.id} withBorder radius="md" p="md">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2}>
                  <Text fw={700}>{service.name}</Text>
                  <Text size="sm" c="dimmed">
                    {formatDuration(service.duration_minutes)}・{formatYen(Number(service.price))}
                  </Text>
                </Stack>
                <Group gap="xs">
                  <Button
                    variant="light"
                    size="sm"
                    onClick={() => setEditing(service)}
                    aria-label={`${service.name}を編集`}
                  >
                    編集
                  </Button>
                  <Button
                    variant="outline"
                    color="red"
                    size="sm"
                    loading={remove.isPending && remove.variables === service.id}
                    onClick={() => deleting.ask(service)}
                    aria-label={`${service.name}を削除`}
                  >
                    削除
                  </Button>
                </Group>
              </Group>
              <Divider my="sm" />
              <ServiceOptions service={service} />
            </Paper>
          ))}
        </Stack>
      )}

      {menu.data && (
        <>
          <Divider my="sm" />
          <SalonOptions services={menu.data} />
        </>
      )}

      {editing && <ServiceFormDialog service={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        cancelLabel="戻る"
        opened={deleting.pending !== null}
        message={MESSAGES.adminMenuDeleteQuestion}
        confirmLabel="削除する"
        color="red"
        onConfirm={deleting.confirm}
        onCancel={deleting.cancel}
      />
    </Stack>
  );
}
