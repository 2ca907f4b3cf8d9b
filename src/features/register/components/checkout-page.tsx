import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { errorDetail } from '#src/lib/api-client';
import { useCheckoutDraft, useCustomerName, useRegisterSettings } from '../api/register-queries';
import { useQueuedCheckouts } from '../offline/checkout-change';
import { CheckoutEditor, type FinishedCheckout } from './checkout-editor';
import { CheckoutResult } from './checkout-result';

/**
 * 会計 (docs/architecture.md#register-会計): a reservation's (its lines from the checkout draft) at
 * /admin/reservations/:reservationNumber/checkout, or a customer's without a booking at
 * /admin/customers/:customerId/checkout.
 */
export function CheckoutPage() {
  const params = useParams();
  const reservationNumber = params.reservationNumber;
  const customerParam = params.customerId ? Number(params.customerId) : undefined;
  const draft = useCheckoutDraft(reservationNumber);
  const customerId = customerParam ?? draft.data?.customer_id;
  const customerName = useCustomerName(customerId);
  const backTo = reservationNumber
    ? `/admin/reservations/${encodeURIComponent(reservationNumber)}`
    : `/admin/customers/${customerParam ?? ''}`;
  const backLabel = reservationNumber ? '予約詳細に戻る' : '顧客詳細に戻る';

  const settings = useRegisterSettings();
  const [done, setDone] = useState<FinishedCheckout | null>(null);
  // The receipt number of the checkout being sent from this page: it is not "another" checkout waiting.
  const [submitted, setSubmitted] = useState<string | null>(null);
  // A checkout of this booking made on this device waits to be sent: a second one would only be refused (409).
  const queued = useQueuedCheckouts().find(
    (entry) =>
      reservationNumber &&
      entry.checkout.reservation_number?.toLowerCase() === reservationNumber.toLowerCase() &&
      entry.checkout.receipt_number !== submitted,
  );

  let content;
  if (done) content = <CheckoutResult {...done} salon={settings.data} backTo={backTo} backLabel={backLabel} />;
  else if (queued)
    content = (
      <Alert color="yellow" title="この予約の会計は未送信です" role="status">
        領収書番号 {queued.checkout.receipt_number} の会計がこの端末に保存されています。接続が戻ると送信します。
      </Alert>
    );
  else if (reservationNumber && draft.isPending) content = <LoadingState label="読み込み中..." />;
  else if (reservationNumber && draft.isError)
    content = (
      <Text c="red" role="alert">
        {errorDetail(draft.error, '会計の明細を読み込めませんでした。')}
      </Text>
    );
  else
    content = (
      <CheckoutEditor
        initialLines={draft.data?.lines ?? []}
        target={reservationNumber ? { reservation_number: reservationNumber } : { customer_id: customerParam }}
        bookedStaffId={draft.data?.staff_id}
        customerName={customerName.data ?? ''}
        onSubmit={setSubmitted}
        onDone={setDone}
      />
    );

  return (
    <Stack>
      <title>会計</title>
      <Title order={1}>会計</Title>
      {customerName.data && <Text size="lg">{customerName.data} 様</Text>}
      <Anchor component={Link} to={backTo}>
        {backLabel}
      </Anchor>
      {content}
    </Stack>
  );
}
