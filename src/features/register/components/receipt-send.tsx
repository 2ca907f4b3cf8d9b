import { Button, Group, Stack, Text } from '@mantine/core';
import { OfflineReason } from '#src/components/online-only';
import { errorDetail } from '#src/lib/api-client';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import { REGISTER_MESSAGES } from '#src/shared/register-messages';
import type { Checkout } from '#src/shared/schemas/register';
import { useCustomerReach, useSendReceipt } from '../api/register-queries';

/**
 * 「メールで送る」「LINEで送る」: the receipt to the checkout's customer (POST /api/admin/checkouts/{id}/send-receipt/),
 * at once, without a question (it only queues a message). A button is disabled when the customer has no address on
 * its channel; while that is unknown (the customer not readable here) both are offered and the server's refusal is
 * shown. Online only. Nothing for a checkout without a customer.
 */
export function ReceiptSendButtons({ checkout }: { checkout: Pick<Checkout, 'id' | 'customer_id'> }) {
  const online = useOnline();
  const reach = useCustomerReach(checkout.customer_id ?? undefined);
  const send = useSendReceipt();
  if (checkout.customer_id === null) return null;
  const canReach = (channel: 'email' | 'line') => reach.data?.[channel] ?? true;
  const buttonFor = (channel: 'email' | 'line', label: string) => (
    <Button
      variant="default"
      disabled={!online || !canReach(channel)}
      loading={send.isPending && send.variables.channel === channel}
      onClick={() => send.mutate({ id: checkout.id, channel })}
    >
      {label}
    </Button>
  );
  return (
    <Stack gap="xs">
      <Group>
        {buttonFor('email', 'メールで送る')}
        {buttonFor('line', 'LINEで送る')}
      </Group>
      <OfflineReason what="領収書の送信" />
      {send.isSuccess && (
        <Text c="teal" role="status">
          {REGISTER_MESSAGES.receiptSent}
        </Text>
      )}
      {send.isError && (
        <Text c="red" role="alert">
          {errorDetail(send.error, MESSAGES.serverError)}
        </Text>
      )}
    </Stack>
  );
}
