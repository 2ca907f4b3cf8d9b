import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatYen } from '#src/shared/format';

const KEYS = ['7', '8', '9', '4', '5', '6', '1', '2', '3', '0', '00', '000'];
/** Notes added at once; short labels so that they fit three abreast on a phone. */
const QUICK = [
  { amount: 1000, label: '+千円' },
  { amount: 5000, label: '+5千円' },
  { amount: 10000, label: '+1万円' },
];
const MAX_DIGITS = 8;

/**
 * お預かり: a large keypad for the cash handed over (tablet and phone), with quick notes and ちょうど (the cash due).
 * The value is shown as a live region so that a screen reader hears each key.
 */
export function CashKeypad({
  value,
  cashDue,
  onChange,
}: {
  value: number | null;
  cashDue: number;
  onChange(value: number | null): void;
}) {
  const press = (digits: string) => {
    const next = `${value ?? ''}${digits}`.replace(/^0+(?=\d)/, '');
    if (next.length <= MAX_DIGITS) onChange(Number(next));
  };
  return (
    <Stack gap="xs" role="group" aria-label="お預かり金額の入力">
      <Text size="sm" c="dimmed">
        お預かり
      </Text>
      <Text fz={36} fw={700} ta="right" aria-live="polite" aria-label="お預かり金額">
        {value === null ? '—' : formatYen(value)}
      </Text>
      <SimpleGrid cols={3} spacing="xs">
        {KEYS.map((key) => (
          <Button key={key} size="xl" variant="default" onClick={() => press(key)} aria-label={`${key}を入力`}>
            {key}
          </Button>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={3} spacing="xs">
        {QUICK.map(({ amount, label }) => (
          <Button
            key={amount}
            size="lg"
            px="xs"
            variant="light"
            aria-label={`${amount.toLocaleString('ja-JP')}円を足す`}
            onClick={() => onChange((value ?? 0) + amount)}
          >
            {label}
          </Button>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={2} spacing="xs">
        <Button size="lg" variant="light" color="teal" onClick={() => onChange(cashDue)}>
          ちょうど
        </Button>
        <Button size="lg" variant="light" color="gray" onClick={() => onChange(null)}>
          クリア
        </Button>
      </SimpleGrid>
    </Stack>
  );
}
