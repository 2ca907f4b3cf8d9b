import { Button } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { errorDetail } from '#src/lib/api-client';
import { toast } from '#src/lib/notify';
import { useOnline } from '#src/lib/online';
import { MESSAGES } from '#src/shared/messages';
import { useUnlinkCustomerLine } from '../api/customers-queries';

/**
 * LINE連携を解除 (superusers only; the caller decides whether to show it): after a confirmation, the customer's LINE
 * link goes (DELETE /api/admin/customers/{id}/line-link/), e.g. one made to the wrong LINE account. The server
 * records who did it and when.
 */
export function CustomerLineUnlinkButton({ customerId }: { customerId: number }) {
  const unlink = useUnlinkCustomerLine(customerId);
  const online = useOnline();
  const [confirming, setConfirming] = useState(false);

  const onConfirm = () => {
    setConfirming(false);
    unlink.mutate(undefined, {
      onSuccess: () => toast('green', MESSAGES.customerLineUnlinked),
      onError: (error) => toast('red', errorDetail(error, MESSAGES.customerLineUnlinkFailed)),
    });
  };

  return (
    <>
      <Button
        variant="light"
        color="red"
        onClick={() => setConfirming(true)}
        loading={unlink.isPending}
        disabled={!online || unlink.isPending}
      >
        LINE連携を解除
      </Button>
      <ConfirmDialog
        opened={confirming}
        message={MESSAGES.customerLineUnlinkQuestion}
        confirmLabel="解除する"
        color="red"
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
