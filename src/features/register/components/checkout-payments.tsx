import { ActionIcon, Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import type { Dispatch } from 'react';
import { formatYen } from '#src/shared/format';
import { PAYMENT_METHODS } from '#src/shared/money/types';
import { PAYMENT_METHOD_LABELS } from '#src/shared/schemas/register';
import type { CheckoutFormAction, FormPayment } from '../hooks/use-checkout-form';
import { CashKeypad } from './cash-keypad';

const NON_CASH = PAYMENT_METHODS.filter((method) => method !== 'cash') as FormPayment['method'][];

/**
 * お支払い: any non-cash payments (each prefilled with what is left), and the rest in cash with its お預かり. Several
 * rows split the bill; cash is always what the others leave.
 */
export function CheckoutPayments({
  payments,
  total,
  cashDue,
  cashReceived,
  dispatch,
}: {
  payments: FormPayment[];
  total: number;
  cashDue: number;
  cashReceived: number | null;
  dispatch: Dispatch<CheckoutFormAction>;
}) {
  const paidOtherwise = payments.reduce((sum, payment) => sum + payment.amount, 0);
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          お支払い
        </Title>
        <Group gap="xs" role="group" aria-label="お支払い方法を追加">
          {NON_CASH.map((method) => (
            <Button
              key={method}
              variant="light"
              size="md"
              onClick={() => dispatch({ type: 'addPayment', method, amount: Math.max(0, total - paidOtherwise) })}
            >
              {PAYMENT_METHOD_LABELS[method]}
            </Button>
          ))}
        </Group>
        {payments.map((payment) => (
          <Group key={payment.key} align="flex-end" gap="xs">
            <NumberInput
              label={`${PAYMENT_METHOD_LABELS[payment.method]}の金額`}
              value={payment.amount === 0 ? '' : payment.amount}
              min={0}
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator=","
              onChange={(value) =>
                dispatch({ type: 'setPaymentAmount', key: payment.key, amount: typeof value === 'number' ? value : 0 })
              }
              style={{ flex: 1 }}
            />
            <ActionIcon
              size="lg"
              variant="subtle"
              color="red"
              aria-label={`${PAYMENT_METHOD_LABELS[payment.method]}のお支払いを削除`}
              onClick={() => dispatch({ type: 'removePayment', key: payment.key })}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group justify="space-between">
          <Text fw={700}>{PAYMENT_METHOD_LABELS.cash}でのお支払い</Text>
          <Text fw={700} aria-label="現金でのお支払い">
            {formatYen(cashDue)}
          </Text>
        </Group>
        {cashDue > 0 && (
          <CashKeypad
            value={cashReceived}
            cashDue={cashDue}
            onChange={(amount) => dispatch({ type: 'setCashReceived', amount })}
          />
        )}
      </Stack>
    </Paper>
  );
}
