import { Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { errorDetail } from '#src/lib/api-client';
import { todayLocal } from '#src/lib/device-time';
import { addDaysToDate } from '#src/shared/time';
import { formatDateTimeJa, formatYen } from '#src/shared/format';
import type { Closing } from '#src/shared/schemas/register';
import { useCheckouts, useClosings, useRegisterSettings } from '../api/register-queries';
import { dayCash } from '../hooks/day-cash';
import { ClosingForm, differenceText, MethodTotals } from './closing-form';
import { ClosingHistory } from './closing-history';
import { DayCheckouts } from './day-checkouts';
import { QueuedCheckouts } from './queued-checkouts';

const HISTORY_DAYS = 31;

/** A closed day: what the server recorded when it was closed. */
function ClosedDay({ closing }: { closing: Closing }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h3">
          締め済み（{formatDateTimeJa(closing.closed_at)}）
        </Title>
        <MethodTotals totals={closing.totals_by_method} />
        <Group justify="space-between" role="group" aria-label="予想現金">
          <Text>予想現金</Text>
          <Text fw={700}>{formatYen(closing.expected_cash)}</Text>
        </Group>
        <Group justify="space-between" role="group" aria-label="数えた現金">
          <Text>数えた現金</Text>
          <Text fw={700}>{formatYen(closing.counted_cash)}</Text>
        </Group>
        <Group justify="space-between" role="group" aria-label="過不足">
          <Text>過不足</Text>
          <Text fw={700}>{differenceText(closing.difference)}</Text>
        </Group>
        {closing.memo && <Text>メモ: {closing.memo}</Text>}
      </Stack>
    </Paper>
  );
}

/** レジ締め (superuser, docs/architecture.md#register-会計): a day's checkouts, its drawer and its closing. */
export function RegisterClosingPage() {
  const today = todayLocal();
  const [date, setDate] = useState(today);
  const checkouts = useCheckouts(date);
  const settings = useRegisterSettings();
  const history = useClosings(addDaysToDate(today, -HISTORY_DAYS), today);
  const dayClosing = useClosings(date, date);
  const closing = dayClosing.data?.find((item) => item.date === date);

  let content;
  if (checkouts.isPending || settings.isPending || dayClosing.isPending)
    content = <LoadingState label="読み込み中..." />;
  else if (checkouts.isError || settings.isError || dayClosing.isError)
    content = (
      <Text c="red" role="alert">
        {errorDetail(checkouts.error ?? settings.error ?? dayClosing.error, 'レジの記録を読み込めませんでした。')}
      </Text>
    );
  else {
    const openingFloat = settings.data.opening_float;
    content = (
      // The day's list needs the full width for its actions; the closing goes below it.
      <Stack>
        <DayCheckouts checkouts={checkouts.data} closed={Boolean(closing)} />
        {closing ? (
          <ClosedDay closing={closing} />
        ) : (
          <ClosingForm
            key={date}
            date={date}
            openingFloat={openingFloat}
            cash={dayCash(openingFloat, date, checkouts.data)}
          />
        )}
      </Stack>
    );
  }

  return (
    <Stack>
      <title>レジ締め</title>
      <Title order={1}>レジ締め</Title>
      <TextInput
        type="date"
        label="営業日"
        value={date}
        max={today}
        onChange={(event) => event.currentTarget.value && setDate(event.currentTarget.value)}
        w={200}
      />
      <QueuedCheckouts />
      {content}
      {history.data && <ClosingHistory closings={history.data} />}
    </Stack>
  );
}
