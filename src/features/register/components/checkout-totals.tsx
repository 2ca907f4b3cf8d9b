import { Group, Paper, Stack, Text } from '@mantine/core';
import { formatYen } from '#src/shared/format';
import type { ReceiptTotals } from '#src/shared/money/receipt';

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" role="group" aria-label={label}>
      <Text fw={strong ? 700 : undefined} fz={strong ? 'xl' : undefined}>
        {label}
      </Text>
      <Text fw={strong ? 700 : undefined} fz={strong ? 28 : undefined}>
        {value}
      </Text>
    </Group>
  );
}

/** 小計, 値引き, 合計 and 内消費税 per rate, recomputed as the staff edit; おつり in large figures. */
export function CheckoutTotals({ receipt, change }: { receipt: ReceiptTotals | null; change: number | null }) {
  return (
    <Paper withBorder p="md">
      <Stack gap={4}>
        <Row label="小計" value={formatYen(receipt?.subtotal ?? 0)} />
        {receipt && receipt.discount_total > 0 && (
          <Row label="値引き" value={`-${formatYen(receipt.discount_total)}`} />
        )}
        <Row label="合計" value={formatYen(receipt?.total ?? 0)} strong />
        {receipt?.tax_by_rate.map((entry) => (
          <Row
            key={entry.rate}
            label={`内消費税 ${entry.rate}%${entry.rate === 8 ? '（軽減）' : ''}`}
            value={`${formatYen(entry.tax)}（対象 ${formatYen(entry.taxable_total)}）`}
          />
        ))}
        {change !== null && (
          <Group justify="space-between" role="group" aria-label="おつり" mt="sm">
            <Text fw={700} fz="xl">
              おつり
            </Text>
            <Text fw={700} fz={44} c="teal">
              {formatYen(change)}
            </Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
