import { Group, NumberInput, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatYen } from '#src/shared/format';
import { countedTotal, DENOMINATIONS, type DenominationCounts } from '../hooks/day-cash';

export type CountMode = 'denominations' | 'sum';

/** The drawer's cash: counted note by note and coin by coin, or typed as one sum. */
export function DenominationCounter({
  mode,
  counts,
  sum,
  onModeChange,
  onCountsChange,
  onSumChange,
}: {
  mode: CountMode;
  counts: DenominationCounts;
  sum: number | '';
  onModeChange(mode: CountMode): void;
  onCountsChange(counts: DenominationCounts): void;
  onSumChange(sum: number | ''): void;
}) {
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="現金の数え方"
        value={mode}
        onChange={(value) => onModeChange(value as CountMode)}
        data={[
          { value: 'denominations', label: '金種で数える' },
          { value: 'sum', label: '合計を入力' },
        ]}
      />
      {mode === 'denominations' ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs">
            {DENOMINATIONS.map((value) => (
              <NumberInput
                key={value}
                label={`${value.toLocaleString('ja-JP')}円`}
                aria-label={`${value.toLocaleString('ja-JP')}円の枚数`}
                suffix="枚"
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={counts[value] ?? ''}
                onChange={(next) => onCountsChange({ ...counts, [value]: typeof next === 'number' ? next : 0 })}
              />
            ))}
          </SimpleGrid>
          <Group justify="space-between">
            <Text>数えた現金</Text>
            <Text fw={700}>{formatYen(countedTotal(counts))}</Text>
          </Group>
        </>
      ) : (
        <NumberInput
          label="数えた現金（合計）"
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          value={sum}
          onChange={(next) => onSumChange(typeof next === 'number' ? next : '')}
        />
      )}
    </Stack>
  );
}
