import { Alert, Anchor, Button, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { LoadingState } from '#src/components/loading-state';
import { errorDetail } from '#src/lib/api-client';
import { newIdempotencyKey } from '#src/lib/idempotency-key';
import { formatYen } from '#src/shared/format';
import type { ReceiptLine } from '#src/shared/money/types';
import type { Checkout, CreateCheckoutRequest } from '#src/shared/schemas/register';
import {
  useCheckoutDraft,
  useCreateCheckout,
  useCustomerName,
  useProducts,
  useRegisterSettings,
} from '../api/register-queries';
import { discountsOf, linesOf, REFUSAL_TEXT, useCheckoutForm } from '../hooks/use-checkout-form';
import { CheckoutDiscounts } from './checkout-discounts';
import { CheckoutLines } from './checkout-lines';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutResult } from './checkout-result';
import { CheckoutTotals } from './checkout-totals';

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

  let content;
  if (reservationNumber && draft.isPending) content = <LoadingState label="読み込み中..." />;
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
        backTo={backTo}
        backLabel={backLabel}
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

type CheckoutTarget = Pick<CreateCheckoutRequest, 'reservation_number' | 'customer_id'>;

function CheckoutEditor({
  initialLines,
  target,
  backTo,
  backLabel,
}: {
  initialLines: readonly ReceiptLine[];
  target: CheckoutTarget;
  backTo: string;
  backLabel: string;
}) {
  const settings = useRegisterSettings();
  const products = useProducts();
  const { state, dispatch, totals } = useCheckoutForm(settings.data?.tax_rounding ?? 'floor', initialLines);
  const create = useCreateCheckout();
  const [done, setDone] = useState<Checkout | null>(null);
  // The same key for the same checkout sent again (a lost answer), a new one once anything changed.
  const idempotency = useRef<{ payload: string; key: string } | null>(null);

  if (done) return <CheckoutResult checkout={done} backTo={backTo} backLabel={backLabel} />;

  const submit = () => {
    if (!totals.settlement) return;
    const body: CreateCheckoutRequest = {
      ...target,
      lines: linesOf(state),
      discounts: discountsOf(state),
      payments: totals.settlement.payments,
      ...(totals.settlement.cash_received > 0 ? { cash_received: totals.settlement.cash_received } : {}),
    };
    const payload = JSON.stringify(body);
    if (idempotency.current?.payload !== payload) idempotency.current = { payload, key: newIdempotencyKey() };
    create.mutate({ body, key: idempotency.current.key }, { onSuccess: setDone });
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack>
        <CheckoutLines lines={state.lines} products={products.data ?? []} dispatch={dispatch} />
        <CheckoutDiscounts discounts={state.discounts} dispatch={dispatch} />
      </Stack>
      <Stack>
        <CheckoutTotals receipt={totals.receipt} change={totals.settlement ? totals.settlement.change : null} />
        <CheckoutPayments
          payments={state.payments}
          total={totals.receipt?.total ?? 0}
          cashDue={totals.cashDue ?? 0}
          cashReceived={state.cashReceived}
          dispatch={dispatch}
        />
        {totals.refusal && (
          <Text c="red" role="alert">
            {REFUSAL_TEXT[totals.refusal]}
          </Text>
        )}
        {create.isError && (
          <Alert color="red" title="会計できませんでした" role="alert">
            {errorDetail(create.error, '時間をおいて再度お試しください。')}
          </Alert>
        )}
        <Button size="xl" color="teal" disabled={!totals.settlement} loading={create.isPending} onClick={submit}>
          会計する{totals.receipt ? `（${formatYen(totals.receipt.total)}）` : ''}
        </Button>
      </Stack>
    </SimpleGrid>
  );
}
