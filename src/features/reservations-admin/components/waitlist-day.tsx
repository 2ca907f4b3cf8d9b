import { Badge, Collapse, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { CALENDAR_PROPS } from '#src/components/calendar';
import { LoadingState } from '#src/components/loading-state';
import { RetryAlert } from '#src/components/retry-alert';
import { todayLocal } from '#src/lib/device-time';
import { formatDateTimeJa } from '#src/shared/format';
import { MESSAGES } from '#src/shared/messages';
import type { AdminWaitlistEntry } from '#src/shared/schemas/waitlist';
import { adminWaitlistDayQuery } from '../api/waitlist-admin-api';

const STATUS_LABELS: Record<AdminWaitlistEntry['status'], string> = {
  waiting: '待機中',
  booked: '予約済み',
  withdrawn: '取消',
  expired: '期限切れ',
};

function windowLabel(entry: AdminWaitlistEntry): string {
  if (!entry.time_from && !entry.time_to) return '指定なし';
  return `${entry.time_from ?? ''}〜${entry.time_to ?? ''}`;
}

/**
 * キャンセル待ち of one day on the reservation list (closed at first; the list is read only once opened): who waits,
 * for which menu and staff, in which window, since when, and whether a freed start was offered to them.
 */
export function WaitlistDay({ initialDate }: { initialDate?: string }) {
  const [opened, setOpened] = useState(false);
  const [date, setDate] = useState(initialDate ?? todayLocal());
  const panelId = useId();
  const list = useQuery({ ...adminWaitlistDayQuery(date), enabled: opened });

  return (
    <Paper withBorder p="sm" component="section" aria-label="キャンセル待ち">
      <UnstyledButton
        onClick={() => setOpened((value) => !value)}
        aria-expanded={opened}
        aria-controls={panelId}
        w="100%"
      >
        <Group justify="space-between">
          <Text fw={700}>キャンセル待ち</Text>
          <Text aria-hidden="true" c="dimmed">
            {opened ? '▲' : '▼'}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened} id={panelId}>
        <Stack gap="sm" mt="sm">
          <DatePickerInput
            {...CALENDAR_PROPS}
            label="日付"
            valueFormat="YYYY/MM/DD"
            value={date}
            onChange={(value) => value && setDate(value)}
            maw={240}
          />
          {list.isPending ? (
            <LoadingState label="キャンセル待ちを読み込み中…" />
          ) : list.isError ? (
            <RetryAlert title={MESSAGES.waitlistLoadFailed} onRetry={() => void list.refetch()} />
          ) : list.data.length === 0 ? (
            <Text c="dimmed" size="sm">
              {MESSAGES.waitlistEmpty}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>お客様</Table.Th>
                    <Table.Th>メニュー</Table.Th>
                    <Table.Th>担当</Table.Th>
                    <Table.Th>希望時間</Table.Th>
                    <Table.Th>登録日時</Table.Th>
                    <Table.Th>ご案内</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.map((entry) => (
                    <Table.Tr key={entry.id}>
                      <Table.Td>{entry.customer_name}</Table.Td>
                      <Table.Td>{entry.service_name}</Table.Td>
                      <Table.Td>{entry.staff_name ?? '指名なし'}</Table.Td>
                      <Table.Td>{windowLabel(entry)}</Table.Td>
                      <Table.Td>{formatDateTimeJa(entry.created_at)}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Badge variant="light" color={entry.status === 'waiting' ? 'blue' : 'gray'}>
                            {STATUS_LABELS[entry.status]}
                          </Badge>
                          <Text size="xs">
                            {entry.last_offered_at
                              ? `案内済み（${entry.offers}回・最終 ${formatDateTimeJa(entry.last_offered_at)}）`
                              : '未案内'}
                          </Text>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Collapse>
    </Paper>
  );
}
