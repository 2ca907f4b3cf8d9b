import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatYen } from '#src/shared/format';
import type { Checkout } from '#src/shared/schemas/register';
import { ReceiptPrintButton } from './receipt-print';

/** What a finished checkout shows: its number, total and change in large figures, and the receipt. */
export function CheckoutResult({
  checkout,
  backTo,
  backLabel,
}: {
  checkout: Checkout;
  backTo: string;
  backLabel: string;
}) {
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={2} c="teal" role="status">
          会計が完了しました
        </Title>
        <Text>領収書番号 {checkout.receipt_number}</Text>
        <Group justify="space-between" role="group" aria-label="合計">
          <Text fz="xl">合計</Text>
          <Text fz={32} fw={700}>
            {formatYen(checkout.total)}
          </Text>
        </Group>
        {checkout.cash_received > 0 && (
          <>
            <Group justify="space-between" role="group" aria-label="お預かり">
              <Text fz="xl">お預かり</Text>
              <Text fz={28}>{formatYen(checkout.cash_received)}</Text>
            </Group>
            <Group justify="space-between" role="group" aria-label="おつり">
              <Text fz="xl" fw={700}>
                おつり
              </Text>
              <Text fz={48} fw={700} c="teal">
                {formatYen(checkout.change)}
              </Text>
            </Group>
          </>
        )}
        <ReceiptPrintButton checkoutId={checkout.id} size="lg" />
        <Anchor component={Link} to={backTo}>
          {backLabel}
        </Anchor>
      </Stack>
    </Paper>
  );
}
