import { Alert, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { OnlineOnly } from '#src/components/online-only';
import { RetryAlert } from '#src/components/retry-alert';
import { strandedOf, StrandedReservationsAlert } from '#src/components/stranded-reservations-alert';
import { errorDetail } from '#src/lib/api-client';
import { showNotification } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { formatDateJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { useRevertDay, useSaveSlots, useSlots } from '../api/schedule-queries';

interface SlotsDialogProps {
  date: string;
  userId?: number;
  /** The day is set by hand (not by the weekly shift): it can be put back to the shift. */
  isException?: boolean;
  onClose(): void;
}

/**
 * One checkbox per 30-minute slot of the business hours, with save and cancel (docs/screens.md#slots-dialog).
 * Saving sets the day by hand, apart from the weekly shift; 「シフトに戻す」 undoes that. Either is refused, changing
 * nothing, when a booking would end up outside working time (the server lists them). Opening times are not queued
 * offline (docs/architecture.md#offline-design): offline the dialog shows the stored times, says why they cannot be
 * changed, and only closes.
 */
export function SlotsDialog({ date, userId, isException = false, onClose }: SlotsDialogProps) {
  const online = useOnline();
  const slots = useSlots(date, userId);
  const save = useSaveSlots();
  const revert = useRevertDay();
  const [confirmingRevert, setConfirmingRevert] = useState(false);
  // null until the staff member touches a box: until then the server's answer is the selection.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const allTimes = (slots.data ?? []).map((slot) => slot.time);
  const selection = chosen ?? (slots.data ?? []).filter((slot) => slot.is_available).map((slot) => slot.time);

  const onRevert = () => {
    setConfirmingRevert(false);
    save.reset();
    revert.mutate(
      { date, userId },
      {
        onSuccess: () => {
          showNotification({ color: 'green', message: MESSAGES.adminRevertedToShift });
          onClose();
        },
      },
    );
  };

  const submit = () => {
    revert.reset();
    save.mutate(
      { date, times: allTimes.filter((time) => selection.includes(time)), userId },
      {
        onSuccess: () => {
          showNotification({ color: 'green', message: MESSAGES.adminSaved });
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`${formatDateJa(date)} の受付時間`} size="lg" centered>
      {slots.isPending ? (
        <LoadingState />
      ) : slots.isError ? (
        <RetryAlert title={MESSAGES.adminSlotsLoadFailed} onRetry={() => void slots.refetch()} />
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {isException
              ? 'この日は個別に設定されています（週間シフトとは別の時間です）。'
              : '保存すると、この日だけ週間シフトとは別の時間になります。'}
          </Text>
          <OnlineOnly what="受付時間の変更">
            <Stack gap="md">
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => setChosen(allTimes)}>
                  すべて選択
                </Button>
                <Button size="xs" variant="default" onClick={() => setChosen([])}>
                  すべて解除
                </Button>
                <Text size="sm" c="dimmed" ml="auto" role="status">
                  {selection.length}枠を選択中
                </Text>
              </Group>
              <Checkbox.Group label="受付する時間" value={selection} onChange={setChosen}>
                <SimpleGrid cols={{ base: 3, xs: 4 }} spacing="sm" verticalSpacing="sm" mt="xs">
                  {allTimes.map((time) => (
                    <Checkbox key={time} value={time} label={time} />
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
            </Stack>
          </OnlineOnly>
          <StrandedReservationsAlert error={save.error ?? revert.error} />
          {save.isError && !strandedOf(save.error) && (
            <Alert color="red" role="alert" title={MESSAGES.adminSlotsSaveFailed} />
          )}
          {revert.isError && !strandedOf(revert.error) && (
            <Alert color="red" role="alert">
              {errorDetail(revert.error, MESSAGES.adminSlotsSaveFailed)}
            </Alert>
          )}
          <Group justify="flex-end">
            {isException && (
              <Button
                variant="light"
                mr="auto"
                onClick={() => setConfirmingRevert(true)}
                loading={revert.isPending}
                disabled={!online || save.isPending}
              >
                シフトに戻す
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button onClick={submit} loading={save.isPending} disabled={!online || revert.isPending}>
              保存
            </Button>
          </Group>
        </Stack>
      )}
      <ConfirmDialog
        opened={confirmingRevert && online}
        message={MESSAGES.adminRevertToShiftConfirm}
        confirmLabel="シフトに戻す"
        cancelLabel="戻る"
        onConfirm={onRevert}
        onCancel={() => setConfirmingRevert(false)}
      />
    </Modal>
  );
}
