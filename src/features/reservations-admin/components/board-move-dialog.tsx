import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { isApiError } from '#src/lib/api-errors';
import { showNotification } from '#src/lib/notify';
import { formatDateTimeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import { useRescheduleReservation } from '../api/reservations-admin-queries';
import type { MoveRequest } from './board-grid';

interface BoardMoveDialogProps {
  move: (MoveRequest & { date: string; staffName: string }) | null;
  onClose(): void;
}

/**
 * A block dropped on another cell: asked once more, then sent as 日時を変更 sends it (reschedule-dialog.tsx): the same
 * call, the start the screen showed as `expected_start_time` (a booking moved meanwhile is refused), the same
 * messages. The server checks the new time against every other booking.
 */
export function BoardMoveDialog({ move, onClose }: BoardMoveDialogProps) {
  return (
    <Modal opened={move !== null} onClose={onClose} title="日時を変更" centered>
      {move && (
        <MoveConfirmation
          key={`${move.booking.reservation_number}|${move.staffId}|${move.time}`}
          move={move}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function MoveConfirmation({ move, onClose }: { move: NonNullable<BoardMoveDialogProps['move']>; onClose(): void }) {
  const reschedule = useRescheduleReservation(move.booking.reservation_number);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const newStart = `${move.date}T${move.time}:00`;
  const movesStaff = move.staffId !== move.fromStaffId;

  const send = () => {
    if (reschedule.isPending) return;
    setFieldError(null);
    reschedule.mutate(
      {
        start_time: newStart,
        expected_start_time: move.booking.start_time,
        ...(movesStaff ? { staff_id: move.staffId } : {}),
      },
      {
        onSuccess: (moved) => {
          showNotification({
            color: 'green',
            title: MESSAGES.rescheduled,
            message: formatDateTimeJa(moved.start_time),
          });
          onClose();
        },
        onError: (error) => {
          const field = isApiError(error) ? (error.fields?.start_time?.[0] ?? error.fields?.staff_id?.[0]) : undefined;
          if (field) setFieldError(field);
        },
      },
    );
  };

  const failure = reschedule.isError ? (fieldError ?? errorDetail(reschedule.error, MESSAGES.rescheduleFailed)) : null;
  return (
    <Stack gap="sm">
      <Text>
        {move.booking.customer_name} 様の予約を {formatDateTimeJa(move.booking.start_time)} から{' '}
        {formatDateTimeJa(newStart)}
        {movesStaff ? `（担当: ${move.staffName}）` : ''}
        に変更しますか？お客様にも変更のお知らせが送られます。
      </Text>
      {failure && <Alert color="red" role="alert" title={failure} />}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onClose} disabled={reschedule.isPending}>
          戻る
        </Button>
        <Button onClick={send} loading={reschedule.isPending} data-autofocus>
          変更する
        </Button>
      </Group>
    </Stack>
  );
}
