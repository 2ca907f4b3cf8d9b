import { Alert, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { LoadingState } from '#src/components/loading-state';
import { OnlineOnly } from '#src/components/online-only';
import { RetryAlert } from '#src/components/retry-alert';
import { strandedOf, StrandedReservationsAlert } from '#src/components/stranded-reservations-alert';
import { errorDetail } from '#src/lib/api-client';
import { fieldErrorsOf } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { formatDateJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { useAddHoliday, useDeleteHoliday, useHolidays } from '../api/schedule-queries';

/**
 * 休業日 (superuser): days the whole salon is closed, on top of the weekly 定休日 of the settings. The list follows the
 * calendar's month; adding one is refused while bookings stand on that day (the server lists them).
 */
export function HolidaysSection({ year, month }: { year: number; month: number }) {
  const holidays = useHolidays(year, month, true);
  const add = useAddHoliday();
  const remove = useDeleteHoliday();
  const online = useOnline();
  const [date, setDate] = useState('');
  const [note, setNote] = useState('');
  const [dateError, setDateError] = useState<string | undefined>();
  const [deleting, setDeleting] = useState<string | null>(null);
  const serverFields = fieldErrorsOf(add.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      setDateError(MESSAGES.fieldRequired);
      return;
    }
    setDateError(undefined);
    add.mutate(
      { date, note: note.trim() },
      {
        onSuccess: () => {
          setDate('');
          setNote('');
          showNotification({ color: 'green', message: MESSAGES.adminHolidayAdded });
        },
      },
    );
  };

  const onConfirmDelete = () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    remove.mutate(target, {
      onSuccess: () => showNotification({ color: 'green', message: MESSAGES.adminHolidayDeleted }),
    });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          休業日
        </Title>
        <Text size="sm" c="dimmed">
          サロン全体のお休みです。この日は誰も予約を受け付けません（毎週の定休日は「設定」で変更します）。
        </Text>
        {holidays.isPending ? (
          <LoadingState />
        ) : holidays.isError ? (
          online ? (
            <RetryAlert title={MESSAGES.adminHolidaysLoadFailed} onRetry={() => void holidays.refetch()} />
          ) : (
            <Text size="sm" c="dimmed">
              {MESSAGES.offlineNotShown('休業日')}
            </Text>
          )
        ) : holidays.data.length === 0 ? (
          <Text size="sm">{`${year}年${month}月の休業日はありません。`}</Text>
        ) : (
          <List spacing="xs" listStyleType="none" aria-label={`${year}年${month}月の休業日`}>
            {holidays.data.map((holiday) => (
              <List.Item key={holiday.date}>
                <Group gap="sm" wrap="nowrap">
                  <Text>
                    {formatDateJa(holiday.date)}
                    {holiday.note ? ` ${holiday.note}` : ''}
                  </Text>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    ml="auto"
                    aria-label={`${formatDateJa(holiday.date)}の休業日を削除`}
                    disabled={!online || remove.isPending}
                    onClick={() => setDeleting(holiday.date)}
                  >
                    削除
                  </Button>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
        {remove.isError && (
          <Alert color="red" role="alert">
            {errorDetail(remove.error, MESSAGES.adminDeleteFailed)}
          </Alert>
        )}

        <OnlineOnly what="休業日の変更">
          <form onSubmit={submit} noValidate aria-label="休業日を追加">
            <Group align="flex-start" gap="sm">
              <TextInput
                label="日付"
                type="date"
                required
                value={date}
                error={dateError ?? serverFields.date}
                onChange={(event) => setDate(event.currentTarget.value)}
              />
              <TextInput
                label="メモ"
                placeholder="年末年始 など"
                maxLength={100}
                value={note}
                error={serverFields.note}
                onChange={(event) => setNote(event.currentTarget.value)}
              />
              <Button type="submit" mt={24} loading={add.isPending}>
                追加
              </Button>
            </Group>
          </form>
        </OnlineOnly>
        <StrandedReservationsAlert error={add.error} />
        {add.isError && !strandedOf(add.error) && Object.keys(serverFields).length === 0 && (
          <Alert color="red" role="alert">
            {errorDetail(add.error, MESSAGES.adminSlotsSaveFailed)}
          </Alert>
        )}
      </Stack>
      <ConfirmDialog
        opened={deleting !== null && online}
        message={MESSAGES.adminHolidayDeleteConfirm(deleting ? formatDateJa(deleting) : '')}
        confirmLabel="削除する"
        cancelLabel="戻る"
        color="red"
        onConfirm={onConfirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Paper>
  );
}
