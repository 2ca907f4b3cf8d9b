import { Alert, Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { OnlineOnly } from '#src/components/online-only';
import { RetryAlert } from '#src/components/retry-alert';
import { strandedOf, StrandedReservationsAlert } from '#src/components/stranded-reservations-alert';
import { errorDetail } from '#src/lib/api-client';
import { showNotification } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import type { ShiftDay, ShiftTemplate } from '#src/shared/schemas/schedule';
import { useSaveShifts, useShifts } from '../api/schedule-queries';

const WEEKDAY_NAMES = ['日', '月', '火', '水', '木', '金', '土'];

/** 00:00 … 24:00 every 30 minutes: the cells shifts are made of (src/shared/schemas/schedule.ts). */
const CELLS = Array.from({ length: 49 }, (_, index) => {
  const minutes = index * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
});
const STARTS = CELLS.slice(0, -1);
const ENDS = CELLS.slice(1);

/** What a weekday turned from 休み to working starts with; the staff member changes it as needed. */
const NEW_DAY = { start_time: '10:00', end_time: '19:00' };

interface Row {
  off: boolean;
  start_time: string;
  end_time: string;
}

const rowsOf = (template: ShiftTemplate): Row[] =>
  WEEKDAY_NAMES.map((_, weekday) => {
    const day = template.days.find((candidate) => candidate.weekday === weekday);
    return day
      ? { off: false, start_time: day.start_time.slice(0, 5), end_time: day.end_time.slice(0, 5) }
      : { off: true, ...NEW_DAY };
  });

/**
 * 週間シフト: per weekday 休み or a start and an end on the 30-minute grid. Saving replaces the whole template; days
 * set by hand in the calendar keep their own times. A change that would leave bookings outside working time is
 * refused by the server, which lists them.
 */
export function WeeklyShiftEditor({ userId }: { userId?: number }) {
  const shifts = useShifts(userId);
  const online = useOnline();
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          週間シフト
        </Title>
        <Text size="sm" c="dimmed">
          曜日ごとの勤務時間です。カレンダーで個別に設定した日と、定休日・休業日を除いて、この時間に予約を受け付けます。
        </Text>
        {shifts.isPending ? (
          <LoadingState />
        ) : shifts.isError ? (
          online ? (
            <RetryAlert title={MESSAGES.adminShiftsLoadFailed} onRetry={() => void shifts.refetch()} />
          ) : (
            <Text size="sm" c="dimmed">
              {MESSAGES.offlineNotShown('週間シフト')}
            </Text>
          )
        ) : (
          // Keyed by the stored template (and whose it is): after a save the form starts again from the answer.
          <ShiftForm
            key={`${userId ?? 'self'}|${JSON.stringify(shifts.data)}`}
            template={shifts.data}
            userId={userId}
          />
        )}
      </Stack>
    </Paper>
  );
}

function ShiftForm({ template, userId }: { template: ShiftTemplate; userId?: number }) {
  const [rows, setRows] = useState(() => rowsOf(template));
  const [invalid, setInvalid] = useState<number[]>([]);
  const save = useSaveShifts();
  const online = useOnline();

  const change = (weekday: number, patch: Partial<Row>) => {
    setRows((current) => current.map((row, index) => (index === weekday ? { ...row, ...patch } : row)));
    setInvalid((current) => current.filter((index) => index !== weekday));
    if (save.isError) save.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const wrong = rows.flatMap((row, weekday) => (!row.off && row.start_time >= row.end_time ? [weekday] : []));
    setInvalid(wrong);
    if (wrong.length > 0) return;
    const days: ShiftDay[] = rows.flatMap((row, weekday) =>
      row.off ? [] : [{ weekday, start_time: row.start_time, end_time: row.end_time }],
    );
    save.mutate(
      { days, userId },
      { onSuccess: () => showNotification({ color: 'green', message: MESSAGES.adminSaved }) },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="週間シフト">
      <Stack gap="sm">
        <OnlineOnly what="週間シフトの変更">
          <Stack gap="xs">
            {rows.map((row, weekday) => {
              const name = `${WEEKDAY_NAMES[weekday]}曜日`;
              return (
                <Group key={name} gap="sm" align="flex-start" wrap="wrap" role="group" aria-label={name}>
                  <Text fw={700} w={24} mt={6} aria-hidden="true">
                    {WEEKDAY_NAMES[weekday]}
                  </Text>
                  <Checkbox
                    mt={8}
                    w={64}
                    label="休み"
                    aria-label={`${name}は休み`}
                    checked={row.off}
                    onChange={(event) => change(weekday, { off: event.currentTarget.checked })}
                  />
                  {!row.off && (
                    <Group gap={6} align="flex-start" wrap="nowrap">
                      <NativeSelect
                        w={96}
                        aria-label={`${name}の開始`}
                        data={STARTS}
                        value={row.start_time}
                        onChange={(event) => change(weekday, { start_time: event.currentTarget.value })}
                        error={invalid.includes(weekday)}
                      />
                      <Text mt={6} aria-hidden="true">
                        〜
                      </Text>
                      <NativeSelect
                        w={96}
                        aria-label={`${name}の終了`}
                        data={ENDS}
                        value={row.end_time}
                        onChange={(event) => change(weekday, { end_time: event.currentTarget.value })}
                        error={invalid.includes(weekday)}
                      />
                    </Group>
                  )}
                </Group>
              );
            })}
          </Stack>
        </OnlineOnly>
        {invalid.length > 0 && (
          <Alert color="red" role="alert">
            {`${invalid.map((weekday) => WEEKDAY_NAMES[weekday]).join('・')}曜日: ${MESSAGES.shiftTimeInvalid}`}
          </Alert>
        )}
        <StrandedReservationsAlert error={save.error} />
        {save.isError && !strandedOf(save.error) && (
          <Alert color="red" role="alert">
            {errorDetail(save.error, MESSAGES.adminSlotsSaveFailed)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!online}>
            週間シフトを保存
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
