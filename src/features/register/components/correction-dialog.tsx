import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { errorDetail } from '#src/lib/api-client';
import { formatYen } from '#src/shared/format';
import type { Checkout } from '#src/shared/schemas/register';
import { useRefundCheckout, useVoidCheckout } from '../api/register-queries';
import { RefundLines, requestedLines } from './refund-lines';

export type CorrectionKind = 'void' | 'refund';

const TEXT: Record<CorrectionKind, { title: string; action: string; question: (checkout: Checkout) => string }> = {
  void: {
    title: '会計の取消',
    action: '取消する',
    question: (checkout) =>
      `領収書 ${checkout.receipt_number}（${formatYen(checkout.total)}）を取り消します。お支払いはすべて同じ方法でお返しします。`,
  },
  refund: {
    title: '返金',
    action: '返金する',
    question: (checkout) =>
      `領収書 ${checkout.receipt_number} の明細を返金します。返金数を選ばなければ、まだ返金していない明細をすべて返金します（現金でお支払いの場合は現金で）。`,
  },
};

/**
 * A void or a refund (superuser): a reason is required, and the dialog itself is the confirmation. A refund may
 * name lines and quantities (per-line refunds); none named gives back everything left.
 */
export function CorrectionDialog({
  checkout,
  kind,
  onClose,
}: {
  checkout: Checkout | null;
  kind: CorrectionKind;
  onClose(): void;
}) {
  const [reason, setReason] = useState('');
  const [quantities, setQuantities] = useState<Record<number, number>>({});
  const voidCheckout = useVoidCheckout();
  const refund = useRefundCheckout();
  const mutation = kind === 'void' ? voidCheckout : refund;
  const close = () => {
    setReason('');
    setQuantities({});
    mutation.reset();
    onClose();
  };
  const text = TEXT[kind];
  return (
    <Modal opened={checkout !== null} onClose={close} title={text.title} centered>
      {checkout && (
        <Stack>
          <Text>{text.question(checkout)}</Text>
          {kind === 'refund' && <RefundLines checkout={checkout} quantities={quantities} onChange={setQuantities} />}
          <Textarea
            label="理由"
            required
            maxLength={200}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          {mutation.isError && (
            <Alert color="red" role="alert">
              {errorDetail(mutation.error, '時間をおいて再度お試しください。')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              戻る
            </Button>
            <Button
              color="red"
              disabled={reason.trim() === ''}
              loading={mutation.isPending}
              onClick={() => {
                const lines = kind === 'refund' ? requestedLines(quantities) : undefined;
                mutation.mutate({ id: checkout.id, reason: reason.trim(), lines }, { onSuccess: close });
              }}
            >
              {text.action}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
