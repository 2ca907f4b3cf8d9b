import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatDateSlash, formatYen } from '#src/shared/format';
import type { Closing } from '#src/shared/schemas/register';
import { differenceText } from './closing-form';

/** The past closings of a period, newest first. */
export function ClosingHistory({ closings }: { closings: Closing[] }) {
  const sorted = [...closings].sort((a, b) => b.date.localeCompare(a.date));
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          これまでのレジ締め
        </Title>
        {sorted.length === 0 ? (
          <Text c="dimmed">この期間のレジ締めはありません。</Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="これまでのレジ締め">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>営業日</Table.Th>
                  <Table.Th ta="right">予想現金</Table.Th>
                  <Table.Th ta="right">数えた現金</Table.Th>
                  <Table.Th>過不足</Table.Th>
                  <Table.Th>メモ</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sorted.map((closing) => (
                  <Table.Tr key={closing.date}>
                    <Table.Td>{formatDateSlash(closing.date)}</Table.Td>
                    <Table.Td ta="right">{formatYen(closing.expected_cash)}</Table.Td>
                    <Table.Td ta="right">{formatYen(closing.counted_cash)}</Table.Td>
                    <Table.Td>{differenceText(closing.difference)}</Table.Td>
                    <Table.Td>{closing.memo}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
