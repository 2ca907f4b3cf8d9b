import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type Dispatch } from 'react';
import { formatYen } from '#src/shared/format';
import type { CheckoutFormAction, FormDiscount } from '../hooks/use-checkout-form';

/** 値引き: yen or a percent of the subtotal (rounded down), each with its name (初回割…). */
export function CheckoutDiscounts({
  discounts,
  dispatch,
}: {
  discounts: FormDiscount[];
  dispatch: Dispatch<CheckoutFormAction>;
}) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<FormDiscount['kind']>('yen');
  const [value, setValue] = useState<number | ''>('');
  const valid = name.trim() !== '' && typeof value === 'number' && value >= 1 && (kind === 'yen' || value <= 100);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          値引き
        </Title>
        {discounts.map((discount) => (
          <Group key={discount.key} justify="space-between">
            <Text>
              {discount.name}（{discount.kind === 'percent' ? `${discount.value}%` : formatYen(discount.value)}）
            </Text>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`${discount.name}を削除`}
              onClick={() => dispatch({ type: 'removeDiscount', key: discount.key })}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="値引き名"
            placeholder="初回割"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <SegmentedControl
            aria-label="値引きの種類"
            value={kind}
            onChange={(next) => setKind(next as FormDiscount['kind'])}
            data={[
              { value: 'yen', label: '円' },
              { value: 'percent', label: '%' },
            ]}
          />
          <NumberInput
            label={kind === 'yen' ? '値引き額（円）' : '値引き率（%）'}
            value={value}
            min={1}
            max={kind === 'percent' ? 100 : undefined}
            allowDecimal={false}
            allowNegative={false}
            onChange={(next) => setValue(typeof next === 'number' ? next : '')}
            w={130}
          />
          <Button
            variant="light"
            disabled={!valid}
            onClick={() => {
              if (!valid) return;
              dispatch({ type: 'addDiscount', discount: { name: name.trim(), kind, value } });
              setName('');
              setValue('');
            }}
          >
            値引きを追加
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
