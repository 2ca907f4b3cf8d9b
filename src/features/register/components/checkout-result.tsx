import { Alert, Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatYen } from '#src/shared/format';
import type { Checkout } from '#src/shared/schemas/register';
import type { SalonSettings } from '#src/shared/schemas/settings';
import { useCheckoutWaiting } from '../offline/checkout-change';
import { ReceiptPrintButton } from './receipt-print';
import { ReceiptSendButtons } from './receipt-send';

/**
 * What a finished checkout shows: its number, total and change in large figures, and the receipt. One kept on this
 * device (`queued`) is marked 未送信; its receipt is written here, with the number the server will keep.
 */
export function CheckoutResult({
  checkout,
  queued,
  salon,
  backTo,
  backLabel,
}: {
  checkout: Checkout;
  queued: boolean;
  salon: SalonSettings | undefined;
  backTo: string;
  backLabel: string;
}) {
  // Cleared once the outbox has sent it (the receipt stays the one drawn here: the server keeps its number).
  const unsent = useCheckoutWaiting(checkout.receipt_number) && queued;
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={2} c="teal" role="status">
          会計が完了しました
        </Title>
        <Group gap="xs">
          <Text>領収書番号 {checkout.receipt_number}</Text>
          {unsent && (
            <Badge color="yellow" variant="filled">
              未送信
            </Badge>
          )}
        </Group>
        {unsent && <Alert color="yellow">この会計は端末に保存しました。接続が戻ると自動で一度だけ送信します。</Alert>}
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
        <ReceiptPrintButton source={queued ? { local: checkout, salon } : checkout.id} size="lg" />
        {/* A checkout kept on this device has no id on the server yet: there is no receipt there to send. */}
        {!queued && <ReceiptSendButtons checkout={checkout} />}
        <Anchor component={Link} to={backTo}>
          {backLabel}
        </Anchor>
      </Stack>
    </Paper>
  );
}
