import { Alert, Button, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { LoadingState } from '#src/components/loading-state';
import { errorDetail } from '#src/lib/api-client';
import { todayLocal } from '#src/lib/device-time';
import { formatYen } from '#src/shared/format';
import type { SalesRow } from '#src/shared/schemas/register';
import { downloadCheckoutsCsv, useTakings, type TakingsGroup } from '../api/takings-api';
import { TakingsSummary } from './takings-summary';

const GROUPS: { value: TakingsGroup; label: string }[] = [
  { value: 'day', label: '日別' },
  { value: 'month', label: '月別' },
  { value: 'staff', label: '担当別' },
  { value: 'menu', label: 'メニュー別' },
  { value: 'method', label: '支払方法別' },
];

/** 指名率 of a 担当's row: the share of their checkouts with a 指名料 line. */
const nominationRate = (row: SalesRow) =>
  row.count > 0 ? `${Math.round(((row.nominated ?? 0) / row.count) * 1000) / 10}%` : '—';

/** 売上: the register's takings over a period, grouped, with the accountant's CSV. */
export function TakingsCard() {
  const today = todayLocal();
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(today);
  const [group, setGroup] = useState<TakingsGroup>('day');
  const [csvError, setCsvError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const takings = useTakings({ from, to, group });
  const total = takings.data?.reduce((sum, row) => sum + row.total, 0) ?? 0;

  const download = () => {
    setCsvError(null);
    setDownloading(true);
    downloadCheckoutsCsv(from, to)
      .catch((error: unknown) => setCsvError(errorDetail(error, 'CSVをダウンロードできませんでした。')))
      .finally(() => setDownloading(false));
  };

  let content;
  if (takings.isPending) content = <LoadingState label="売上を読み込み中..." />;
  else if (takings.isError)
    content = (
      <Text c="red" role="alert">
        {errorDetail(takings.error, '売上を読み込めませんでした。')}
      </Text>
    );
  else if (takings.data.length === 0) content = <Text c="dimmed">この期間の売上はありません。</Text>;
  else
    content = (
      <Table aria-label="売上の内訳" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{GROUPS.find((item) => item.value === group)?.label.replace('別', '')}</Table.Th>
            <Table.Th ta="right">件数</Table.Th>
            {group === 'staff' && <Table.Th ta="right">指名</Table.Th>}
            {group === 'staff' && <Table.Th ta="right">指名率</Table.Th>}
            <Table.Th ta="right">売上</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {takings.data.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Td>{row.label}</Table.Td>
              <Table.Td ta="right">{row.count}</Table.Td>
              {group === 'staff' && <Table.Td ta="right">{row.nominated ?? 0}</Table.Td>}
              {group === 'staff' && <Table.Td ta="right">{nominationRate(row)}</Table.Td>}
              <Table.Td ta="right">{formatYen(row.total)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2}>売上</Title>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            type="date"
            label="開始日"
            value={from}
            max={to}
            onChange={(e) => setFrom(e.currentTarget.value || from)}
          />
          <TextInput
            type="date"
            label="終了日"
            value={to}
            min={from}
            onChange={(e) => setTo(e.currentTarget.value || to)}
          />
          <Button variant="default" loading={downloading} onClick={download}>
            CSVをダウンロード
          </Button>
        </Group>
        <SegmentedControl
          aria-label="売上の集計単位"
          value={group}
          onChange={(value) => setGroup(value as TakingsGroup)}
          data={GROUPS}
        />
        <Group justify="space-between" role="group" aria-label="期間の売上合計">
          <Text>期間の売上合計</Text>
          <Text fw={700} fz={28}>
            {formatYen(total)}
          </Text>
        </Group>
        <TakingsSummary from={from} to={to} />
        {content}
        {csvError && (
          <Alert color="red" role="alert">
            {csvError}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
