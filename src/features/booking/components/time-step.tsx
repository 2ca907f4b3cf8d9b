import { Alert, Box, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { MESSAGES } from '#src/shared/messages';
import type { Service } from '#src/shared/schemas/booking';
import { availabilityQuery } from '../api/booking-api';
import { formatDateWithWeekday } from '../dates';

export interface TimeStepProps {
  service: Service;
  date: string;
  selectedTime: string | null;
  /** Why the user is back here (the chosen time was taken meanwhile). */
  notice: string | null;
  onChoose(time: string): void;
}

/** Step 3 (docs/architecture.md#screens-and-texts): the free starts of the day for the chosen menu, with loading and empty texts. */
export function TimeStep({ service, date, selectedTime, notice, onChoose }: TimeStepProps) {
  const slots = useQuery(availabilityQuery(service.id, date));

  return (
    <Stack gap="sm">
      <Text>
        <Text span fw={700}>
          {service.name}
        </Text>
        <br />
        {formatDateWithWeekday(date)}
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
            >
              {time}
            </Button>
          ))}
        </Box>
      )}
    </Stack>
  );
}
