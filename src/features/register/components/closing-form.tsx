import { Alert, Button, Group, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { errorDetail } from '#src/lib/api-client';
import { formatYen } from '#src/shared/format';
import { PAYMENT_METHODS } from '#src/shared/money/types';
import { PAYMENT_METHOD_LABELS } from '#src/shared/schemas/register';
import { useCloseRegister } from '../api/register-queries';
import { countedTotal, type DayCash, type DenominationCounts } from '../hooks/day-cash';
import { DenominationCounter, type CountMode } from './denomination-counter';

/** 過不足: positive is more cash than expected (過剰), negative less (不足). */
export function differenceText(difference: number): string {
  if (difference === 0) return '過不足なし';
  return difference > 0 ? `${formatYen(difference)} 過剰` : `${formatYen(-difference)} 不足`;
}

export function MethodTotals({ totals }: { totals: DayCash['totals_by_method'] }) {
  return (
    <Table aria-label="支払方法別の合計">
      <Table.Tbody>
        {PAYMENT_METHODS.map((method) => (
          <Table.Tr key={method}>
            <Table.Th scope="row">{PAYMENT_METHOD_LABELS[method]}</Table.Th>
            <Table.Td ta="right">{formatYen(totals[method])}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** レジ締め of one open day: the expected cash, the count, the difference, a memo, then 締める (confirmed). */
export function ClosingForm({ date, openingFloat, cash }: { date: string; openingFloat: number; cash: DayCash }) {
  const [mode, setMode] = useState<CountMode>('denominations');
  const [counts, setCounts] = useState<DenominationCounts>({});
  const [sum, setSum] = useState<number | ''>('');
  const [memo, setMemo] = useState('');
  const [asking, setAsking] = useState(false);
  const close = useCloseRegister();
  // Nothing counted yet is no count (not a drawer of ¥0): 締める waits for one.
  const counted =
    mode === 'denominations' ? (Object.keys(counts).length > 0 ? countedTotal(counts) : null) : sum === '' ? null : sum;
  const difference = counted === null ? null : counted - cash.expected_cash;

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h3">
          レジ締め
        </Title>
        <MethodTotals totals={cash.totals_by_method} />
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            釣り銭準備金 {formatYen(openingFloat)} + 現金お預かり {formatYen(cash.cash_received)} − おつり{' '}
            {formatYen(cash.change_given)} − 返金 {formatYen(cash.cash_refunded)}
          </Text>
          <Group justify="space-between" role="group" aria-label="予想現金">
            <Text fw={700}>予想現金</Text>
            <Text fw={700} fz="xl">
              {formatYen(cash.expected_cash)}
            </Text>
          </Group>
        </Stack>
        <DenominationCounter
          mode={mode}
          counts={counts}
          sum={sum}
          onModeChange={setMode}
          onCountsChange={setCounts}
          onSumChange={setSum}
        />
        <Group justify="space-between" role="group" aria-label="過不足">
          <Text fw={700}>過不足</Text>
          <Text fw={700} fz="xl" c={difference === null || difference === 0 ? undefined : 'red'}>
            {difference === null ? '—' : differenceText(difference)}
          </Text>
        </Group>
        <Textarea label="メモ" maxLength={500} value={memo} onChange={(event) => setMemo(event.currentTarget.value)} />
        {close.isError && (
          <Alert color="red" title="締められませんでした" role="alert">
            {errorDetail(close.error, '時間をおいて再度お試しください。')}
          </Alert>
        )}
        <Button size="lg" disabled={counted === null} loading={close.isPending} onClick={() => setAsking(true)}>
          締める
        </Button>
      </Stack>
      <ConfirmDialog
        opened={asking}
        message={`${date} のレジを締めます。締めた日には会計・取消・返金を記録できなくなります。よろしいですか？`}
        confirmLabel="締める"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          if (counted !== null) close.mutate({ date, counted_cash: counted, memo: memo.trim() });
        }}
      />
    </Paper>
  );
}
