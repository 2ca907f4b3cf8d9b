import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { formatYen } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import type { SalonOption } from '#src/shared/schemas/menu';
import { useDeleteSalonOption, useSalonOptions } from '../api/menu-queries';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { OptionFormDialog } from './option-form';

/** "+30分・¥1,100": what an option adds to the booking's time and price. */
export const optionSummary = (option: { duration_minutes: number; price: number | string }) =>
  `+${option.duration_minutes}分・${formatYen(Number(option.price))}`;

/** 「フレンチ、グラデーション」: the menus that allow the option, in menu order. */
function menusOf(option: SalonOption, services: readonly Service[]): string {
  const names = services.filter((service) => option.service_ids.includes(service.id)).map((service) => service.name);
  return names.length > 0 ? names.join('、') : 'なし（予約では選べません）';
}

/**
 * The salon's options (オプション) in one place (docs/screens.md#menu-management): each with its price, time and the
 * menus that allow it, with add, edit and delete. One ジェルオフ serves every menu ticked in its form, so its price
 * is kept once; the lists under each menu (service-options.tsx) only show them.
 */
export function SalonOptions({ services }: { services: readonly Service[] }) {
  const options = useSalonOptions();
  const remove = useDeleteSalonOption();
  const [editing, setEditing] = useState<SalonOption | 'new' | null>(null);
  const deleting = useConfirmedDelete<SalonOption>(remove);

  return (
    <Stack gap="sm" component="section" aria-labelledby="salon-options-title">
      <Group justify="space-between">
        <Title order={2} size="h3" id="salon-options-title">
          オプション
        </Title>
        <Button variant="light" onClick={() => setEditing('new')}>
          オプションを追加
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        ジェルオフのように複数のメニューで使うオプションは、一つ登録して使えるメニューを選んでください。料金と時間の変更は、そのすべてのメニューに反映されます。
      </Text>

      {options.isPending ? (
        <LoadingState />
      ) : options.isError ? (
        <RetryAlert title={MESSAGES.adminOptionsLoadFailed} onRetry={() => void options.refetch()} />
      ) : options.data.length === 0 ? (
        <Text c="dimmed">オプションがまだありません。「オプションを追加」から登録してください。</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="オプション一覧">
          {options.data.map((option) => (
            <Paper component="li" key={option.id} withBorder radius="md" p="md">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                    {option.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {optionSummary(option)}
                  </Text>
                  <Text size="sm">使えるメニュー：{menusOf(option, services)}</Text>
                </Stack>
                <Group gap="xs">
                  <Button
                    variant="light"
                    size="sm"
                    onClick={() => setEditing(option)}
                    aria-label={`オプション「${option.name}」を編集`}
                  >
                    編集
                  </Button>
                  <Button
                    variant="outline"
                    color="red"
                    size="sm"
                    loading={remove.isPending && remove.variables === option.id}
                    onClick={() => deleting.ask(option)}
                    aria-label={`オプション「${option.name}」を削除`}
                  >
                    削除
                  </Button>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      {editing && (
        <OptionFormDialog
          option={editing === 'new' ? null : editing}
          services={services}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        cancelLabel="戻る"
        opened={deleting.pending !== null}
        message={MESSAGES.adminOptionDeleteQuestion}
        confirmLabel="削除する"
        color="red"
        onConfirm={deleting.confirm}
        onCancel={deleting.cancel}
      />
    </Stack>
  );
}
