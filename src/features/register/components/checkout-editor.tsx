import { Alert, Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { nowLocal, todayLocal } from '#src/lib/device-time';
import { currentStaffId } from '#src/lib/token-session';
import { formatYen } from '#src/shared/format';
import type { ReceiptLine } from '#src/shared/money/types';
import type { Checkout } from '#src/shared/schemas/register';
import { useProducts, useRecordCheckout, useRegisterSettings } from '../api/register-queries';
import { discountsOf, linesOf, REFUSAL_TEXT, useCheckoutForm } from '../hooks/use-checkout-form';
import { checkoutChange, localCheckout, type CheckoutRequest } from '../offline/checkout-change';
import { nextDeviceReceiptNumber } from '../offline/device-receipt-number';
import { CheckoutDiscounts } from './checkout-discounts';
import { CheckoutLines } from './checkout-lines';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutStaffPicker } from './checkout-staff-picker';
import { CheckoutTotals } from './checkout-totals';

/** A checkout taken by the server, or kept on this device (`queued`: 未送信, its receipt drawn here). */
export interface FinishedCheckout {
  checkout: Checkout;
  queued: boolean;
}

type CheckoutTarget = Pick<CheckoutRequest, 'reservation_number' | 'customer_id'>;

/**
 * The checkout's lines, discounts and payments, and 会計する. The checkout goes through the outbox
 * (offline/checkout-change.ts): it carries a receipt number drawn on this device and the time it was made, so that
 * one made without a connection is printed with the number and date the server will keep, and is sent once later.
 */
export function CheckoutEditor({
  initialLines,
  target,
  bookedStaffId,
  customerName,
  onSubmit,
  onDone,
}: {
  initialLines: readonly ReceiptLine[];
  target: CheckoutTarget;
  /** The reservation's 担当 (a customer's checkout: the one checking out). */
  bookedStaffId: number | undefined;
  customerName: string;
  /** Told the receipt number before the checkout is sent or kept. */
  onSubmit(receiptNumber: string): void;
  onDone(finished: FinishedCheckout): void;
}) {
  const settings = useRegisterSettings();
  const products = useProducts();
  const { state, dispatch, totals } = useCheckoutForm(settings.data?.tax_rounding ?? 'floor', initialLines);
  const record = useRecordCheckout();
  const [staffId, setStaffId] = useState<number | undefined>(undefined);
  const submit = () => {
    if (!totals.settlement || !totals.receipt) return;
    const request = {
      ...target,
      ...(staffId !== undefined ? { staff_id: staffId } : {}),
      receipt_number: nextDeviceReceiptNumber(todayLocal()),
      checked_out_at: nowLocal(),
      lines: linesOf(state),
      discounts: discountsOf(state),
      payments: totals.settlement.payments,
      ...(totals.settlement.cash_received > 0 ? { cash_received: totals.settlement.cash_received } : {}),
    };
    const local = localCheckout({
      request,
      totals: totals.receipt,
      settlement: totals.settlement,
      customerName,
      staffId: staffId ?? bookedStaffId ?? currentStaffId() ?? 0,
    });
    onSubmit(request.receipt_number);
    record.mutate(checkoutChange.of({ request, local }), {
      onSuccess: (result) =>
        onDone(result.queued ? { checkout: local, queued: true } : { checkout: result.data, queued: false }),
    });
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack>
        <CheckoutLines lines={state.lines} products={products.data ?? []} dispatch={dispatch} />
        <CheckoutDiscounts discounts={state.discounts} dispatch={dispatch} />
        <CheckoutStaffPicker bookedStaffId={bookedStaffId} value={staffId} onChange={setStaffId} />
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
        {record.isError && (
          <Alert color="red" title="会計できませんでした" role="alert">
            {errorDetail(record.error, '時間をおいて再度お試しください。')}
          </Alert>
        )}
        <Button size="xl" color="teal" disabled={!totals.settlement} loading={record.isPending} onClick={submit}>
          会計する{totals.receipt ? `（${formatYen(totals.receipt.total)}）` : ''}
        </Button>
      </Stack>
    </SimpleGrid>
  );
}
