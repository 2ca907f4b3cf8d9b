import { Alert, Box, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { MESSAGES } from '#src/shared/messages';
import { formatDateJa } from '#src/shared/format';
import { addMinutesToTime } from './dates';
import { availabilityQuery, type MenuChoice } from './slot-queries';

interface SlotTimePickerProps {
  choice: MenuChoice;
  /** The menu's name, shown above the date. */
  menuName: string;
  date: string;
  /** The booking's length: each start shows its end under it (seen, not read out: the summary says the time). */
  durationMinutes?: number;
  selectedTime: string | null;
  /** Why the user is back here (the chosen time was taken meanwhile). */
  notice: string | null;
  onChoose(time: string): void;
}

/**
 * The wizard's time step and the reschedule picker's (docs/screens.md#booking-time-step): the free starts of the
 * day for the menu choice, with loading and empty texts.
 */
export function SlotTimePicker(props: SlotTimePickerProps) {
  const { choice, menuName, date, durationMinutes, selectedTime, notice, onChoose } = props;
  const slots = useQuery(availabilityQuery(choice, date));

  return (
    <Stack gap="sm">
      <Text>
        <Text span fw={700}>
          {menuName}
        </Text>
        <br />
        {formatDateJa(date)}
      </Text>
      {notice && (
        <Alert color="red" role="alert">
          {notice}
        </Alert>
      )}
      {slots.isPending ? (
        <LoadingState label="予約できる時間を読み込み中…" />
      ) : slots.isError ? (
        <RetryAlert title={MESSAGES.slotLoadFailed} onRetry={() => void slots.refetch()} />
      ) : slots.data.length === 0 ? (
        <Text c="dimmed">{MESSAGES.noSlotsLeft}</Text>
      ) : (
        <Box
          role="group"
          aria-label="開始時刻"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(5.5rem, 1fr))', gap: 8 }}
        >
          {slots.data.map((time) => (
            <Button
              key={time}
              variant={time === selectedTime ? 'filled' : 'default'}
              aria-pressed={time === selectedTime}
              onClick={() => onChoose(time)}
              h="auto"
              py={6}
            >
              {durationMinutes === undefined ? (
                time
              ) : (
                <Stack gap={0} align="center">
                  {time}
                  <Text span size="xs" aria-hidden>
                    〜{addMinutesToTime(time, durationMinutes)}
                  </Text>
                </Stack>
              )}
            </Button>
          ))}
        </Box>
      )}
    </Stack>
  );
}
