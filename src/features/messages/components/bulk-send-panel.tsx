import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { CollapsiblePanel } from '#src/components/collapsible-panel';
import { ConfirmDialog } from '#src/components/confirm-dialog';
import { ImageAttachment } from '#src/components/image-attachment';
import { useAdminViewer } from '#src/components/staff-choice';
import { MESSAGES } from '#src/shared/messages';
import { canSeeAllBookings, roleOf } from '#src/shared/roles';
import { useSendBulkMessage } from '../api/messages-queries';

const MESSAGE_MAX_LENGTH = 5000;

type Outcome = { ok: true; queued: number } | { ok: false } | null;

/** The bulk-send panel of the message history (docs/screens.md#message-history: text or an image, otherwise nothing is sent). */
export function BulkSendPanel() {
  const [text, setText] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const send = useSendBulkMessage();
  // The server sends a nailist's bulk message to their own customers only: say so.
  const viewer = useAdminViewer().data;
  const everyone = !viewer || canSeeAllBookings(roleOf(viewer));
  const audience = everyone ? 'LINE連携済みの全顧客' : 'LINE連携済みの担当のお客様';
  const hasContent = Boolean(text.trim() || image);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!hasContent || send.isPending) return;
    setConfirming(true);
  };

  const confirmSend = () => {
    setConfirming(false);
    setOutcome(null);
    send.mutate(
      { text, image },
      {
        onSuccess: (answer) => {
          setOutcome({ ok: true, queued: answer.queued });
          setText('');
          setImage(null);
        },
        onError: () => setOutcome({ ok: false }),
      },
    );
  };

  return (
    <>
      <CollapsiblePanel title="一斉送信">
        <form onSubmit={submit} noValidate>
          <Stack mt="sm">
            <Text size="sm" c="dimmed">
              {audience}に同じメッセージを送信します。
            </Text>
            <Textarea
              label="一斉送信メッセージ"
              rows={4}
              value={text}
              maxLength={MESSAGE_MAX_LENGTH}
              disabled={send.isPending}
              onChange={(event) => setText(event.currentTarget.value)}
            />
            <ImageAttachment
              file={image}
              onChange={setImage}
              disabled={send.isPending}
              label="一斉送信の画像（任意）"
            />
            {outcome?.ok === true && outcome.queued === 0 && (
              <Alert color="yellow" role="status">
                {MESSAGES.adminBulkNoRecipients}
              </Alert>
            )}
            {outcome?.ok === true && outcome.queued > 0 && (
              <Alert color="green" role="status">
                {everyone ? MESSAGES.adminBulkSent : MESSAGES.adminBulkSentOwn(outcome.queued)}
                <Text size="xs" mt={4}>
                  送信対象: {outcome.queued}名
                </Text>
              </Alert>
            )}
            {outcome?.ok === false && (
              <Alert color="red" role="alert">
                {MESSAGES.adminBulkSendFailed}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" disabled={!hasContent || send.isPending}>
                {send.isPending ? '送信中...' : everyone ? '全顧客に送信' : '担当のお客様に送信'}
              </Button>
            </Group>
          </Stack>
        </form>
      </CollapsiblePanel>
      <ConfirmDialog
        opened={confirming}
        message={`${audience}にこの内容を送信しますか？`}
        confirmLabel="送信する"
        onConfirm={confirmSend}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
