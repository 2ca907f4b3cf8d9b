import { Alert, Anchor, Button, Group, Stack, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { ImageAttachment } from '#src/components/image-attachment';
import { toast } from '#src/lib/notify';
import { MESSAGES } from '#src/shared/messages';
import type { AdminCustomer } from '#src/shared/schemas/customers';
import { useCustomer, useSendCustomerMessage } from '../api/customers-queries';
import { errorDetail } from '#src/lib/api-client';
import { useCustomerId } from '../hooks/use-customer-id';
import { CustomerLoadState, CustomerNotFound } from './customer-state';
import { paths } from '#src/lib/paths';

/** docs/screens.md#send-message: the message text area has 8 rows. LINE takes at most 5000 characters per text message. */
const MESSAGE_ROWS = 8;
const MESSAGE_MAX_LENGTH = 5000;

function SendMessageForm({ customer }: { customer: AdminCustomer }) {
  const [text, setText] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const send = useSendCustomerMessage(customer.id);
  const navigate = useNavigate();
  const detailPath = paths.adminCustomer(customer.id);
  const linked = customer.is_line_linked;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // docs/screens.md#send-message: non-blank text (after trimming) or an image.
    if (!text.trim() && !image) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setConfirming(true);
  };

  const confirmSend = () => {
    setConfirming(false);
    send.mutate(
      { text, image },
      {
        onSuccess: () => {
          toast('green', MESSAGES.adminMessageSent);
          void navigate(detailPath);
        },
        onError: (error) =>
          toast('red', MESSAGES.adminMessageSendFailed(errorDetail(error, MESSAGES.adminMessageSendFailedFallback))),
      },
    );
  };

  return (
    <Stack>
      <title>{`${customer.name}様へのメッセージ送信`}</title>
      <Anchor component={Link} to={detailPath} size="sm">
        ← 顧客詳細に戻る
      </Anchor>
      <Title order={1}>{customer.name}様へメッセージを送信</Title>
      {!linked && (
        <Alert color="yellow" role="status">
          {MESSAGES.customerNotLineLinked}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          <Textarea
            label="メッセージ"
            rows={MESSAGE_ROWS}
            value={text}
            maxLength={MESSAGE_MAX_LENGTH}
            disabled={!linked || send.isPending}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <ImageAttachment file={image} onChange={setImage} disabled={!linked || send.isPending} />
          {invalid && (
            <Alert color="red" role="alert">
              {MESSAGES.messageOrImageRequired}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" disabled={!linked || (!text && !image) || send.isPending}>
              {send.isPending ? '送信中...' : '送信する'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirming}
        message={MESSAGES.adminMessageSendConfirm}
        confirmLabel="送信する"
        onConfirm={confirmSend}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

function SendMessageLoader({ id }: { id: number }) {
  const customer = useCustomer(id);
  if (!customer.data) return <CustomerLoadState error={customer.error} title="メッセージ送信" />;
  return <SendMessageForm customer={customer.data} />;
}

/** The send-message screen (docs/screens.md#send-message): customers/{id}/send-message and customers/{id}/line. */
export function SendMessagePage() {
  const id = useCustomerId();
  if (id === null) return <CustomerNotFound title="メッセージ送信" />;
  return <SendMessageLoader key={id} id={id} />;
}
