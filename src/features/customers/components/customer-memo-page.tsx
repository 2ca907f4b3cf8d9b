import { Anchor, Button, Group, Stack, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PendingBadge } from '#src/components/pending-badge';
import { useDirtyForm } from '#src/lib/dirty-forms';
import { toast } from '#src/lib/notify';
import { usePendingNotes } from '../offline-changes';
import { MESSAGES } from '#src/shared/messages';
import type { AdminCustomer } from '#src/shared/schemas/customers';
import { useCustomer, useUpdateCustomerNotes } from '../api/customers-queries';
import { useCustomerId } from '../hooks/use-customer-id';
import { CustomerLoadState, CustomerNotFound } from './customer-state';
import { paths } from '#src/lib/paths';

/** docs/screens.md#customer-memo: the memo text area has 15 rows. */
const MEMO_ROWS = 15;

function MemoForm({ customer }: { customer: AdminCustomer }) {
  // A memo edit still waiting in the outbox is the memo this device knows (docs/architecture.md#offline-design).
  const pending = usePendingNotes(customer.id);
  const [saved, setSaved] = useState(pending.value ?? customer.notes);
  const [notes, setNotes] = useState(saved);
  const save = useUpdateCustomerNotes(customer.id, customer.name);
  // A new version of the app waits while this has unsaved input.
  useDirtyForm(notes !== saved);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(notes, {
      onSuccess: (result) => {
        setSaved(notes);
        if (result.queued) toast('yellow', MESSAGES.offlineMemoQueued);
        else toast('green', MESSAGES.adminMemoSaved);
      },
      onError: () => toast('red', MESSAGES.adminMemoSaveFailed),
    });
  };

  return (
    <Stack>
      <title>{`${customer.name}様のメモ`}</title>
      <Anchor component={Link} to={paths.adminCustomer(customer.id)} size="sm">
        ← 顧客詳細に戻る
      </Anchor>
      <Group gap="sm">
        <Title order={1}>{customer.name}様のメモ</Title>
        <PendingBadge pending={pending} />
      </Group>
      <form onSubmit={submit}>
        <Stack>
          <Textarea
            label="メモ"
            placeholder="お客様に関するメモ（好み、注意事項など）を入力してください"
            rows={MEMO_ROWS}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            maxLength={5000}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              保存する
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function MemoLoader({ id }: { id: number }) {
  const customer = useCustomer(id);
  if (!customer.data) return <CustomerLoadState error={customer.error} title="顧客メモ" />;
  return <MemoForm customer={customer.data} />;
}

/** The memo screen (docs/screens.md#customer-memo): PATCH notes. */
export function CustomerMemoPage() {
  const id = useCustomerId();
  if (id === null) return <CustomerNotFound title="顧客メモ" />;
  return <MemoLoader key={id} id={id} />;
}
